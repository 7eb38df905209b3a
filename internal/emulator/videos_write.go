package emulator

import (
	"encoding/json"
	"net/http"
	"slices"
	"time"
)

// Slug and title of the 409 of a summary asked for again.
const (
	slugSummaryExists  = "summary-already-exists"
	titleSummaryExists = "A summary already exists or is being generated for this video."
)

// newVideo is a video made now through the API, with the contract's defaults and no source.
func (e *Emulator) newVideo() *video {
	now := e.now().UTC().Truncate(time.Second)
	return &video{
		ID:              randomID("vi", 22),
		CreatedAt:       now,
		PublishedAt:     now,
		UpdatedAt:       now,
		videoProperties: videoProperties{Public: true, MP4Support: true, Tags: []string{}, Metadata: []Metadatum{}},
		SourceType:      sourceUpload,
	}
}

// handleCreateVideo serves POST /videos: 201 with an empty container, or 202 when the body
// gives a source (a URL, which is ingested without being fetched, or a video to copy).
func (e *Emulator) handleCreateVideo(w http.ResponseWriter, r *http.Request, _ string) {
	body, ok := readObject(r)
	if !ok {
		writeError(w, e.invalidPayload())
		return
	}
	v := e.newVideo()
	b, probs := e.applyVideoBody(v, body, true)
	if len(probs) > 0 {
		writeError(w, e.fieldError(probs...))
		return
	}
	v.SummaryMade = b.summary
	e.mu.Lock()
	e.purgeExpiredLocked(e.now())
	if refused := e.checkVideoRefsLocked(v, b); refused != nil {
		e.mu.Unlock()
		writeError(w, *refused)
		return
	}
	status := http.StatusCreated
	if b.source != "" {
		status = http.StatusAccepted
		e.takeSourceLocked(v, b.source)
	}
	e.st.Videos = append(e.st.Videos, v)
	if b.summary {
		e.addAutoSummaryLocked(v)
	}
	out := e.toVideoWire(v)
	e.mu.Unlock()
	e.saveStateLogged()
	if b.source != "" {
		e.startEncoding(v.ID)
	}
	e.answerWrite(w, status, out)
}

// checkVideoRefsLocked checks what a body names in the store: the player theme, the watermark
// and the video a create copies. The caller holds e.mu.
func (e *Emulator) checkVideoRefsLocked(v *video, b videoBody) *apiError {
	// A watermark the workspace does not hold is refused as the service does, rather than
	// making a video that claims a watermark nobody can see.
	if v.WatermarkID != "" && watermarks.find(&e.st, v.WatermarkID) < 0 {
		refused := e.notFound("watermark[id]")
		return &refused
	}
	if b.setPlayer {
		if b.playerID != "" && players.find(&e.st, b.playerID) < 0 {
			refused := e.notFound("playerId")
			return &refused
		}
		v.PlayerID = b.playerID
	}
	if isVideoID(b.source) {
		i := videos.find(&e.st, b.source)
		if i < 0 || !hasSource(e.st.Videos[i]) && e.st.Videos[i].SourceURL == "" {
			refused := e.notFound("source")
			return &refused
		}
	}
	return nil
}

// takeSourceLocked gives a new video its source: the address it is ingested from, or a copy of
// another video's source. Its ingest starts at once; the caller holds e.mu.
func (e *Emulator) takeSourceLocked(v *video, source string) {
	if i := videos.find(&e.st, source); isVideoID(source) && i >= 0 {
		from := e.st.Videos[i]
		v.SourceSize, v.SourceSHA256, v.SourceURL = from.SourceSize, from.SourceSHA256, from.SourceURL
	} else {
		v.SourceURL = source
	}
	v.Ingest = ingestIngesting
	v.ExpiresAt = e.sandboxExpiry(v.CreatedAt)
}

// handleUpdateVideo serves PATCH /videos/{id}: the members sent change (tags and metadata are
// replaced whole), playerId null clears the player theme, and a second summary is 409.
func (e *Emulator) handleUpdateVideo(w http.ResponseWriter, r *http.Request, id string) {
	videos.serveUpdate(e, w, r, id, func(v *video, body map[string]json.RawMessage) *apiError {
		b, probs := e.applyVideoBody(v, body, false)
		if len(probs) > 0 {
			refused := e.fieldError(probs...)
			return &refused
		}
		if b.summary && e.videoHasSummaryLocked(v) {
			refused := e.newError(http.StatusConflict, slugSummaryExists, titleSummaryExists)
			refused.Name = "transcriptSummary"
			return &refused
		}
		if refused := e.checkVideoRefsLocked(v, b); refused != nil {
			return refused
		}
		if b.summary {
			// The service generates the summary that transcriptSummary asks for: it is a
			// summary of GET /summaries like one made by POST /summaries.
			v.SummaryMade = true
			e.addAutoSummaryLocked(v)
		}
		v.UpdatedAt = e.nextUpdate(v.UpdatedAt)
		return nil
	})
}

