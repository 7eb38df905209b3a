package emulator

import "net/http"

// thumbnailVersion is the version of the live stream's uploaded thumbnail, 0 when it shows the
// service's own.
func (l *liveStream) thumbnailVersion() int {
	if !l.CustomThumbnail {
		return 0
	}
	return l.ThumbnailVersion
}

// handleUploadLiveStreamThumbnail serves POST /live-streams/{id}/thumbnail: a JPEG or PNG of at
// most 8 MiB, recognised by its content, becomes the thumbnail, at an address of its own; 201
// with the live stream, as the document gives it.
func (e *Emulator) handleUploadLiveStreamThumbnail(w http.ResponseWriter, r *http.Request, id string) {
	exists := false
	liveStreams.read(e, func() { exists = liveStreams.find(&e.st, id) >= 0 })
	if !exists {
		writeError(w, e.notFound(liveStreams.idName))
		return
	}
	if _, refused := e.readImage(r, maxThumbnailBytes); refused != nil {
		writeError(w, *refused)
		return
	}
	e.changeLiveStreamThumbnail(w, id, http.StatusCreated, func(l *liveStream) {
		l.ThumbnailVersion++
		l.CustomThumbnail = true
	})
}

// handleDeleteLiveStreamThumbnail serves DELETE /live-streams/{id}/thumbnail: the live stream
// shows the service's own thumbnail again; 200 with the live stream, a live stream without an
// uploaded thumbnail included (the document lists no error for it).
func (e *Emulator) handleDeleteLiveStreamThumbnail(w http.ResponseWriter, _ *http.Request, id string) {
	e.changeLiveStreamThumbnail(w, id, http.StatusOK, func(l *liveStream) { l.CustomThumbnail = false })
}

// changeLiveStreamThumbnail applies change to a copy of live stream id, moves its updatedAt and
// answers it with status; 404 when it does not exist.
func (e *Emulator) changeLiveStreamThumbnail(w http.ResponseWriter, id string, status int, change func(*liveStream)) {
	e.mu.Lock()
	i := liveStreams.find(&e.st, id)
	if i < 0 {
		e.mu.Unlock()
		writeError(w, e.notFound(liveStreams.idName))
		return
	}
	l := *e.st.LiveStreams[i]
	change(&l)
	l.UpdatedAt = e.nextUpdate(l.UpdatedAt)
	e.st.LiveStreams[i] = &l
	out := toLiveStreamWire(&l)
	e.mu.Unlock()
	e.saveStateLogged()
	e.answerWrite(w, status, out)
}
