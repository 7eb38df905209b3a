package emulator

import (
	"io"
	"log"
	"maps"
	"mime/multipart"
	"net/http"
	"os"
	"slices"
	"time"
)

// Slugs, titles and details of a source upload's 400s.
const (
	slugSourceUploaded     = "video-source-already-uploaded"
	titleSourceUploaded    = "The source of this video is already uploaded: a video takes one source, once."
	slugSourceDownloaded   = "video-source-already-downloaded"
	titleSourceDownloaded  = "This video was created from a URL: it takes no upload."
	slugInvalidRange       = "invalid-content-range"
	titleRangeForms        = "The Content-Range of this chunk does not match the upload under way: one upload uses one form of Content-Range, and a regular upload cannot join a progressive one."
	slugFileTooLarge       = "uploaded-file-too-large"
	titleFileTooLarge      = "The file is larger than 200 MiB: upload it in chunks with a Content-Range."
	detailSourceUploaded   = "Create a new video to upload another source; GET /videos/{videoId}/status shows what this one received."
	detailSourceDownloaded = "Its source is the URL it was created from; create a new video to upload a file."
	detailRangeForms       = "Send every chunk of an upload with the same form of Content-Range (bytes FROM-TO/TOTAL or part N/TOTAL), and only a video without chunks a regular upload."
	detailRangeMalformed   = "The Content-Range must be bytes FROM-TO/TOTAL or part N/TOTAL (TOTAL may be * until the last chunk)."
	detailRangeSize        = "The range does not match the size of the file part."
	detailRangeTotal       = "The total differs from the one an earlier chunk of this upload gave."
	detailChunkTooSmall    = "A chunk that is not the last must hold at least 5 MiB (5242880 bytes)."
	detailChunkTooLarge    = "A chunk holds at most 200 MiB (209715200 bytes)."
	detailSourceTooLarge   = "A source holds at most 30 GiB."
)

// The attributes that a source upload's 400s name.
const (
	attributeContentRange = "Content-Range"
	attributeSourceFile   = "file"
)

const (
	// chunkCutDefaultAfter is how many bytes of a chunk's file a cut fault reads first, unless
	// Faults.UploadCutAfterBytes says otherwise.
	chunkCutDefaultAfter = 1 << 20
	// sourceCopyBufferLength is the buffer a chunk streams through to its file.
	sourceCopyBufferLength = 256 << 10
)

// handleUploadSource serves POST /videos/{id}/source: a regular upload or one chunk of a
// progressive one, streamed to a file of its own; 201 with the video.
func (e *Emulator) handleUploadSource(w http.ResponseWriter, r *http.Request, id string) {
	rng, refused := e.requestRange(r)
	if refused == nil {
		refused = e.sourceAccepts(id, rng.form)
	}
	if refused != nil {
		writeError(w, *refused)
		return
	}
	chunk, _, refused := e.receiveChunk(r, rng, id)
	if refused != nil {
		writeError(w, *refused)
		return
	}
	e.storeChunk(w, id, rng, chunk)
}

// requestRange reads r's Content-Range: form regular when it has none.
func (e *Emulator) requestRange(r *http.Request) (contentRange, *apiError) {
	h := r.Header.Get("Content-Range")
	if h == "" {
		return contentRange{form: formRegular, total: -1}, nil
	}
	rng, ok := parseContentRange(h)
	detail := detailRangeMalformed
	if ok {
		detail = rng.check()
	}
	if detail != "" {
		a := e.fieldError(e.fieldInvalid(attributeContentRange, detail))
		return rng, &a
	}
	return rng, nil
}

// storeChunk keeps a received chunk as video id's, records what it changed and answers 201 with
// the video (or 500 when the commit-then-500 fault draws it); the chunk's file is deleted when
// it is refused.
func (e *Emulator) storeChunk(w http.ResponseWriter, id string, rng contentRange, chunk storedChunk) {
	p, done, refused := e.commitChunk(id, rng, chunk)
	if refused != nil {
		_ = os.Remove(chunk.path)
		writeError(w, *refused)
		return
	}
	out, refused := e.afterChunk(id, p, done)
	if refused != nil {
		writeError(w, *refused)
		return
	}
	if e.faults.takeUploadCommitThen500() {
		writeError(w, e.serverError())
		return
	}
	writeJSON(w, http.StatusCreated, out)
}

