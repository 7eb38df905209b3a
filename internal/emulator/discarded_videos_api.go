package emulator

import (
	"bytes"
	"net/http"
	"slices"
	"time"
)

// The service's Video Restore feature. With it on (Options.VideoRestore), DELETE /videos/{id}
// discards the video instead of deleting it: the video leaves /videos and is listed under
// /discarded/videos, with discarded true and the dates it was discarded and will be deleted for
// good, until a PATCH of /discarded/videos/{id} with {"discarded": false} restores it or its
// retention ends. With it off, as for an account without the feature, nothing is ever discarded:
// the list is empty and every discarded video is a 404.

// DiscardRetention is how long a discarded video is kept: the service deletes discarded videos
// for good after 90 days. A sandbox video is deleted at its sandbox expiry all the same, so a
// sandbox video discarded less than 90 days before its expiry is kept until then only.
const DiscardRetention = 90 * 24 * time.Hour

// videoDiscard is when a discarded video was discarded and when it will be deleted for good;
// zero for every other video.
type videoDiscard struct {
	DiscardedAt time.Time `json:"discardedAt,omitzero"`
	DeletesAt   time.Time `json:"deletesAt,omitzero"`
}

// discardTimes are the video's discardedAt and deletesAt as the service sends them: null but for
// a discarded video.
func (v *video) discardTimes() (*string, *string) {
	if v.DiscardedAt.IsZero() {
		return nil, nil
	}
	at, deletes := atom(v.DiscardedAt), atom(v.DeletesAt)
	return &at, &deletes
}

// discardedVideos is the collection of the discarded videos: every read of them is fresh, since
// their retention ends by the clock.
var discardedVideos = recordKind[video, videoWire]{
	path:     "/discarded/videos",
	idName:   "videoId",
	id:       func(v *video) string { return v.ID },
	items:    func(s *store) *[]*video { return &s.Discarded },
	wire:     (*Emulator).toVideoWire,
	fresh:    true,
	sortKeys: videos.sortKeys,
}

// discardLocked keeps a copy of v, which DELETE /videos/{id} is deleting, among the discarded
// videos when the Video Restore feature is on; the caller holds e.mu.
func (e *Emulator) discardLocked(v *video) {
	if !e.opts.VideoRestore {
		return
	}
	now := e.now().UTC().Truncate(time.Second)
	d := *v
	d.Discarded = true
	d.DiscardedAt, d.DeletesAt = now, now.Add(DiscardRetention)
	if !v.ExpiresAt.IsZero() && v.ExpiresAt.Before(d.DeletesAt) {
		d.DeletesAt = v.ExpiresAt
	}
	e.st.Discarded = append(e.st.Discarded, &d)
}

// purgeDiscardedLocked deletes for good the discarded videos whose retention has ended; it
// reports whether it deleted any. The caller holds e.mu.
func (e *Emulator) purgeDiscardedLocked(now time.Time) bool {
	before := len(e.st.Discarded)
	e.st.Discarded = slices.DeleteFunc(e.st.Discarded, func(v *video) bool { return !now.Before(v.DeletesAt) })
	return len(e.st.Discarded) != before
}

// handleListDiscardedVideos serves GET /discarded/videos, which takes the filters, the order and
// the paging of GET /videos.
func (e *Emulator) handleListDiscardedVideos(w http.ResponseWriter, r *http.Request, _ string) {
	discardedVideos.serveList(e, w, r, e.parseVideoQuery)
}

// detailMustBeFalse is the service's detail of a restore whose discarded is not false.
const detailMustBeFalse = "Value must be false."

// handleRestoreVideo serves PATCH /discarded/videos/{id}: the body must be {"discarded": false},
// and the video returns to /videos as it was when it was discarded (its updatedAt moved).
func (e *Emulator) handleRestoreVideo(w http.ResponseWriter, r *http.Request, id string) {
	body, ok := readObject(r)
	if !ok {
		writeError(w, e.invalidPayload())
		return
	}
	raw, given := body["discarded"]
	if !given {
		writeError(w, e.attributeError(e.required("discarded")))
		return
	}
	if !bytes.Equal(bytes.TrimSpace(raw), []byte("false")) {
		a := e.newError(http.StatusBadRequest, slugInvalidAttribute, titleAttributeInvalid)
		a.Detail, a.Name = detailMustBeFalse, "discarded"
		writeError(w, a)
		return
	}
	out, found := e.restoreVideo(id)
	if !found {
		writeError(w, e.notFound(discardedVideos.idName))
		return
	}
	e.saveStateLogged()
	e.answerWrite(w, http.StatusOK, out)
}

// restoreVideo moves discarded video id back among the videos; false when no discarded video
// has that id.
func (e *Emulator) restoreVideo(id string) (videoWire, bool) {
	var out videoWire
	found := false
	e.withFreshStore(func() {
		i := discardedVideos.find(&e.st, id)
		if i < 0 {
			return
		}
		found = true
		v := *e.st.Discarded[i]
		e.st.Discarded = slices.Delete(e.st.Discarded, i, i+1)
		v.Discarded, v.videoDiscard = false, videoDiscard{}
		v.UpdatedAt = e.nextUpdate(v.UpdatedAt)
		e.st.Videos = append(e.st.Videos, &v)
		out = e.toVideoWire(&v)
	})
	return out, found
}

// DiscardedVideoIDs lists the ids of the discarded videos, oldest discard first.
func (e *Emulator) DiscardedVideoIDs() []string {
	var ids []string
	e.withFreshStore(func() {
		for _, v := range e.st.Discarded {
			ids = append(ids, v.ID)
		}
	})
	return ids
}
