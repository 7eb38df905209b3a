package videohost

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// imageFile writes content to a file of the test and opens it, as the provider opens the file
// it uploads; its UploadSource carries the SHA-256 of want.
func imageFile(t *testing.T, content, want string) (string, UploadSource) {
	t.Helper()
	name := filepath.Join(t.TempDir(), "thumb.png")
	if err := os.WriteFile(name, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	sum := sha256.Sum256([]byte(want))
	return name, UploadSource{Name: "thumb.png", Reader: f, Size: int64(len(content)), SHA256: hex.EncodeToString(sum[:])}
}

// uploadRecorder answers the first upload 500 after calling between (the retry's wait) and
// records the file part of every upload the service read whole.
type uploadRecorder struct {
	mu       sync.Mutex
	attempts int
	whole    []string
	between  func()
}

// wholeFilePart is the file part of a multipart request, and whether the body held it whole
// (an attempt that its client cut short does not).
func wholeFilePart(r *http.Request) (string, bool) {
	_, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil {
		return "", false
	}
	mr := multipart.NewReader(r.Body, params["boundary"])
	file, found := "", false
	for {
		p, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return file, found
		}
		if err != nil {
			return "", false
		}
		b, err := io.ReadAll(p)
		if err != nil {
			return "", false
		}
		if p.FileName() != "" {
			file, found = string(b), true
		}
	}
}

func (u *uploadRecorder) handler() http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		u.mu.Lock()
		u.attempts++
		first := u.attempts == 1
		u.mu.Unlock()
		if data, ok := wholeFilePart(r); ok {
			u.mu.Lock()
			u.whole = append(u.whole, string(data))
			u.mu.Unlock()
		}
		if first {
			if u.between != nil {
				u.between()
			}
			writeJSON(w, http.StatusInternalServerError, map[string]any{"title": "Oops.", "status": 500})
			return
		}
		switch r.URL.Path {
		case "/watermarks":
			writeJSON(w, http.StatusOK, map[string]any{"watermarkId": "watermark_1", "createdAt": "2024-08-08T14:12:18+00:00"})
		case "/players/pt1/logo":
			writeJSON(w, http.StatusOK, map[string]any{"playerId": "pt1"})
		case "/videos/vi1/captions/en":
			writeJSON(w, http.StatusOK, map[string]any{"srclang": "en", "languageName": "English"})
		case "/live-streams/li1/thumbnail":
			writeJSON(w, http.StatusOK, map[string]any{"liveStreamId": "li1", "name": "l"})
		default:
			writeJSON(w, http.StatusOK, videoJSON("vi1", "t"))
		}
	}
}

// TestImageRewrittenDuringTheRetryIsNotSent: an image upload answered 500 is sent again after a
// wait; a file rewritten in place during that wait (same size, other bytes) must not be sent as
// if it were the one whose SHA-256 the caller recorded. The retry hashes the bytes as it sends
// them and stops before the last ones: the call fails saying the file changed, and the service
// read the planned bytes whole once and the new ones never.
func TestImageRewrittenDuringTheRetryIsNotSent(t *testing.T) {
	const planned, rewritten = "PNG bytes B", "PNG bytes C"
	name, src := imageFile(t, planned, planned)
	rec := &uploadRecorder{between: func() {
		if err := os.WriteFile(name, []byte(rewritten), 0o600); err != nil {
			t.Error(err)
		}
	}}
	f := newFakeService(t, rec.handler())
	c := f.client(t, basic)
	_, err := c.UploadVideoThumbnail(t.Context(), "vi1", src)
	if !errors.Is(err, ErrSourceChanged) || errors.Is(err, ErrAmbiguous) {
		t.Fatalf("the upload of a file rewritten during the retry's wait: %v; want ErrSourceChanged", err)
	}
	for _, want := range []string{"thumb.png", src.SHA256, "changed since its SHA-256 was taken"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q: %v", want, err)
		}
	}
	// The retry may not even reach the handler: its body is cut before its headers are flushed.
	if len(rec.whole) != 1 || rec.whole[0] != planned {
		t.Errorf("the service read whole %q, want the planned bytes once", rec.whole)
	}
}

// TestImageUploadsCheckTheirHash: every single-request upload that carries a SHA-256 (a video's
// or a live stream's thumbnail, a watermark, a player theme's logo, a caption) sends the bytes of that hash, after
// a 500 too; a file that differs from its hash before the first attempt is never sent whole,
// and a create (a watermark's, which is not re-sent after it may have been stored) that stopped
// so is not ambiguous: the service never had its request whole.
func TestImageUploadsCheckTheirHash(t *testing.T) {
	calls := map[string]func(*Client, UploadSource) error{
		"thumbnail": func(c *Client, s UploadSource) error {
			_, err := c.UploadVideoThumbnail(t.Context(), "vi1", s)
			return err
		},
		"watermark": func(c *Client, s UploadSource) error { _, err := c.CreateWatermark(t.Context(), s); return err },
		"caption": func(c *Client, s UploadSource) error {
			_, err := c.UploadCaption(t.Context(), "vi1", "en", s)
			return err
		},
		"live stream thumbnail": func(c *Client, s UploadSource) error {
			_, err := c.UploadLiveStreamThumbnail(t.Context(), "li1", s)
			return err
		},
		"logo": func(c *Client, s UploadSource) error {
			_, err := c.UploadPlayerLogo(t.Context(), "pt1", "https://example.test", s)
			return err
		},
	}
	for kind, call := range calls {
		_, src := imageFile(t, "the planned image", "the planned image")
		rec := &uploadRecorder{}
		f := newFakeService(t, rec.handler())
		err := call(f.client(t, basic), src)
		if kind != "watermark" && (err != nil || len(rec.whole) != 2 || rec.whole[1] != "the planned image") {
			t.Errorf("%s: %v; the service read %q", kind, err, rec.whole)
		}

		_, src = imageFile(t, "another image ...", "the planned image")
		rec = &uploadRecorder{}
		f = newFakeService(t, rec.handler())
		err = call(f.client(t, basic), src)
		if !errors.Is(err, ErrSourceChanged) || errors.Is(err, ErrAmbiguous) || len(rec.whole) != 0 {
			t.Errorf("%s of a file other than its hash: %v; the service read %q", kind, err, rec.whole)
		}
	}
	_, src := imageFile(t, "same", "same")
	src.SHA256 = ""
	rec := &uploadRecorder{}
	f := newFakeService(t, rec.handler())
	if _, err := f.client(t, basic).UploadVideoThumbnail(t.Context(), "vi1", src); err != nil || !bytes.Equal([]byte(rec.whole[1]), []byte("same")) {
		t.Errorf("an upload without a SHA-256 to check: %v %q", err, rec.whole)
	}
}
