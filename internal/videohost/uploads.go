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
)

var _ error = (*UploadIncompleteError)(nil)

// MaxSourceSize is the largest video source the service takes: 30 GiB.
const MaxSourceSize = 30 << 30

// slugAlreadyUploaded is the 400 of an upload to a video whose source is complete.
const slugAlreadyUploaded = "video-source-already-uploaded"

// UploadSource is a file to upload, read by ranges (never whole) from Reader: Size bytes.
type UploadSource struct {
	Name   string      // the file's base name, sent as the part's filename
	Reader io.ReaderAt // e.g. *os.File
	Size   int64
}

// UploadOptions tune one UploadVideoSource; zero values take the client's Config.
type UploadOptions struct {
	ChunkSize      int64 // bytes per chunk, MinUploadChunkSize..MaxUploadChunkSize
	ChunksInFlight int   // chunks sent together, 1..MaxUploadChunksInFlight
	// Progress, when set, is called at a bounded cadence (and once at the end).
	Progress func(UploadProgress)
}

// UploadIncompleteError is an upload that ended with part of the source still missing: its
// context ended (errors.Is(err, ErrInterrupted)), or a chunk failed after its retries. The
// service keeps what it acknowledged: the next UploadVideoSource of the same file sends only
// the rest.
type UploadIncompleteError struct {
	VideoID string
	// Sent is what the upload knows the service has of the file's Total bytes: what the
	// status listed when it began plus the chunks acknowledged since (0 when the status could
	// not be read); the status may list more, never less.
	Sent, Total int64
	Err         error // the cause (ErrInterrupted, the last *Error, a network error)
}

func (e *UploadIncompleteError) Error() string {
	return fmt.Sprintf("uploading the source of video %s: incomplete: the service has %d of %d bytes (%d missing), "+
		"and sending the same file again resumes the upload: %v", e.VideoID, e.Sent, e.Total, e.Total-e.Sent, e.Err)
}

func (e *UploadIncompleteError) Unwrap() error { return e.Err }

// checkSource refuses a source the service could not take, before any request.
func checkSource(src UploadSource, limit int64) error {
	switch {
	case src.Reader == nil:
		return errors.New("videohost: the upload has no file to read")
	case src.Size <= 0:
		return fmt.Errorf("videohost: the file %q is empty: the service takes no empty upload", src.Name)
	case src.Size > limit:
		return fmt.Errorf("videohost: the file %q holds %d bytes, more than the service takes (%d)", src.Name, src.Size, limit)
	}
	return nil
}

// checkSize reads one byte past the end: a file that grew since its size was taken is not the
// file the caller measured (a shorter one is caught as it is read).
func checkSize(src UploadSource) error {
	var b [1]byte
	if n, _ := src.Reader.ReadAt(b[:], src.Size); n > 0 {
		return fmt.Errorf("%w: %q holds more than the %d bytes it held when its size was taken", ErrSourceChanged, src.Name, src.Size)
	}
	return nil
}

// uploadFile sends src whole as one regular multipart request to p, after fields; replaces
// marks a request whose repetition replaces what the first one made (a caption file, a
// thumbnail), so that it is retried like a read.
func (c *Client) uploadFile(ctx context.Context, p string, fields []formField, src UploadSource, replaces bool, out any) error {
	if err := checkSource(src, MaxUploadChunkSize); err != nil {
		return err
	}
	if err := checkSize(src); err != nil {
		return err
	}
	body, err := newStreamBody(fields, uploadName(src.Name), src.Reader, 0, src.Size)
	if err != nil {
		return err
	}
	return c.do(ctx, request{method: http.MethodPost, path: p, stream: body, idempotent: replaces}, out)
}

// uploadName is the part's filename: the base name, or "file" as the service's own clients
// send a buffer.
func uploadName(name string) string {
	if b := path.Base(name); name != "" && b != "." && b != "/" {
		return b
	}
	return "file"
}

// sourceUpload is one run of UploadVideoSource.
type sourceUpload struct {
	c          *Client
	videoID    string
	path       string
	src        UploadSource
	chunkSize  int64
	inFlight   int
	prog       *progress
	hadAtStart int64 // bytes the service had when the run began
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
