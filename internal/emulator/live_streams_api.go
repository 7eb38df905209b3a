package emulator

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/events"
)

// liveStreamWire is a live stream as the service sends it: playerId is left out when the live
// stream has no player theme, restreams is always there.
type liveStreamWire struct {
	LiveStreamID string     `json:"liveStreamId"`
	Name         string     `json:"name"`
	StreamKey    string     `json:"streamKey"`
	Public       bool       `json:"public"`
	PlayerID     string     `json:"playerId,omitempty"`
	Broadcasting bool       `json:"broadcasting"`
	CreatedAt    string     `json:"createdAt"`
	UpdatedAt    string     `json:"updatedAt"`
	Assets       assetsWire `json:"assets"`
	Restreams    []Restream `json:"restreams"`
}

func toLiveStreamWire(l *liveStream) liveStreamWire {
	out := liveStreamWire{
		LiveStreamID: l.ID,
		Name:         l.Name,
		StreamKey:    l.StreamKey,
		Public:       l.Public,
		PlayerID:     l.PlayerID,
		Broadcasting: l.Broadcasting,
		CreatedAt:    atom(l.CreatedAt),
		UpdatedAt:    atom(l.UpdatedAt),
		Assets:       liveStreamAssets(l.ID, l.thumbnailVersion()),
		Restreams:    slices.Clone(l.Restreams),
	}
	if out.Restreams == nil {
		out.Restreams = []Restream{}
	}
	return out
}

// parseLiveStreamQuery reads the query of GET /live-streams. Its filters are streamKey, exact,
// and name, a case-sensitive part of the name.
func (e *Emulator) parseLiveStreamQuery(q url.Values) (listQuery[liveStream], []problem) {
	lq := listQuery[liveStream]{filters: url.Values{}}
	probs := e.unknownParams(q, listParams("streamKey", "name", "sortBy", "sortOrder"))
	vals, valueProbs := e.singleValues(q, lq.filters, "streamKey", "name")
	probs = append(probs, valueProbs...)
	streamKey, name := vals["streamKey"], vals["name"]
	lq.keep = func(l *liveStream) bool {
		return (streamKey == "" || l.StreamKey == streamKey) && strings.Contains(l.Name, name)
	}
	probs = append(probs, parseOrderAndPage(e, q, &lq, liveStreams.sortKeys)...)
	return lq, probs
}

func (e *Emulator) handleListLiveStreams(w http.ResponseWriter, r *http.Request, _ string) {
	liveStreams.serveList(e, w, r, e.parseLiveStreamQuery)
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

// handleCreateLiveStream serves POST /live-streams: 200 (not 201) with the new live stream.
func (e *Emulator) handleCreateLiveStream(w http.ResponseWriter, r *http.Request, _ string) {
	liveStreams.serveCreate(e, w, r, http.StatusOK, func(body map[string]json.RawMessage) (*liveStream, *apiError) {
		c, refused := e.checkLiveStreamChangeLocked(body, true)
		if refused != nil {
			return nil, refused
		}
		l := e.newLiveStream(*c.name)
		c.apply(l)
		return l, nil
	})
}

// handleUpdateLiveStream serves PATCH /live-streams/{id}: the members sent change, the others
// stay, and updatedAt moves.
func (e *Emulator) handleUpdateLiveStream(w http.ResponseWriter, r *http.Request, id string) {
	liveStreams.serveUpdate(e, w, r, id, func(l *liveStream, body map[string]json.RawMessage) *apiError {
		c, refused := e.checkLiveStreamChangeLocked(body, false)
		if refused != nil {
			return refused
		}
		c.apply(l)
		l.UpdatedAt = e.nextUpdate(l.UpdatedAt)
		return nil
	})
}

// checkLiveStreamChangeLocked decodes the body of a create or an update, then checks that the
// player theme it names exists: it answers the error that refuses the body, if any. The caller
// holds e.mu.
func (e *Emulator) checkLiveStreamChangeLocked(body map[string]json.RawMessage, create bool) (liveStreamChange, *apiError) {
	c, probs := e.decodeLiveStreamBody(body, create)
	if len(probs) > 0 {
		refused := e.fieldError(probs...)
		return c, &refused
	}
	if c.playerID != nil && players.find(&e.st, *c.playerID) < 0 {
		refused := e.notFound("playerId")
		return c, &refused
	}
	return c, nil
}

func (e *Emulator) handleDeleteLiveStream(w http.ResponseWriter, _ *http.Request, id string) {
	liveStreams.answerDelete(e, w, e.DeleteLiveStream(id))
}

// DeleteLiveStream deletes a live stream, as DELETE /live-streams/{id} does; false when it does
// not exist. A live stream that is broadcasting ends its broadcast first:
// live-stream.broadcast.ended is sent before DeleteLiveStream returns.
func (e *Emulator) DeleteLiveStream(id string) bool {
	e.mu.Lock()
	i := liveStreams.find(&e.st, id)
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

// handleCompleteLiveStream serves PUT /live-streams/{id}/complete: 202 with no body. The
// emulator ends a running broadcast at once (live-stream.broadcast.ended); a stream that is not
// broadcasting is left as it is.
func (e *Emulator) handleCompleteLiveStream(w http.ResponseWriter, _ *http.Request, id string) {
	var exists, broadcasting bool
	liveStreams.read(e, func() {
		if i := liveStreams.find(&e.st, id); i >= 0 {
			exists, broadcasting = true, e.st.LiveStreams[i].Broadcasting
		}
	})
	if !exists {
		writeError(w, e.notFound(liveStreams.idName))
		return
	}
	if broadcasting {
		if _, err := e.setBroadcasting(id, false); err != nil {
			writeError(w, e.notFound(liveStreams.idName))
			return
		}
	}
	w.WriteHeader(http.StatusAccepted)
}
