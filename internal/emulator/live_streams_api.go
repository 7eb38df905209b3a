package emulator

import (
	"cmp"
	"net/http"
	"net/url"
	"slices"
)

type liveStreamAssetsWire struct {
	HLS       string `json:"hls"`
	Iframe    string `json:"iframe"`
	Player    string `json:"player"`
	Thumbnail string `json:"thumbnail"`
}

// liveStreamWire is a live stream as the service sends it; Watermarked flags the sandbox's
// watermark as on videos.
type liveStreamWire struct {
	LiveStreamID string               `json:"liveStreamId"`
	Name         string               `json:"name"`
	StreamKey    string               `json:"streamKey"`
	Public       bool                 `json:"public"`
	PlayerID     string               `json:"playerId"`
	Broadcasting bool                 `json:"broadcasting"`
	CreatedAt    string               `json:"createdAt"`
	UpdatedAt    string               `json:"updatedAt"`
	Assets       liveStreamAssetsWire `json:"assets"`
	Restreams    []Restream           `json:"restreams"`
	Watermarked  bool                 `json:"watermarked"`
}

func (e *Emulator) toLiveStreamWire(l *liveStream) liveStreamWire {
	out := liveStreamWire{
		LiveStreamID: l.ID,
		Name:         l.Name,
		StreamKey:    l.StreamKey,
		Public:       l.Public,
		PlayerID:     l.PlayerID,
		Broadcasting: l.Broadcasting,
		CreatedAt:    atom(l.CreatedAt),
		UpdatedAt:    atom(l.UpdatedAt),
		Assets: liveStreamAssetsWire{
			HLS:       liveBase + l.ID + ".m3u8",
			Iframe:    `<iframe src="` + embedBase + "live/" + l.ID + `" width="100%" height="100%" frameborder="0" scrolling="no" allowfullscreen="true"></iframe>`,
			Player:    embedBase + "live/" + l.ID,
			Thumbnail: liveBase + l.ID + "/thumbnail.jpg",
		},
		Restreams:   slices.Clone(l.Restreams),
		Watermarked: e.opts.Environment == EnvSandbox,
	}
	if out.Restreams == nil {
		out.Restreams = []Restream{}
	}
	return out
}

// liveStreamFilter is the parsed query of GET /live-streams.
type liveStreamFilter struct {
	streamKey, name string
	sortBy          string
	desc            bool
}

func (f liveStreamFilter) matches(l *liveStream) bool {
	if f.streamKey != "" && l.StreamKey != f.streamKey {
		return false
	}
	return f.name == "" || containsFold(l.Name, f.name)
}

func (f liveStreamFilter) compare(a, b *liveStream) int {
	var c int
	switch f.sortBy {
	case "name":
		c = cmp.Compare(a.Name, b.Name)
	case "updatedAt":
		c = a.UpdatedAt.Compare(b.UpdatedAt)
	default:
		c = a.CreatedAt.Compare(b.CreatedAt)
	}
	if f.desc {
		c = -c
	}
	return c
}

func (e *Emulator) parseLiveStreamFilter(q url.Values) (liveStreamFilter, url.Values, []problem) {
	f := liveStreamFilter{sortBy: "createdAt"}
	filters := url.Values{}
	probs := e.unknownParams(q, func(k string) bool {
		switch k {
		case "currentPage", "pageSize", "streamKey", "name", "sortBy", "sortOrder":
			return true
		}
		return false
	})
	vals, valueProbs := e.singleValues(q, filters, "streamKey", "name")
	probs = append(probs, valueProbs...)
	f.streamKey, f.name = vals["streamKey"], vals["name"]
	sortBy, desc, sortProbs := e.parseSort(q, filters, []string{"name", "createdAt", "updatedAt"})
	probs = append(probs, sortProbs...)
	if sortBy != "" {
		f.sortBy = sortBy
	}
	f.desc = desc
	return f, filters, probs
}

func (e *Emulator) handleListLiveStreams(w http.ResponseWriter, r *http.Request, _ string) {
	q := r.URL.Query()
	f, filters, probs := e.parseLiveStreamFilter(q)
	p, pageProbs := e.parsePaging(q)
	probs = append(probs, pageProbs...)
	if len(probs) > 0 {
		writeError(w, e.attributeError(probs...))
		return
	}
	// The page is cut and converted under the lock, so that only its items are copied.
	e.mu.RLock()
	var matched []*liveStream
	for _, l := range e.st.LiveStreams {
		if f.matches(l) {
			matched = append(matched, l)
		}
	}
	slices.SortStableFunc(matched, f.compare)
	page := paginate(matched, p, "/live-streams", filters, e.toLiveStreamWire)
	e.mu.RUnlock()
	writeJSON(w, http.StatusOK, page)
}

func (e *Emulator) handleGetLiveStream(w http.ResponseWriter, _ *http.Request, id string) {
	e.mu.RLock()
	var found *liveStream
	if i := e.findLiveStreamLocked(id); i >= 0 {
		c := *e.st.LiveStreams[i]
		found = &c
	}
	e.mu.RUnlock()
	if found == nil {
		writeError(w, e.notFound("liveStreamId"))
		return
	}
	writeJSON(w, http.StatusOK, e.toLiveStreamWire(found))
}
