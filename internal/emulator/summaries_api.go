package emulator

import (
	"cmp"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"time"
)

// A summary's origin and the statuses of its source, as the published document names them.
const (
	summaryOriginAuto = "auto"
	summaryOriginAPI  = "api"

	summaryMissing   = "missing"
	summaryCompleted = "completed"
)

// Slug, title and detail of the 409 of a second summary of one video, and of a source
// corrected while it is generated, as the published document gives them.
const (
	titleSummaryConflict  = "A summary already exists or is being created on this video."
	detailSummaryConflict = "You can delete the existing summary and generate a new one."
	maxTakeaways          = 3
)

// summary is the stored record of a video's summary and its source (abstract and takeaways).
type summary struct {
	ID           string    `json:"summaryId"`
	VideoID      string    `json:"videoId"`
	Origin       string    `json:"origin"`
	SourceStatus string    `json:"sourceStatus"`
	CreatedAt    time.Time `json:"createdAt"`
	UpdatedAt    time.Time `json:"updatedAt"`
	Abstract     string    `json:"abstract,omitempty"`
	Takeaways    []string  `json:"takeaways,omitempty"`
}

// summaryWire is a summary as the service sends it.
type summaryWire struct {
	SummaryID    string `json:"summaryId"`
	CreatedAt    string `json:"createdAt"`
	UpdatedAt    string `json:"updatedAt"`
	VideoID      string `json:"videoId"`
	Origin       string `json:"origin"`
	SourceStatus string `json:"sourceStatus"`
}

// summarySourceWire is a summary's source: members the summary does not have are left out.
type summarySourceWire struct {
	Abstract  string   `json:"abstract,omitempty"`
	Takeaways []string `json:"takeaways,omitempty"`
}

func toSummaryWire(s *summary) summaryWire {
	return summaryWire{
		SummaryID: s.ID, VideoID: s.VideoID, Origin: s.Origin, SourceStatus: s.SourceStatus,
		CreatedAt: atom(s.CreatedAt), UpdatedAt: atom(s.UpdatedAt),
	}
}

// Summaries belong to videos, which expire: every read of them is fresh, so that a video's
// summary goes with it.
var summaries = recordKind[summary, summaryWire]{
	path:   "/summaries",
	idName: "summaryId",
	id:     func(s *summary) string { return s.ID },
	items:  func(s *store) *[]*summary { return &s.Summaries },
	wire:   func(_ *Emulator, s *summary) summaryWire { return toSummaryWire(s) },
	fresh:  true,
	sortKeys: []sortKey[summary]{
		{"createdAt", func(a, b *summary) int { return a.CreatedAt.Compare(b.CreatedAt) }},
		{"updatedAt", func(a, b *summary) int { return a.UpdatedAt.Compare(b.UpdatedAt) }},
		{"videoId", func(a, b *summary) int { return cmp.Compare(a.VideoID, b.VideoID) }},
	},
}

// newSummaryLocked is a new summary of video v. An automatic one is generated at once (the
// emulator has no transcript to wait for): its text is made from the video's title, so that
// it is the same at every run; attrs limits it to the abstract or the takeaways. A summary
// made without origin has no text: its source is missing until a PATCH gives it.
func (e *Emulator) newSummaryLocked(v *video, origin string, attrs []string) *summary {
	now := e.now().UTC().Truncate(time.Second)
	s := &summary{ID: randomID("summary_", 22), VideoID: v.ID, Origin: origin, CreatedAt: now, UpdatedAt: now}
	if origin != summaryOriginAuto {
		s.Origin, s.SourceStatus = summaryOriginAPI, summaryMissing
		return s
	}
	s.SourceStatus = summaryCompleted
	if len(attrs) == 0 || slices.Contains(attrs, "abstract") {
		s.Abstract = "This video, titled \"" + v.Title + "\", is summarised automatically by the emulator."
	}
	if len(attrs) == 0 || slices.Contains(attrs, "takeaways") {
		s.Takeaways = []string{"The video is titled \"" + v.Title + "\".", "Its summary was generated automatically.", "Its text is the same at every run."}
	}
	return s
}

// summaryConflict is the 409 of a summary asked for a video that has one.
func (e *Emulator) summaryConflict(name string) apiError {
	a := e.newError(http.StatusConflict, slugSummaryExists, titleSummaryConflict)
	a.Detail, a.Name = detailSummaryConflict, name
	return a
}

// summaryCreate is a valid body of POST /summaries.
type summaryCreate struct {
	videoID, origin string
	attributes      []string
}

