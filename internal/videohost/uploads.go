package videohost

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path"
)

// MaxSourceSize is the largest video source the service takes: 30 GiB.
const MaxSourceSize = 30 << 30

// UploadSource is a file to upload, read by ranges (never whole) from Reader: Size bytes.
type UploadSource struct {
	Name   string      // the file's base name, sent as the part's filename
	Reader io.ReaderAt // e.g. *os.File
	Size   int64
	// SHA256, when set (lowercase hex), is the SHA-256 that the bytes sent must have: each
	// attempt of an upload sent in one request (an image, a caption or chapter file) hashes the
	// bytes as it sends them and ends with ErrSourceChanged, before its last bytes leave, when
	// they differ, so that what the service receives is what the caller recorded. A video
	// source's chunks are checked through UploadOptions.Hash instead.
	SHA256 string
}

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
	body.want = src.SHA256
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