// sourceAccepts answers the error that refuses any upload to video id before its body is
// read: an unknown video, a source taken already, or a form that the upload under way does not
// use.
func (e *Emulator) sourceAccepts(id, form string) *apiError {
	var refused *apiError
	e.withFreshStore(func() {
		i := videos.find(&e.st, id)
		switch {
		case i < 0:
			a := e.notFound(videos.idName)
			refused = &a
		case e.st.Videos[i].SourceURL != "":
			refused = e.sourceError(slugSourceDownloaded, titleSourceDownloaded, detailSourceDownloaded)
		case hasSource(e.st.Videos[i]):
			refused = e.sourceError(slugSourceUploaded, titleSourceUploaded, detailSourceUploaded)
		}
	})
	if refused != nil {
		return refused
	}
	e.uploads.mu.Lock()
	defer e.uploads.mu.Unlock()
	return e.formRefusedLocked(e.uploads.progressLocked(id), form)
}

// hasSource reports whether v's source is complete: uploaded, copied, recorded, or arrived
// encoded.
func hasSource(v *video) bool {
	return v.SourceSHA256 != "" || v.Ingest != "" && v.Ingest != ingestUploading
}

// formRefusedLocked is the error that refuses a chunk of form to an upload p, or nil; the
// caller holds e.uploads.mu.
func (e *Emulator) formRefusedLocked(p *uploadProgress, form string) *apiError {
	switch {
	case p == nil:
		return nil
	case p.complete:
		return e.sourceError(slugSourceUploaded, titleSourceUploaded, detailSourceUploaded)
	case p.form != form || form == formRegular:
		return e.sourceError(slugInvalidRange, titleRangeForms, detailRangeForms)
	}
	return nil
}

// sourceError is a 400 of a source upload naming file.
func (e *Emulator) sourceError(slug, title, detail string) *apiError {
	a := e.newError(http.StatusBadRequest, slug, title)
	a.Name, a.Detail = attributeSourceFile, detail
	return &a
}

// receivedForm is what a source request held beside its file: the other fields and the file's
// name.
type receivedForm struct {
	fields   map[string]string
	filename string
}

// receiveChunk streams the file part of r to a new file, counting its bytes against video id
// ("" when not known yet), and checks its size against rng. A cut fault aborts the connection
// part way through, keeping nothing.
func (e *Emulator) receiveChunk(r *http.Request, rng contentRange, id string) (storedChunk, receivedForm, *apiError) {
	f, err := e.uploads.tempFile()
	if err != nil {
		log.Printf("videohost-emulator: %v", err)
		a := e.serverError()
		return storedChunk{}, receivedForm{}, &a
	}
	chunk := storedChunk{path: f.Name(), from: rng.from}
	var form receivedForm
	cutAfter, cut := e.faults.takeUploadCut()
	fields, refused := e.readMultipart(r, func(part *multipart.Part) *apiError {
		form.filename = part.FileName()
		counted := &countingReader{r: part, add: func(n int) { e.stats.addUploadBytes(id, int64(n)) }}
		src := io.LimitReader(counted, maxChunkBytes+1)
		if cut {
			src = io.LimitReader(counted, max(cutAfter, 1))
		}
		n, err := io.CopyBuffer(f, src, make([]byte, sourceCopyBufferLength))
		chunk.size = n
		if cut {
			_ = f.Close()
			_ = os.Remove(f.Name())
			panic(http.ErrAbortHandler) // The server closes the connection without an answer.
		}
		if err != nil {
			a := e.invalidPayload()
			return &a
		}
		return nil
	})
	if err := f.Close(); err != nil && refused == nil {
		a := e.serverError()
		refused = &a
	}
	if refused == nil {
		refused = e.chunkSizeRefused(rng, chunk.size)
	}
	if refused != nil {
		_ = os.Remove(chunk.path)
		return storedChunk{}, receivedForm{}, refused
	}
	form.fields = fields
	return chunk, form, nil
}

// chunkSizeRefused is the error that refuses a file part of size bytes sent with rng, or nil.
func (e *Emulator) chunkSizeRefused(rng contentRange, size int64) *apiError {
	invalid := func(name, detail string) *apiError {
		a := e.fieldError(e.fieldInvalid(name, detail))
		return &a
	}
	switch {
	case size == 0:
		return invalid(attributeSourceFile, detailFileEmpty)
	case size > maxChunkBytes && rng.form == formRegular:
		return e.sourceError(slugFileTooLarge, titleFileTooLarge, "Send at most 200 MiB (209715200 bytes) in one request.")
	case size > maxChunkBytes:
		return invalid(attributeSourceFile, detailChunkTooLarge)
	case rng.form == formBytes && size != rng.to-rng.from+1:
		return invalid(attributeContentRange, detailRangeSize)
	case rng.form != formRegular && !rng.last() && size < minChunkBytes:
		return invalid(attributeSourceFile, detailChunkTooSmall)
	}
	return nil
}

