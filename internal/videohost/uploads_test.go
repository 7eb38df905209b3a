package videohost

import (
	"bytes"
	"context"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// filePart reads the one file part of a multipart request: its field name, file name and bytes.
func filePart(t *testing.T, r *http.Request) (field, name string, data []byte, fields map[string]string) {
	t.Helper()
	media, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || media != "multipart/form-data" {
		t.Errorf("Content-Type %q", r.Header.Get("Content-Type"))
		return "", "", nil, nil
	}
	fields = map[string]string{}
	mr := multipart.NewReader(r.Body, params["boundary"])
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return field, name, data, fields
		}
		if err != nil {
			t.Errorf("multipart: %v", err)
			return "", "", nil, nil
		}
		b, _ := io.ReadAll(p)
		if p.FileName() == "" {
			fields[p.FormName()] = string(b)
			continue
		}
		field, name, data = p.FormName(), p.FileName(), b
	}
}

const webVTT = "WEBVTT\n\n00:00.000 --> 00:01.000\nHello \"world\"\n"

func TestCaptionChapterAndThumbnailUploads(t *testing.T) {
	var fails atomic.Int32
	fails.Store(1)
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.NotFound(w, r)
			return
		}
		if fails.Add(-1) >= 0 {
			writeJSON(w, http.StatusServiceUnavailable, map[string]any{"title": "Busy.", "status": 503})
			return
		}
		field, name, data, _ := filePart(t, r)
		if field != "file" || string(data) != webVTT && !bytes.HasPrefix(data, []byte("\x89PNG")) {
			t.Errorf("%s: part %q named %q holding %q", r.URL.Path, field, name, data)
		}
		switch r.URL.Path {
		case "/videos/vi1/captions/fr":
			if name != `sub's "fr".vtt` {
				t.Errorf("file name %q", name)
			}
			writeJSON(w, http.StatusOK, map[string]any{"uri": r.URL.Path, "srclang": "fr", "languageName": "Français"})
		case "/videos/vi1/chapters/en":
			writeJSON(w, http.StatusOK, map[string]any{"uri": r.URL.Path, "language": "en"})
		case "/videos/vi1/thumbnail":
			writeJSON(w, http.StatusOK, videoJSON("vi1", "t"))
		}
	})
	log := &captureLogger{}
	c := f.client(t, func(cfg *Config) { cfg.Logger = log })
	vtt := UploadSource{Name: "/home/me/sub's \"fr\".vtt", Reader: strings.NewReader(webVTT), Size: int64(len(webVTT))}
	// The first attempt meets a 503: a caption's upload replaces, so it is sent again.
	cp, err := c.UploadCaption(t.Context(), "vi1", "fr", vtt)
	if err != nil || cp.LanguageName != "Français" {
		t.Fatalf("UploadCaption = %+v, %v", cp, err)
	}
	if n := f.count(http.MethodPost, "/videos/vi1/captions/fr"); n != 2 {
		t.Fatalf("%d caption uploads, want 2 (one retry)", n)
	}
	vtt.Name = ""
	if ch, err := c.UploadChapter(t.Context(), "vi1", "en", vtt); err != nil || ch.Language != "en" {
		t.Fatalf("UploadChapter = %+v, %v", ch, err)
	}
	png := []byte("\x89PNG\r\n\x1a\n tiny")
	img := UploadSource{Name: "thumb.png", Reader: bytes.NewReader(png), Size: int64(len(png))}
	if v, err := c.UploadVideoThumbnail(t.Context(), "vi1", img); err != nil || v.ID != "vi1" {
		t.Fatalf("UploadVideoThumbnail = %+v, %v", v, err)
	}
	for _, l := range log.all() {
		if l.msg == logRequest && l.fields["method"] == http.MethodPost && l.fields["class"] != "auth" && l.fields["class"] != ClassUploads {
			t.Fatalf("an upload was logged in class %v", l.fields["class"])
		}
	}
	if _, err := c.UploadCaption(t.Context(), "vi1", "fr", UploadSource{Name: "e.vtt", Reader: strings.NewReader("")}); err == nil ||
		!strings.Contains(err.Error(), "empty") {
		t.Fatalf("an empty file: %v", err)
	}
}

func TestUploadStallIsBoundedByTheTimeout(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		select { // never answers while the client waits
		case <-release:
		case <-time.After(5 * time.Second):
		}
	})
	c := f.client(t, basic, func(cfg *Config) { cfg.Timeout = 200 * time.Millisecond; cfg.MaxRetries = NoRetries })
	_, src := randomFile(t, 1000)
	_, err := c.UploadCaption(t.Context(), "vi1", "fr", src)
	if err == nil || !errors.Is(err, errStalled) || !strings.Contains(err.Error(), "no progress within the request timeout") {
		t.Fatalf("err = %v, want a stall", err)
	}
}

// zeros is a file of n zeros that costs no memory.
type zeros struct{ n int64 }

func (z zeros) ReadAt(p []byte, off int64) (int, error) {
	if off >= z.n {
		return 0, io.EOF
	}
	n := int(min(int64(len(p)), z.n-off))
	clear(p[:n])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

func TestUploadInFlightAtCancellationEndsWithinTheTimeout(t *testing.T) {
	f := newDiscardlessService(t, func(w http.ResponseWriter, r *http.Request) {
		// Reads steadily, too slowly to finish within the test, then answers.
		buf := make([]byte, 64<<10)
		for end := time.Now().Add(3 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
			if _, err := io.ReadFull(r.Body, buf); err != nil {
				return
			}
		}
		writeJSON(w, http.StatusOK, map[string]any{"uri": r.URL.Path})
	})
	c, err := New(Config{BaseURL: f.URL, APIKey: testKey, AuthScheme: AuthBasic, HTTPClient: f.Client(),
		Timeout: 500 * time.Millisecond, MaxRetries: NoRetries})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(200*time.Millisecond, cancel)
	_, err = c.UploadCaption(ctx, "vi1", "fr", UploadSource{Name: "big.vtt", Reader: zeros{150 << 20}, Size: 150 << 20})
	if !errors.Is(err, ErrInterrupted) || !strings.Contains(err.Error(), "after the cancellation") {
		t.Fatalf("err = %v, want the upload cut the request timeout after the cancellation", err)
	}
}

// newDiscardlessService is a bare loopback server of handler, with no authentication.
func newDiscardlessService(t *testing.T, handler http.HandlerFunc) *httptest.Server {
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	return srv
}

// TestUploadChunkReplayedAfter401 revokes the access token: the chunk's 401 refreshes it and
// the chunk is sent again whole, its body made anew from the file.
func TestUploadChunkReplayedAfter401(t *testing.T) {
	s := newSourceStore(t)
	var f *fakeService
	f = newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/status") && f.count(http.MethodGet, r.URL.Path) == 1 {
			// The token expires between the status read and the first chunk.
			f.revoke(strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
		}
		s.serve(w, r)
	})
	c := f.client(t)
	data, src := randomFile(t, 6*mib)
	if _, err := c.UploadVideoSource(t.Context(), vid, src, fiveMiB); err != nil {
		t.Fatal(err)
	}
	if n := f.count(http.MethodPost, "/auth/refresh"); n != 1 || !s.holds(data) {
		t.Fatalf("%d refreshes (want 1); the service holds the file: %v", n, s.holds(data))
	}
	var replayed int
	for _, q := range f.requests() {
		if q.path == "/videos/"+vid+"/source" && len(q.body) > 5*mib {
			replayed++
		}
	}
	if replayed != 2 {
		t.Fatalf("%d whole first chunks arrived, want 2 (the refused one and its replay)", replayed)
	}
}