// parseSummaryCreate reads the body of POST /summaries, with every problem it has.
func (e *Emulator) parseSummaryCreate(body map[string]json.RawMessage) (summaryCreate, []problem) {
	var c summaryCreate
	probs := e.unknownMembers(body, []string{"videoId", "origin", "attributes"}, "")
	detail := ""
	if raw, ok := body["videoId"]; !ok {
		probs = append(probs, e.required("videoId"))
	} else if c.videoID, detail = decodeMember[string](raw, "string"); detail != "" {
		probs = append(probs, e.fieldInvalid("videoId", detail))
	}
	if raw, ok := body["origin"]; ok {
		if c.origin, detail = decodeMember[string](raw, "string"); detail == "" && c.origin != summaryOriginAuto {
			detail = "This value should be auto."
		}
		if detail != "" {
			probs = append(probs, e.fieldInvalid("origin", detail))
		}
	}
	if raw, ok := body["attributes"]; ok {
		c.attributes, detail = decodeMember[[]string](raw, "array")
		if detail == "" && slices.ContainsFunc(c.attributes, func(a string) bool { return a != "abstract" && a != "takeaways" }) {
			detail = "Each value should be abstract or takeaways."
		}
		if detail != "" {
			probs = append(probs, e.fieldInvalid("attributes", detail))
		}
	}
	return c, probs
}

// handleCreateSummary serves POST /summaries: 201 with the new summary, 404 naming videoId for
// a video the workspace does not hold, 409 for a video that has a summary (one made by
// transcriptSummary included).
func (e *Emulator) handleCreateSummary(w http.ResponseWriter, r *http.Request, _ string) {
	body, ok := readObject(r)
	if !ok {
		writeError(w, e.invalidPayload())
		return
	}
	c, probs := e.parseSummaryCreate(body)
	if len(probs) > 0 {
		writeError(w, e.fieldError(probs...))
		return
	}
	var out summaryWire
	var refused *apiError
	e.withFreshStore(func() {
		i := videos.find(&e.st, c.videoID)
		switch {
		case i < 0:
			nf := e.notFound(videos.idName)
			refused = &nf
		case e.videoHasSummaryLocked(e.st.Videos[i]):
			conflict := e.summaryConflict("videoId")
			refused = &conflict
		default:
			s := e.newSummaryLocked(e.st.Videos[i], c.origin, c.attributes)
			e.st.Summaries = append(e.st.Summaries, s)
			out = toSummaryWire(s)
		}
	})
	if refused != nil {
		writeError(w, *refused)
		return
	}
	e.saveStateLogged()
	e.answerWrite(w, http.StatusCreated, out)
}

// videoHasSummaryLocked reports whether video v has a summary: a record of it, or one that
// transcriptSummary asked for.
func (e *Emulator) videoHasSummaryLocked(v *video) bool {
	return v.SummaryMade || slices.ContainsFunc(e.st.Summaries, func(s *summary) bool { return s.VideoID == v.ID })
}

// addAutoSummaryLocked stores the automatic summary that transcriptSummary or the control API
// asks for on video v, with the parts its transcriptSummaryAttributes named, and returns its id.
func (e *Emulator) addAutoSummaryLocked(v *video) string {
	s := e.newSummaryLocked(v, summaryOriginAuto, v.SummaryAttributes)
	e.st.Summaries = append(e.st.Summaries, s)
	return s.ID
}

// dropOrphanSummariesLocked deletes the summaries whose video is gone (deleted or expired),
// and reports whether it deleted any.
func (e *Emulator) dropOrphanSummariesLocked() bool {
	before := len(e.st.Summaries)
	e.st.Summaries = slices.DeleteFunc(e.st.Summaries, func(s *summary) bool { return videos.find(&e.st, s.VideoID) < 0 })
	return len(e.st.Summaries) != before
}

// parseSummaryQuery reads the query of GET /summaries: the videoId, origin and sourceStatus
// filters, then the order and the page.
func (e *Emulator) parseSummaryQuery(q url.Values) (listQuery[summary], []problem) {
	lq := listQuery[summary]{filters: url.Values{}}
	probs := e.unknownParams(q, listParams("videoId", "origin", "sourceStatus", "sortBy", "sortOrder"))
	vals, valueProbs := e.singleValues(q, lq.filters, "videoId", "origin", "sourceStatus")
	probs = append(probs, valueProbs...)
	if o := vals["origin"]; o != "" && o != summaryOriginAuto && o != summaryOriginAPI {
		probs = append(probs, e.invalid("origin", "This attribute must be one of: auto, api."))
	}
	statuses := []string{summaryMissing, "waiting", "failed", summaryCompleted, "unprocessable"}
	if st, ok := vals["sourceStatus"]; ok && !slices.Contains(statuses, st) {
		probs = append(probs, e.invalid("sourceStatus", "This attribute must be one of: missing, waiting, failed, completed, unprocessable."))
	}
	lq.keep = func(s *summary) bool {
		return match(vals, "videoId", s.VideoID) && match(vals, "origin", s.Origin) && match(vals, "sourceStatus", s.SourceStatus)
	}
	probs = append(probs, parseOrderAndPage(e, q, &lq, summaries.sortKeys)...)
	return lq, probs
}

