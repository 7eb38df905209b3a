package videohost

import (
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// discardService takes a video source and keeps nothing of it but how many bytes arrived: it
// reads the multipart stream as it comes and counts the file part's bytes, so that what a test
// measures of the process's memory is the client's. It answers the status from that count, and
// gives a budget of requests that no run spends.
type discardService struct {
	srv *httptest.Server

	mu       sync.Mutex
	total    int64
	received int64
	posts    int
}

func newDiscardService(tb testing.TB) *discardService {
	d := &discardService{}
	d.srv = httptest.NewServer(http.HandlerFunc(d.serve))
	tb.Cleanup(d.srv.Close)
	return d
}

func (d *discardService) serve(w http.ResponseWriter, r *http.Request) {
	rateHeadersOf(w, 1_000_000_000, 999_999_999, 60)
	switch {
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/source"):
		n, err := discardFilePart(r)
		if err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]any{"title": err.Error(), "status": 400})
			return
		}
		d.mu.Lock()
		d.received += n
		d.posts++
		if cr := r.Header.Get("Content-Range"); cr != "" {
			d.total, _ = strconv.ParseInt(cr[strings.LastIndex(cr, "/")+1:], 10, 64)
		} else {
			d.total = n
		}
		d.mu.Unlock()
		writeJSON(w, http.StatusCreated, videoJSON(vid, "bench"))
	case strings.HasSuffix(r.URL.Path, "/status"):
		d.mu.Lock()
		defer d.mu.Unlock()
		if d.total == 0 {
			writeJSON(w, http.StatusOK, map[string]any{"encoding": map[string]any{"playable": false}})
			return
		}
		state := IngestUploading
		if d.received >= d.total {
			state = IngestUploaded
		}
		writeJSON(w, http.StatusOK, map[string]any{"ingest": map[string]any{"status": state, "filesize": d.total}})
	default:
		writeJSON(w, http.StatusOK, videoJSON(vid, "bench"))
	}
}

// reset forgets the source, for the next run of a benchmark.
func (d *discardService) reset() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.total, d.received, d.posts = 0, 0, 0
}

func discardFilePart(r *http.Request) (int64, error) {
	_, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil {
		return 0, err
	}
	mr := multipart.NewReader(r.Body, params["boundary"])
	var n int64
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		m, err := io.Copy(io.Discard, p)
		if err != nil {
			return n, err
		}
		if p.FileName() != "" {
			n += m
		}
	}
}

func (d *discardService) client(tb testing.TB) *Client {
	c, err := New(Config{BaseURL: d.srv.URL, APIKey: testKey, AuthScheme: AuthBasic, HTTPClient: d.srv.Client()})
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// sourceFile writes size bytes of a repeating pattern to a file of the test's own directory.
func sourceFile(tb testing.TB, size int64) UploadSource {
	tb.Helper()
	name := filepath.Join(tb.TempDir(), "source.mp4")
	f, err := os.Create(name)
	if err != nil {
		tb.Fatal(err)
	}
	block := make([]byte, 1<<20)
	for i := range block {
		block[i] = byte(i * 7)
	}
	for left := size; left > 0; left -= int64(len(block)) {
		if _, err := f.Write(block[:min(left, int64(len(block)))]); err != nil {
			tb.Fatal(err)
		}
	}
	tb.Cleanup(func() { _ = f.Close() })
	return UploadSource{Name: name, Reader: f, Size: size}
}

// TestUploadMemoryDoesNotGrowWithTheFile uploads 64 MiB in 5 MiB chunks, two in flight, and
// counts every byte the process allocated meanwhile (client and server): a copy of each chunk
// alone would be 64 MiB. The bound is generous: a quarter of the file.
func TestUploadMemoryDoesNotGrowWithTheFile(t *testing.T) {
	const size = 64 << 20
	d := newDiscardService(t)
	c := d.client(t)
	src := sourceFile(t, size)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if _, err := c.UploadVideoSource(t.Context(), vid, src, UploadOptions{ChunkSize: 5 << 20, ChunksInFlight: 2}); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if d.received != size || d.posts != 13 {
		t.Fatalf("the service received %d bytes in %d chunks", d.received, d.posts)
	}
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("allocated %d KiB to upload %d MiB", allocated>>10, size>>20)
	if allocated > size/4 {
		t.Fatalf("allocated %d bytes to upload %d: the file is copied into memory", allocated, size)
	}
}
