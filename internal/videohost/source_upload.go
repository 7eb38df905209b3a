package videohost

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path"
	"sync"

	"golang.org/x/sync/errgroup"
)

// UploadVideoSource sends what the service lacks of src to POST /videos/{id}/source, in the
// uploads class: one regular request when the file fits in one chunk, else chunks with a
// Content-Range "bytes FROM-TO/TOTAL", several in flight. It first reads the status: chunks whose
// bytes the service holds are not sent again (resume). A chunk is retried after network errors
// and 5xx (a re-sent chunk replaces it), bounded by MaxRetries; a retried chunk refused because
// the source is complete is confirmed by the status. When ctx ends, no new chunk starts, those in
// flight finish, and the error is an *UploadIncompleteError that answers ErrInterrupted; the same
// type after a failure that outlasts the retries. A file that shrinks or grows while it is read
// is ErrSourceChanged; a change of content of the same size is the caller's to detect (by hash).
// Once the status shows the source complete the upload has succeeded: if the video cannot be
// read then, the Video returned holds its ID alone.
func (c *Client) UploadVideoSource(ctx context.Context, videoID string, src UploadSource, opt UploadOptions) (Video, error) {
	if videoID == "" {
		return Video{}, errEmptyID
	}
	u, err := c.newUpload(src, opt)
	if err != nil {
		return Video{}, err
	}
	u.videoID, u.path = videoID, videoCollection.item(videoID)+"/source"
	if u.seq != nil {
		defer u.seq.stop()
	}
	// A source changes the video's assets and source in the list that refreshes share.
	defer videoCollection.writing(c)()
	st, err := c.GetVideoStatus(ctx, videoID)
	if err != nil {
		return Video{}, u.unconfirmed(fmt.Errorf("reading the status before the upload: %w", err))
	}
	if err := u.sameSource(st); err != nil {
		return Video{}, err
	}
	if st.Complete() {
		if err := u.hashRest(); err != nil {
			return Video{}, err
		}
		return u.completed(ctx), nil
	}
	missing := st.Missing(src.Size)
	u.hadAtStart = st.Received(src.Size)
	// In MiB: Terraform's log writes a large integer field in exponent notation.
	c.log.Debug(ctx, logUploadShape, map[string]any{"video_id": videoID, "size_mib": float64(src.Size) / (1 << 20),
		"chunk_size_mib": float64(u.chunkSize) / (1 << 20), "chunks_in_flight": u.inFlight})
	u.prog = newProgress(c.log, c.progressEvery, videoID, src.Size, u.hadAtStart, opt.Progress, c.uploadsHeld())
	stop := u.prog.tick(ctx)
	u.run(ctx, u.plan(missing))
	stop()
	u.prog.finish(ctx)
	return u.result(ctx, missing)
}

// newUpload checks the source and the options, before any request.
func (c *Client) newUpload(src UploadSource, opt UploadOptions) (*sourceUpload, error) {
	if err := checkSource(src, MaxSourceSize); err != nil {
		return nil, err
	}
	u := &sourceUpload{c: c, src: src, chunkSize: opt.ChunkSize, inFlight: opt.ChunksInFlight}
	u.src.Name = uploadName(src.Name)
	cfg := Config{UploadChunkSize: u.chunkSize, UploadChunksInFlight: u.inFlight}
	if err := cfg.uploads(); err != nil {
		var ce *ConfigError
		if errors.As(err, &ce) {
			ce.Field = "UploadOptions." + map[string]string{
				"UploadChunkSize": "ChunkSize", "UploadChunksInFlight": "ChunksInFlight"}[ce.Field]
		}
		return nil, err
	}
	if opt.ChunkSize == 0 {
		u.chunkSize = c.cfg.UploadChunkSize
	}
	if opt.ChunksInFlight == 0 {
		u.inFlight = c.cfg.UploadChunksInFlight
	}
	// What neither sets is chosen for this file and the uploads limit known now (the service's
	// smallest while none is).
	shape := chooseUploadShape(src.Size, u.chunkSize, u.inFlight, c.limiters[ClassUploads].learnedLimit())
	u.chunkSize, u.inFlight = shape.chunkSize, shape.inFlight
	if opt.Hash != nil {
		u.seq = newSequentialHash(u.src, opt.Hash, u.chunkSize)
	}
	return u, checkSize(src)
}

// sameSource refuses to add to a source of another size: those bytes are of another file.
func (u *sourceUpload) sameSource(st VideoStatus) error {
	if st.Ingest == nil {
		return nil
	}
	if fs := st.Ingest.Filesize; fs != nil && *fs != u.src.Size {
		return fmt.Errorf("%w: video %s holds a source (or part of one) of %d bytes, not %d: "+
			"upload the file to a new video", ErrSourceChanged, u.videoID, *fs, u.src.Size)
	}
	return nil
}