// match reports whether the filter name, when given, equals value.
func match(vals map[string]string, name, value string) bool {
	want, ok := vals[name]
	return !ok || want == value
}

func (e *Emulator) handleListSummaries(w http.ResponseWriter, r *http.Request, _ string) {
	summaries.serveList(e, w, r, e.parseSummaryQuery)
}

// handleDeleteSummary serves DELETE /summaries/{id}: 204, and the video may have a summary again.
func (e *Emulator) handleDeleteSummary(w http.ResponseWriter, _ *http.Request, id string) {
	found := false
	e.withFreshStore(func() {
		i := summaries.find(&e.st, id)
		if found = i >= 0; !found {
			return
		}
		videoID := e.st.Summaries[i].VideoID
		e.st.Summaries = slices.Delete(e.st.Summaries, i, i+1)
		if j := videos.find(&e.st, videoID); j >= 0 {
			v := *e.st.Videos[j]
			v.SummaryMade = false
			e.st.Videos[j] = &v
		}
	})
	if found {
		e.saveStateLogged()
	}
	summaries.answerDelete(e, w, found)
}

// handleGetSummarySource serves GET /summaries/{id}/source.
func (e *Emulator) handleGetSummarySource(w http.ResponseWriter, _ *http.Request, id string) {
	var out summarySourceWire
	found := false
	e.withFreshStore(func() {
		if i := summaries.find(&e.st, id); i >= 0 {
			found = true
			out = summarySourceWire{Abstract: e.st.Summaries[i].Abstract, Takeaways: slices.Clone(e.st.Summaries[i].Takeaways)}
		}
	})
	if !found {
		writeError(w, e.notFound(summaries.idName))
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// parseSummarySource reads the body of PATCH /summaries/{id}/source: the members sent replace
// the summary's; the takeaways are at most three.
func (e *Emulator) parseSummarySource(body map[string]json.RawMessage) (*string, *[]string, []problem) {
	probs := e.unknownMembers(body, []string{"abstract", "takeaways"}, "")
	var abstract *string
	var takeaways *[]string
	if raw, ok := body["abstract"]; ok {
		a, detail := decodeMember[string](raw, "string")
		if detail != "" {
			probs = append(probs, e.fieldInvalid("abstract", detail))
		}
		abstract = &a
	}
	if raw, ok := body["takeaways"]; ok {
		t, detail := decodeMember[[]string](raw, "array")
		if detail == "" && len(t) > maxTakeaways {
			detail = "This collection should contain 3 elements or less."
		}
		if detail != "" {
			probs = append(probs, e.fieldInvalid("takeaways", detail))
		}
		takeaways = &t
	}
	return abstract, takeaways, probs
}

// handleUpdateSummarySource serves PATCH /summaries/{id}/source: 201 (as the document gives it)
// with the source; a summary whose source was missing is completed by it.
func (e *Emulator) handleUpdateSummarySource(w http.ResponseWriter, r *http.Request, id string) {
	body, ok := readObject(r)
	if !ok {
		writeError(w, e.invalidPayload())
		return
	}
	abstract, takeaways, probs := e.parseSummarySource(body)
	if len(probs) > 0 {
		writeError(w, e.fieldError(probs...))
		return
	}
	var out summarySourceWire
	found := false
	e.withFreshStore(func() {
		i := summaries.find(&e.st, id)
		if found = i >= 0; !found {
			return
		}
		s := *e.st.Summaries[i]
		if abstract != nil {
			s.Abstract = *abstract
		}
		if takeaways != nil {
			s.Takeaways = slices.Clone(*takeaways)
		}
		s.SourceStatus = summaryCompleted
		s.UpdatedAt = e.nextUpdate(s.UpdatedAt)
		e.st.Summaries[i] = &s
		out = summarySourceWire{Abstract: s.Abstract, Takeaways: slices.Clone(s.Takeaways)}
	})
	if !found {
		writeError(w, e.notFound(summaries.idName))
		return
	}
	e.saveStateLogged()
	e.answerWrite(w, http.StatusCreated, out)
}

// summaryOfLocked is the id of video v's summary, which is generated now when it has none.
func (e *Emulator) summaryOfLocked(v *video) string {
	if i := slices.IndexFunc(e.st.Summaries, func(s *summary) bool { return s.VideoID == v.ID }); i >= 0 {
		return e.st.Summaries[i].ID
	}
	return e.addAutoSummaryLocked(v)
}
