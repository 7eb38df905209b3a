package emulator

import (
	"cmp"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

type videoSourceWire struct {
	URI        string          `json:"uri"`
	Type       string          `json:"type"`
	LiveStream *liveStreamLink `json:"liveStream,omitempty"`
}

type liveStreamLink struct {
	LiveStreamID string `json:"liveStreamId"`
}

// videoWire is a video as the service sends it. The sandbox's watermark is on the pictures
// only: the video object has no member for it, nor for a watermark given at creation.
//
// Language is left out while it is unknown (a video created without one, before its source is
// ingested): the published document does not let it be null. languageOrigin, which the document
// marks nullable, is null then. playerId is left out when the video has no player theme.
type videoWire struct {
	VideoID        string  `json:"videoId"`
	Title          string  `json:"title"`
	Description    string  `json:"description"`
	Language       *string `json:"language,omitempty"`
	LanguageOrigin *string `json:"languageOrigin"`
	PlayerID       string  `json:"playerId,omitempty"`
	CreatedAt      string  `json:"createdAt"`
	PublishedAt    string  `json:"publishedAt"`
	UpdatedAt      string  `json:"updatedAt"`
	// DiscardedAt and DeletesAt are null but for a discarded video (discarded_videos_api.go).
	DiscardedAt *string `json:"discardedAt"`
	DeletesAt   *string `json:"deletesAt"`
	videoProperties
	Source videoSourceWire `json:"source"`
	Assets videoAssetsWire `json:"assets"`
}

func (e *Emulator) toVideoWire(v *video) videoWire {
	out := videoWire{
		VideoID:         v.ID,
		Title:           v.Title,
		Description:     v.Description,
		PlayerID:        v.PlayerID,
		CreatedAt:       atom(v.CreatedAt),
		PublishedAt:     atom(v.PublishedAt),
		UpdatedAt:       atom(v.UpdatedAt),
		videoProperties: v.videoProperties,
		Source:          videoSourceWire{URI: "/videos/" + v.ID + "/source", Type: v.SourceType},
		Assets:          videoAssets(v.ID, v.MP4Support),
	}
	out.DiscardedAt, out.DeletesAt = v.discardTimes()
	if v.Language != "" {
		lang, origin := v.Language, cmp.Or(v.LanguageOrigin, languageFromAPI)
		out.Language, out.LanguageOrigin = &lang, &origin
	}
	if v.SourceURL != "" {
		out.Source.URI = v.SourceURL
	}
	if v.ThumbnailVersion > 0 {
		out.Assets.Thumbnail += "?v=" + strconv.Itoa(v.ThumbnailVersion)
	}
	if !v.Public {
		// A private video's addresses carry a token that changes on every read.
		out.Assets = privateAssets(out.Assets)
	}
	// The lists are copied, and sent empty rather than null.
	out.Tags = append([]string{}, v.Tags...)
	out.Metadata = append([]Metadatum{}, v.Metadata...)
	if v.LiveStreamID != "" {
		out.Source.LiveStream = &liveStreamLink{LiveStreamID: v.LiveStreamID}
	}
	return out
}

func isMetadataParam(k string) (string, bool) {
	inner, ok := strings.CutPrefix(k, "metadata[")
	if !ok {
		return "", false
	}
	inner, ok = strings.CutSuffix(inner, "]")
	if !ok || inner == "" {
		return "", false
	}
	return inner, true
}

// videoFilter is the filters of GET /videos.
type videoFilter struct {
	title, description, liveStreamID string
	tags                             []string
	metadata                         map[string]string
}

// parseVideoQuery reads title, description, liveStreamId, tags[], metadata[k], sortBy,
// sortOrder and the paging.
func (e *Emulator) parseVideoQuery(q url.Values) (listQuery[video], []problem) {
	f := videoFilter{metadata: map[string]string{}}
	lq := listQuery[video]{filters: url.Values{}}
	var probs []problem
	listed := listParams("title", "description", "liveStreamId", "tags[]", "sortBy", "sortOrder")
	known := func(k string) bool {
		_, ok := isMetadataParam(k)
		return ok || listed(k)
	}
	probs = append(probs, e.unknownParams(q, known)...)
	vals, valueProbs := e.singleValues(q, lq.filters, "title", "description", "liveStreamId")
	probs = append(probs, valueProbs...)
	f.title, f.description, f.liveStreamID = vals["title"], vals["description"], vals["liveStreamId"]
	if vs, ok := q["tags[]"]; ok {
		f.tags = vs
		lq.filters["tags[]"] = vs
	}
	for k, vs := range q {
		key, ok := isMetadataParam(k)
		if !ok {
			continue
		}
		if len(vs) != 1 {
			probs = append(probs, e.invalid(k, "This attribute must be given once."))
			continue
		}
		f.metadata[key] = vs[0]
		lq.filters[k] = vs
	}
	lq.keep = f.matches
	probs = append(probs, parseOrderAndPage(e, q, &lq, videos.sortKeys)...)
	return lq, probs
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

// matches applies the filters: title and description match a case-insensitive part, every
// tag must be present, every metadata pair must be present, liveStreamId is exact.
func (f videoFilter) matches(v *video) bool {
	if f.title != "" && !containsFold(v.Title, f.title) {
		return false
	}
	if f.description != "" && !containsFold(v.Description, f.description) {
		return false
	}
	if f.liveStreamID != "" && v.LiveStreamID != f.liveStreamID {
		return false
	}
	for _, t := range f.tags {
		if !slices.Contains(v.Tags, t) {
			return false
		}
	}
	for k, want := range f.metadata {
		if !slices.Contains(v.Metadata, Metadatum{Key: k, Value: want}) {
			return false
		}
	}
	return true
}

// withFreshStore runs fn under the write lock after deleting the expired sandbox records, and
// saves the state when it deleted any.
func (e *Emulator) withFreshStore(fn func()) {
	e.mu.Lock()
	purged := e.purgeExpiredLocked(e.now())
	fn()
	e.mu.Unlock()
	if purged {
		e.saveStateLogged()
	}
}

func (e *Emulator) handleListVideos(w http.ResponseWriter, r *http.Request, _ string) {
	videos.serveList(e, w, r, e.parseVideoQuery)
}

// sandboxExpiry is when a sandbox video uploaded or recorded at t is deleted; zero in
// production.
func (e *Emulator) sandboxExpiry(t time.Time) time.Time {
	if e.opts.Environment != EnvSandbox {
		return time.Time{}
	}
	return t.Add(sandboxRetention)
}

// sandboxRetention is how long the sandbox keeps a video or a recording.
const sandboxRetention = 24 * time.Hour