// handleDeleteVideo serves DELETE /videos/{id}: the video goes with its captions, chapters and
// the chunks of an unfinished upload.
func (e *Emulator) handleDeleteVideo(w http.ResponseWriter, _ *http.Request, id string) {
	videos.answerDelete(e, w, e.DeleteVideo(id))
}

// DeleteVideo deletes a video as DELETE /videos/{id} does; false when it does not exist.
func (e *Emulator) DeleteVideo(id string) bool {
	var found bool
	e.withFreshStore(func() {
		i := videos.find(&e.st, id)
		if found = i >= 0; found {
			e.discardLocked(e.st.Videos[i])
			e.st.Videos = slices.Delete(e.st.Videos, i, i+1)
		}
	})
	if !found {
		return false
	}
	e.uploads.drop(id)
	e.saveStateLogged()
	return true
}

// updateVideo changes video id under the lock with change, moving its updatedAt, and answers
// 200 with the video; 404 when it does not exist. change may refuse with an error.
func (e *Emulator) updateVideo(w http.ResponseWriter, id string, change func(v *video) *apiError) {
	var out videoWire
	var refused *apiError
	found := false
	e.withFreshStore(func() {
		i := videos.find(&e.st, id)
		if i < 0 {
			return
		}
		found = true
		rec := *e.st.Videos[i]
		if refused = change(&rec); refused != nil {
			return
		}
		rec.UpdatedAt = e.nextUpdate(rec.UpdatedAt)
		e.st.Videos[i] = &rec
		out = e.toVideoWire(&rec)
	})
	switch {
	case !found:
		writeError(w, e.notFound(videos.idName))
	case refused != nil:
		writeError(w, *refused)
	default:
		e.saveStateLogged()
		e.answerWrite(w, http.StatusOK, out)
	}
}

// handlePickThumbnail serves PATCH /videos/{id}/thumbnail: the frame at the timecode becomes
// the thumbnail, whose address changes.
func (e *Emulator) handlePickThumbnail(w http.ResponseWriter, r *http.Request, id string) {
	body, ok := readObject(r)
	if !ok {
		writeError(w, e.invalidPayload())
		return
	}
	raw, present := body["timecode"]
	if !present {
		writeError(w, e.fieldError(e.required("timecode")))
		return
	}
	tc, detail := decodeMember[string](raw, "string")
	if detail == "" && !timecodeRe.MatchString(tc) {
		detail = detailTimecode
	}
	probs := e.unknownMembers(body, []string{"timecode"}, "")
	if detail != "" {
		probs = append([]problem{e.fieldInvalid("timecode", detail)}, probs...)
	}
	if len(probs) > 0 {
		writeError(w, e.fieldError(probs...))
		return
	}
	e.updateVideo(w, id, func(v *video) *apiError {
		v.ThumbnailVersion++
		return nil
	})
}

// maxThumbnailBytes is the largest thumbnail image.
const maxThumbnailBytes = 8 << 20

// handleUploadThumbnail serves POST /videos/{id}/thumbnail: a JPEG or PNG of at most 8 MiB,
// recognised by its content, becomes the thumbnail.
func (e *Emulator) handleUploadThumbnail(w http.ResponseWriter, r *http.Request, id string) {
	if !e.requireVideoOr404(w, id) {
		return
	}
	if _, refused := e.readImage(r, maxThumbnailBytes); refused != nil {
		writeError(w, *refused)
		return
	}
	e.updateVideo(w, id, func(v *video) *apiError {
		v.ThumbnailVersion++
		return nil
	})
}

// requireVideoOr404 answers 404 naming videoId, and reports false, when video id does not
// exist.
func (e *Emulator) requireVideoOr404(w http.ResponseWriter, id string) bool {
	if err := e.requireVideo(id); err != nil {
		writeError(w, e.notFound(videos.idName))
		return false
	}
	return true
}
