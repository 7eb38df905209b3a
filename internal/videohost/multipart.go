package videohost

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"mime/multipart"
	"net/textproto"
	"strings"
	"sync"
	"time"
)

// streamBody is a multipart/form-data body whose one file part is read from a file by range
// on every attempt, never held whole: the framing (the form fields, the part's header and the
// closing boundary) is built once by mime/multipart, and each attempt reads the file's bytes
// through an io.SectionReader as the transport writes them. Being made of readers over the
// source, it needs no goroutine, has an exact length, and is made again for a retry.
type streamBody struct {
	contentType string
	length      int64
	head, tail  []byte
	file        io.ReaderAt
	off, n      int64
	check       *sequentialHash // the upload's hash, which checks every attempt's bytes; or nil
	want        string          // the SHA-256 that every attempt's file bytes must have (hex); or ""
	name        string          // the part's filename, for a message
}

// formField is one text field sent before the file part, such as an upload's videoId.
type formField struct{ name, value string }

// quoteEscaper is mime/multipart's own escaping of a quoted parameter; line breaks, which would
// end the header, are dropped.
var quoteEscaper = strings.NewReplacer("\\", "\\\\", `"`, "\\\"", "\r", "", "\n", "")

// newStreamBody frames bytes [off, off+n) of file as the part "file" named filename, after
// fields.
func newStreamBody(fields []formField, filename string, file io.ReaderAt, off, n int64) (*streamBody, error) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, f := range fields {
		if err := mw.WriteField(f.name, f.value); err != nil {
			return nil, err
		}
	}
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="file"; filename="%s"`, quoteEscaper.Replace(filename)))
	h.Set("Content-Type", "application/octet-stream")
	if _, err := mw.CreatePart(h); err != nil {
		return nil, err
	}
	headLen := buf.Len()
	if err := mw.Close(); err != nil {
		return nil, err
	}
	all := buf.Bytes()
	return &streamBody{
		contentType: mw.FormDataContentType(),
		length:      int64(len(all)) + n,
		head:        all[:headLen:headLen],
		tail:        all[headLen:],
		file:        file, off: off, n: n,
		name: filename,
	}, nil
}

// open makes the body of one attempt; touch is called on every read.
func (b *streamBody) open(touch func()) io.Reader {
	var file io.Reader = &exactReader{r: io.NewSectionReader(b.file, b.off, b.n), off: b.off, n: b.n}
	if b.check != nil {
		file = b.check.checked(file, b.off, b.n)
	}
	if b.want != "" {
		file = &wantedHashReader{r: file, name: b.name, n: b.n, want: b.want, h: sha256.New()}
	}
	return &touchReader{r: io.MultiReader(bytes.NewReader(b.head), file, bytes.NewReader(b.tail)), touch: touch}
}

// exactReader ends with ErrSourceChanged when the file ends before the range does: a file that
// shrank while it was uploaded.
type exactReader struct {
	r      io.Reader
	off, n int64
	read   int64
}

func (e *exactReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	e.read += int64(n)
	if errors.Is(err, io.EOF) && e.read < e.n {
		return n, fmt.Errorf("%w: it ends at byte %d, before the %d bytes from byte %d it was read for",
			ErrSourceChanged, e.off+e.read, e.n, e.off)
	}
	return n, err
}

// wantedHashReader is one attempt's read of a file of n bytes that must have the SHA-256 want:
// it hashes the bytes as they go and holds back its last read until the hash is known, so that
// a file rewritten since it was hashed (between two attempts, or during one) never reaches the
// service whole: the attempt ends with ErrSourceChanged, its body cut short.
type wantedHashReader struct {
	r      io.Reader
	name   string
	n, pos int64
	want   string
	h      hash.Hash
}

func (w *wantedHashReader) Read(p []byte) (int, error) {
	n, err := w.r.Read(p)
	_, _ = w.h.Write(p[:n]) // a hash.Hash never fails
	w.pos += int64(n)
	if n == 0 || w.pos < w.n {
		return n, err
	}
	if got := hex.EncodeToString(w.h.Sum(nil)); got != w.want {
		return 0, fmt.Errorf("%w since its SHA-256 was taken: the %d bytes of %q read to send have SHA-256 %s, "+
			"not %s; the upload stopped before its last bytes", ErrSourceChanged, w.n, w.name, got, w.want)
	}
	return n, err
}

type touchReader struct {
	r     io.Reader
	touch func()
}

func (t *touchReader) Read(p []byte) (int, error) {
	t.touch()
	return t.r.Read(p)
}

// errStalled ends an upload's attempt that made no progress for the request timeout.
var errStalled = errors.New("no progress within the request timeout")

// stallContext is ended d after the last touch, with errStalled as its cause, and at the latest
// d after caller ends: an upload in flight at a cancellation finishes, but as a write does, within
// the request timeout.
func stallContext(caller, parent context.Context, d time.Duration) (context.Context, func(), context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	t := time.AfterFunc(d, func() { cancel(fmt.Errorf("%w (%s)", errStalled, d)) })
	var cut *time.Timer
	var mu sync.Mutex
	stop := context.AfterFunc(caller, func() {
		mu.Lock()
		defer mu.Unlock()
		cut = time.AfterFunc(d, func() { cancel(fmt.Errorf("%w (%s) after the cancellation", errStalled, d)) })
	})
	return ctx, func() { t.Reset(d) }, func() {
		stop()
		t.Stop()
		mu.Lock()
		if cut != nil {
			cut.Stop()
		}
		mu.Unlock()
		cancel(context.Canceled)
	}
}