// commitChunk keeps chunk as the chunk of rng of video id's upload, in place of one sent
// before for the same range; it answers the upload and, when this chunk completed it, the
// chunks of the source, whose files the caller deletes once the source is hashed.
func (e *Emulator) commitChunk(id string, rng contentRange, chunk storedChunk) (*uploadProgress, []storedChunk, *apiError) {
	u := &e.uploads
	u.mu.Lock()
	defer u.mu.Unlock()
	p := u.progressLocked(id)
	if refused := e.formRefusedLocked(p, rng.form); refused != nil {
		return nil, nil, refused
	}
	if p == nil {
		p = &uploadProgress{form: rng.form, total: -1, chunks: map[int64]storedChunk{}, hash: newSourceHash(rng.form)}
		u.byVideo[id] = p
	}
	if rng.form == formRegular {
		rng.total, rng.to = chunk.size, chunk.size-1
	}
	if refused := e.totalRefused(p, rng, chunk); refused != nil {
		return nil, nil, refused
	}
	if old, ok := p.chunks[rng.key()]; ok {
		_ = os.Remove(old.path)
	}
	p.chunks[rng.key()] = chunk
	p.hash.storedLocked(rng.key())
	if rng.total >= 0 {
		p.total = rng.total
	}
	if !p.isComplete() {
		return p, nil, nil
	}
	// The chunks stay described (the status shows them while the source is hashed); their
	// files are deleted once hashed.
	p.complete = true
	return p, slices.Collect(maps.Values(p.chunks)), nil
}

// totalRefused checks a chunk against the upload's total: one total per upload, no chunk
// beyond it, and at most 30 GiB in all.
func (e *Emulator) totalRefused(p *uploadProgress, rng contentRange, chunk storedChunk) *apiError {
	invalid := func(name, detail string) *apiError {
		a := e.fieldError(e.fieldInvalid(name, detail))
		return &a
	}
	if rng.total >= 0 && p.total >= 0 && rng.total != p.total {
		return invalid(attributeContentRange, detailRangeTotal)
	}
	total := max(rng.total, p.total)
	var sum int64
	for k, c := range p.chunks {
		if total >= 0 && (p.form == formPart && k > total || p.form == formBytes && c.from+c.size > total) {
			return invalid(attributeContentRange, detailRangeTotal)
		}
		if k != rng.key() {
			sum += c.size
		}
	}
	if rng.form == formBytes && total >= 0 && rng.to >= total {
		return invalid(attributeContentRange, detailRangeTotal)
	}
	if sum+chunk.size > maxSourceBytes {
		return invalid(attributeSourceFile, detailSourceTooLarge)
	}
	return nil
}

// afterChunk hashes what a stored chunk joined to the source's bytes hashed so far, and records
// what it changed on video id, upload p: its ingest is uploading, or, when done holds the
// complete source, its size and SHA-256 (the chunks' files are then deleted) and the start of
// its encoding. It answers the video.
func (e *Emulator) afterChunk(id string, p *uploadProgress, done []storedChunk) (videoWire, *apiError) {
	var size int64
	var sum string
	if done == nil {
		// What fails here is hashed again by a later chunk's request; the last one answers
		// for it. A video deleted meanwhile took its chunks' files with it: nothing to say.
		if err := e.uploads.advance(p); err != nil && e.uploads.holds(id, p) {
			log.Printf("videohost-emulator: %v", err)
		}
	} else {
		var err error
		size, sum, err = e.uploads.sourceSum(p)
		for _, c := range done {
			_ = os.Remove(c.path)
		}
		if err != nil {
			log.Printf("videohost-emulator: %v", err)
			e.uploads.drop(id)
			a := e.serverError()
			return videoWire{}, &a
		}
		e.uploads.mu.Lock()
		if p := e.uploads.progressLocked(id); p != nil {
			p.size = size
		}
		e.uploads.mu.Unlock()
	}
	var out videoWire
	found := false
	e.withFreshStore(func() {
		i := videos.find(&e.st, id)
		if found = i >= 0; !found {
			return
		}
		v := e.st.Videos[i]
		if v.Ingest == "" {
			v.Ingest = ingestUploading
		}
		if done != nil {
			v.SourceSize, v.SourceSHA256, v.Ingest = size, sum, ingestUploaded
			v.SourceCompletedAt = e.now().UTC()
			v.Qualities = e.qualitiesOf(v)
			v.ExpiresAt = e.sandboxExpiry(e.now().UTC().Truncate(time.Second))
		}
		out = e.toVideoWire(v)
	})
	if !found {
		e.uploads.drop(id)
		a := e.notFound(videos.idName)
		return videoWire{}, &a
	}
	e.saveStateLogged()
	if done != nil {
		e.startEncoding(id)
	}
	return out, nil
}

// countingReader reports every read's byte count to add.
type countingReader struct {
	r   io.Reader
	add func(int)
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if n > 0 {
		c.add(n)
	}
	return n, err
}
