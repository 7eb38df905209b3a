package videohost

import (
	"io"
	"math"
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
	"time"
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
	gate     *uploadWindow // when set, the uploads' window
}

// uploadWindow is a fixed window of limit uploads, as the service keeps one per class: it
// counts the 429s, and the early requests: those that arrive more than 100 ms after a 429 (the
// time for requests already on the wire to land) and before its Retry-After elapsed.
type uploadWindow struct {
	limit  int
	window time.Duration

	start   time.Time
	used    int
	started bool
	refused int
	early   int
	limited []struct{ at, until time.Time }
}

// admit counts one upload and writes its rate headers; the caller holds the service's lock.
func (g *uploadWindow) admit(w http.ResponseWriter) bool {
	now := time.Now()
	for _, l := range g.limited {
		if now.After(l.at.Add(100*time.Millisecond)) && now.Before(l.until) {
			g.early++
			break
		}
	}
	if !g.started || !now.Before(g.start.Add(g.window)) {
		g.start, g.used, g.started = now, 0, true
	}
	ok := g.used < g.limit
	retryAfter := max(1, int(math.Ceil(g.start.Add(g.window).Sub(now).Seconds())))
	if ok {
		g.used++
	} else {
		g.refused++
		g.limited = append(g.limited, struct{ at, until time.Time }{now, now.Add(time.Duration(retryAfter) * time.Second)})
	}
	rateHeadersOf(w, g.limit, g.limit-g.used, retryAfter)
	return ok
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
		d.mu.Lock()
		ok := d.gate == nil || d.gate.admit(w)
		d.mu.Unlock()
		if !ok {
			writeJSON(w, http.StatusTooManyRequests, tooMany)
			return
		}
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

// TestUploadChunksArePacedByTheUploadsWindow sends 12 chunks at 4 uploads per 1-second window,
// two in flight: the uploads limiter must hold them at each window's reset, so that no chunk
// arrives before a 429's Retry-After and at most one 429 is drawn (the first window's budget is
// learned from the first answer). The wall time against the floor is logged, not asserted.
func TestUploadChunksArePacedByTheUploadsWindow(t *testing.T) {
	d := newDiscardService(t)
	d.gate = &uploadWindow{limit: 4, window: time.Second}
	src := sourceFile(t, 12*MinUploadChunkSize)
	start := time.Now()
	if _, err := d.client(t).UploadVideoSource(t.Context(), vid, src, UploadOptions{ChunkSize: MinUploadChunkSize, ChunksInFlight: 2}); err != nil {
		t.Fatal(err)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	t.Logf("12 chunks at 4 per 1 s: %s (floor 2 s), 429s %d, early %d", time.Since(start).Round(time.Millisecond), d.gate.refused, d.gate.early)
	if d.received != src.Size {
		t.Fatalf("received %d bytes of %d", d.received, src.Size)
	}
	if d.gate.early != 0 || d.gate.refused > 1 {
		t.Fatalf("%d early requests (want 0), %d 429s (want at most 1)", d.gate.early, d.gate.refused)
	}
}