// plan cuts the file into chunks on the grid of the chunk size, keeping those that hold a
// missing byte: every chunk but the last is then a whole chunk, as the service requires, even
// when a missing range starts inside one (the chunk is sent whole and replaces what arrived).
func (u *sourceUpload) plan(missing []ByteRange) []chunk {
	var out []chunk
	for _, m := range missing {
		for from := m.From / u.chunkSize * u.chunkSize; from <= m.To; from += u.chunkSize {
			to := min(from+u.chunkSize, u.src.Size) - 1
			n := min(to, m.To) - max(from, m.From) + 1
			if k := len(out) - 1; k >= 0 && out[k].from == from {
				out[k].missing += n
				continue
			}
			out = append(out, chunk{from: from, to: to, missing: n})
		}
	}
	return out
}

// run sends the chunks, at most inFlight at a time, starting none once ctx ended or a chunk
// failed; it returns when those started have finished. Their bodies go out together; with a hash
// to feed, its reader may read up to the end of each chunk started (sequentialHash).
func (u *sourceUpload) run(ctx context.Context, chunks []chunk) {
	var g errgroup.Group
	g.SetLimit(u.inFlight)
	for _, ch := range chunks {
		if ctx.Err() != nil || u.stopped() {
			break
		}
		if u.seq != nil {
			u.seq.allow(ch.to + 1)
		}
		g.Go(func() error {
			// It may have waited for its slot past the end.
			if ctx.Err() == nil && !u.stopped() {
				u.send(ctx, ch)
			}
			return nil
		})
	}
	_ = g.Wait()
}

// hashRest waits, once the upload has succeeded, until the hash holds the whole file: the bytes
// the service held before (a resumed upload) or that a chunk refused as already complete did not
// send are read for it alone. Nothing without a hash.
func (u *sourceUpload) hashRest() error {
	if u.seq == nil {
		return nil
	}
	return u.seq.whole()
}

func (u *sourceUpload) stopped() bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.failure != nil || u.complete
}

// send sends one chunk and records its outcome.
func (u *sourceUpload) send(ctx context.Context, ch chunk) {
	v, err := u.post(ctx, ch, true)
	u.record(ch, v, err)
}

// post sends one chunk; a chunk that replaces what it may have made is repeatable.
func (u *sourceUpload) post(ctx context.Context, ch chunk, replaces bool) (Video, error) {
	r := request{method: http.MethodPost, path: u.path, query: u.query, idempotent: replaces, secret: u.secret, anonymous: u.anonymous}
	var err error
	r.stream, err = newStreamBody(u.fields, u.src.Name, u.src.Reader, ch.from, ch.to-ch.from+1)
	if err == nil && u.seq != nil {
		r.stream.check = u.seq
	}
	if err == nil && (ch.from > 0 || ch.to < u.src.Size-1) {
		r.header = http.Header{"Content-Range": {fmt.Sprintf("bytes %d-%d/%d", ch.from, ch.to, u.src.Size)}}
	}
	var v Video
	if err == nil {
		err = u.c.do(ctx, r, &v)
	}
	return v, err
}

// record counts a chunk's outcome: acknowledged, refused because the source is complete, or
// the first failure, which stops new chunks.
func (u *sourceUpload) record(ch chunk, v Video, err error) {
	u.mu.Lock()
	switch {
	case err == nil:
		u.acked += ch.missing
		u.last = &v
	case alreadyUploaded(err):
		u.complete = true
	case u.failure == nil:
		u.failure = err
	}
	u.mu.Unlock()
	if err == nil {
		u.prog.add(ch.missing)
	}
}

// alreadyUploaded recognises the 400 of a source that is complete.
func alreadyUploaded(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Status == http.StatusBadRequest && e.Type != "" && path.Base(e.Type) == slugAlreadyUploaded
}

// result confirms a run that sent every chunk (or learned the source is complete) with the
// status, and says what is missing of any other.
func (u *sourceUpload) result(ctx context.Context, missing []ByteRange) (Video, error) {
	var total int64
	for _, m := range missing {
		total += m.Len()
	}
	u.mu.Lock()
	sent, failure, complete, last := u.hadAtStart+u.acked, u.failure, u.complete, u.last
	u.mu.Unlock()
	if err := ctx.Err(); err != nil && !complete && u.acked < total {
		cause := &interruptedError{http.MethodPost, u.path, "before the remaining chunks were sent", err}
		return Video{}, u.incomplete(sent, errors.Join(cause, failure))
	}
	if failure != nil {
		return Video{}, u.incomplete(sent, failure)
	}
	if err := checkSize(u.src); err != nil {
		return Video{}, err
	}
	// The status is read even after ctx ended, when every chunk had been sent: it is what says
	// the upload is done.
	dctx, cancel := u.c.Detached(ctx)
	defer cancel()
	st, err := u.c.GetVideoStatus(dctx, u.videoID)
	switch {
	case err != nil:
		return Video{}, u.unconfirmed(fmt.Errorf("confirming the upload with the status: %w", err))
	case !st.Complete():
		return Video{}, u.incomplete(st.Received(u.src.Size), fmt.Errorf(
			"every chunk was sent, yet the status lists ranges as missing: %v", st.Missing(u.src.Size)))
	case st.Ingest.Filesize != nil && *st.Ingest.Filesize != u.src.Size:
		return Video{}, fmt.Errorf("%w: video %s holds a source of %d bytes, not %d", ErrSourceChanged, u.videoID, *st.Ingest.Filesize, u.src.Size)
	}
	if err := u.hashRest(); err != nil {
		return Video{}, err
	}
	if last != nil && !complete {
		return *last, nil
	}
	return u.completed(dctx), nil
}

