package emulator

import (
	"cmp"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/events"
)

// Addresses of a live stream's assets, as the contract gives them.
const (
	liveBase      = "https://live.api.video/"
	liveEmbedBase = "https://embed.api.video/live/"
)

type liveStreamAssetsWire struct {
	HLS       string `json:"hls"`
	Iframe    string `json:"iframe"`
	Player    string `json:"player"`
	Thumbnail string `json:"thumbnail"`
}

// liveStreamWire is a live stream as the service sends it: playerId is left out when the live
// stream has no player theme, restreams is always there.
type liveStreamWire struct {
	LiveStreamID string               `json:"liveStreamId"`
	Name         string               `json:"name"`
	StreamKey    string               `json:"streamKey"`
	Public       bool                 `json:"public"`
	PlayerID     string               `json:"playerId,omitempty"`
	Broadcasting bool                 `json:"broadcasting"`
	CreatedAt    string               `json:"createdAt"`
	UpdatedAt    string               `json:"updatedAt"`
	Assets       liveStreamAssetsWire `json:"assets"`
	Restreams    []Restream           `json:"restreams"`
}

func toLiveStreamWire(l *liveStream) liveStreamWire {
	player := liveEmbedBase + l.ID
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
			Iframe:    `<iframe src="` + player + `" width="100%" height="100%" frameborder="0" scrolling="no" allowfullscreen="true"></iframe>`,
			Player:    player,
			Thumbnail: liveBase + l.ID + "/thumbnail.jpg",
		},
		Restreams: slices.Clone(l.Restreams),
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

// matches applies the filters: streamKey is exact, name a case-sensitive part of the name.
func (f liveStreamFilter) matches(l *liveStream) bool {
	if f.streamKey != "" && l.StreamKey != f.streamKey {
		return false
	}
	return strings.Contains(l.Name, f.name)
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
	page := paginate(matched, p, "/live-streams", filters, toLiveStreamWire)
	e.mu.RUnlock()
	writeJSON(w, http.StatusOK, page)
}

func (e *Emulator) handleGetLiveStream(w http.ResponseWriter, _ *http.Request, id string) {
	e.mu.RLock()
	var wire *liveStreamWire
	if i := e.findLiveStreamLocked(id); i >= 0 {
		l := toLiveStreamWire(e.st.LiveStreams[i])
		wire = &l
	}
	e.mu.RUnlock()
	if wire == nil {
		writeError(w, e.notFound("liveStreamId"))
		return
	}
	writeJSON(w, http.StatusOK, *wire)
}

// newLiveStream is a live stream made now, public, without player theme or restreams, with a
// fresh id and stream key; the caller stores it.
func (e *Emulator) newLiveStream(name string) *liveStream {
	now := e.now().UTC().Truncate(time.Second)
	return &liveStream{
		ID:        randomID("li", 22),
		Name:      name,
		StreamKey: newStreamKey(),
		Public:    true,
		CreatedAt: now,
		UpdatedAt: now,
	}
}

// playerMissingLocked reports whether c sets a playerId that names no player theme; the caller
// holds e.mu.
func (e *Emulator) playerMissingLocked(c liveStreamChange) bool {
	return c.setPlayer && c.playerID != nil && e.findPlayerLocked(*c.playerID) < 0
}

// handleCreateLiveStream serves POST /live-streams: 200 (not 201) with the new live stream.
func (e *Emulator) handleCreateLiveStream(w http.ResponseWriter, r *http.Request, _ string) {
	body, ok := readObject(r)
	if !ok {
		writeError(w, e.invalidPayload())
		return
	}
	c, probs := e.decodeLiveStreamBody(body, true)
	if len(probs) > 0 {
		writeError(w, e.fieldError(probs...))
		return
	}
	e.mu.Lock()
	if e.playerMissingLocked(c) {
		e.mu.Unlock()
		writeError(w, e.notFound("playerId"))
		return
	}
	l := e.newLiveStream(*c.name)
	c.apply(l)
	e.st.LiveStreams = append(e.st.LiveStreams, l)
	wire := toLiveStreamWire(l)
	e.mu.Unlock()
	e.saveStateLogged()
	e.answerWrite(w, http.StatusOK, wire)
}

// handleUpdateLiveStream serves PATCH /live-streams/{id}: the members sent change, the others
// stay, and updatedAt moves.
func (e *Emulator) handleUpdateLiveStream(w http.ResponseWriter, r *http.Request, id string) {
	body, ok := readObject(r)
	if !ok {
		writeError(w, e.invalidPayload())
		return
	}
	e.mu.Lock()
	i := e.findLiveStreamLocked(id)
	if i < 0 {
		e.mu.Unlock()
		writeError(w, e.notFound("liveStreamId"))
		return
	}
	c, probs := e.decodeLiveStreamBody(body, false)
	if len(probs) > 0 {
		e.mu.Unlock()
		writeError(w, e.fieldError(probs...))
		return
	}
	if e.playerMissingLocked(c) {
		e.mu.Unlock()
		writeError(w, e.notFound("playerId"))
		return
	}
	l := e.st.LiveStreams[i]
	c.apply(l)
	l.UpdatedAt = e.nextUpdate(l.UpdatedAt)
	wire := toLiveStreamWire(l)
	e.mu.Unlock()
	e.saveStateLogged()
	e.answerWrite(w, http.StatusOK, wire)
}

func (e *Emulator) handleDeleteLiveStream(w http.ResponseWriter, _ *http.Request, id string) {
	if !e.DeleteLiveStream(id) {
		writeError(w, e.notFound("liveStreamId"))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// DeleteLiveStream deletes a live stream, as DELETE /live-streams/{id} does; false when it does
// not exist. A live stream that is broadcasting ends its broadcast first:
// live-stream.broadcast.ended is sent before DeleteLiveStream returns.
func (e *Emulator) DeleteLiveStream(id string) bool {
	e.mu.Lock()
	i := e.findLiveStreamLocked(id)
	broadcasting := false
	if i >= 0 {
		broadcasting = e.st.LiveStreams[i].Broadcasting
		e.st.LiveStreams = slices.Delete(e.st.LiveStreams, i, i+1)
	}
	e.mu.Unlock()
	if i < 0 {
		return false
	}
	if broadcasting {
		e.emit(events.LiveStreamBroadcastEnded, map[string]string{"liveStreamId": id})
	}
	e.saveStateLogged()
	return true
}

// nextUpdate is the updatedAt of a change made now to a record last updated at prev. Times have
// whole seconds, so a second change within the same second is put one second after the first:
// every change moves updatedAt, as clients that compare it expect.
func (e *Emulator) nextUpdate(prev time.Time) time.Time {
	now := e.now().UTC().Truncate(time.Second)
	if now.After(prev) {
		return now
	}
	return prev.Add(time.Second)
}

// answerWrite answers a create or an update that has been stored: with v, or with a 500 when
// the commit-then-500 fault draws this request (the change stays stored all the same).
func (e *Emulator) answerWrite(w http.ResponseWriter, status int, v any) {
	if e.faults.takeCommitThen500() {
		writeError(w, e.serverError())
		return
	}
	writeJSON(w, status, v)
}