// completed is the video of a source that its status showed complete. The upload has then
// succeeded whatever follows: a read of the video that fails is logged, and the Video holds its
// ID alone, so that a caller never takes a complete source for a failed upload.
func (u *sourceUpload) completed(ctx context.Context) Video {
	v, err := u.c.GetVideo(ctx, u.videoID)
	if err != nil {
		u.c.log.Warn(ctx, logUploadUnread, map[string]any{"video_id": u.videoID, "error": err.Error()})
		return Video{ID: u.videoID}
	}
	return v
}

// logUploadShape is the message that says how a source is cut and sent, chosen or configured.
const logUploadShape = "videohost upload shape"

// logUploadUnread is the message of a complete upload whose video could not be read after it.
const logUploadUnread = "videohost upload complete, the video could not be read"

func (u *sourceUpload) incomplete(sent int64, err error) error {
	return &UploadIncompleteError{VideoID: u.videoID, Sent: sent, Total: u.src.Size, Err: err}
}

// unconfirmed is the incomplete upload whose status could not be read: what the service holds
// is not known (see UploadIncompleteError.StatusUnread).
func (u *sourceUpload) unconfirmed(err error) error {
	return &UploadIncompleteError{VideoID: u.videoID, Total: u.src.Size, StatusUnread: true, Err: err}
}

var _ error = (*UploadIncompleteError)(nil)

// slugAlreadyUploaded is the 400 of an upload to a video whose source is complete.
const slugAlreadyUploaded = "video-source-already-uploaded"

// UploadOptions tune one UploadVideoSource; zero values take the client's Config, and what
// neither sets is chosen for the file and the uploads limit (chooseUploadShape).
type UploadOptions struct {
	ChunkSize      int64 // bytes per chunk, MinUploadChunkSize..MaxUploadChunkSize
	ChunksInFlight int   // chunks sent together, 1..MaxUploadChunksInFlight
	// Progress, when set, is called at a bounded cadence (and once at the end).
	Progress func(UploadProgress)
	// Hash, when set (a SHA-256, say), is written every byte of the file in order, by a read of
	// the file of its own beside the chunks' bodies, which go out together; each chunk sent is
	// checked to hold the bytes the hash took (else ErrSourceChanged, before the service has it
	// whole). After an upload that returned no error it holds the whole file, so that the caller
	// learns the SHA-256 of what was sent without a read of the file of its own.
	Hash io.Writer
}

// UploadIncompleteError is an upload that ended with part of the source still missing: its
// context ended (errors.Is(err, ErrInterrupted)), or a chunk failed after its retries. The
// service keeps what it acknowledged: the next UploadVideoSource of the same file sends only
// the rest.
type UploadIncompleteError struct {
	VideoID string
	// Sent is what the upload knows the service has of the file's Total bytes: what the
	// status listed when it began plus the chunks acknowledged since; the status may list
	// more, never less. It means nothing when StatusUnread is set.
	Sent, Total int64
	// StatusUnread says that the service's status could not be read, before the upload (so
	// nothing was sent) or after every chunk was sent (so the service may hold the whole file):
	// how much the service holds is not known, and a later read of the status tells.
	StatusUnread bool
	Err          error // the cause (ErrInterrupted, the last *Error, a network error)
}

func (e *UploadIncompleteError) Error() string {
	if e.StatusUnread {
		return fmt.Sprintf("uploading the source of video %s: not confirmed: the service's status could not be read, "+
			"so how much of the %d bytes it holds is not known, and sending the same file again resumes the upload "+
			"if anything is missing: %v", e.VideoID, e.Total, e.Err)
	}
	return fmt.Sprintf("uploading the source of video %s: incomplete: the service has %d of %d bytes (%d missing), "+
		"and sending the same file again resumes the upload: %v", e.VideoID, e.Sent, e.Total, e.Total-e.Sent, e.Err)
}

func (e *UploadIncompleteError) Unwrap() error { return e.Err }

// sourceUpload is one run of UploadVideoSource.
type sourceUpload struct {
	c          *Client
	videoID    string
	path       string
	src        UploadSource
	chunkSize  int64
	inFlight   int
	prog       *progress
	seq        *sequentialHash // nil without UploadOptions.Hash
	hadAtStart int64           // bytes the service had when the run began
	// An upload with a token: it goes to /upload?token= with no credentials; every chunk after
	// the first, which creates the video, names it in the form field videoId.
	query     url.Values
	secret    string
	anonymous bool
	fields    []formField

	mu       sync.Mutex
	acked    int64 // bytes of the missing ranges acknowledged by this run
	last     *Video
	failure  error // the first chunk failure, which stops new chunks
	complete bool  // a chunk was refused because the source is complete
}

// chunk is one range of the file, with how many of its bytes the service lacks.
type chunk struct {
	from, to int64 // to included
	missing  int64
}
