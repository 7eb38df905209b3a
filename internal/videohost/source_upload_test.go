package videohost

import (
	"context"
	"errors"
	"io"
	"math"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const vid = "vi4blUQJFrYWbaG44NChkH27"

func uploadEnv(t *testing.T) (*sourceStore, *fakeService) {
	s := newSourceStore(t)
	return s, newFakeService(t, s.serve)
}

var fiveMiB = UploadOptions{ChunkSize: MinUploadChunkSize, ChunksInFlight: 1}

func TestUploadVideoSourceInChunks(t *testing.T) {
	s, f := uploadEnv(t)
	s.rate = func(w http.ResponseWriter) { rateHeadersOf(w, 100, 90, 60) }
	log := &captureLogger{}
	c := f.client(t, func(cfg *Config) { cfg.Logger = log })
	data, src := randomFile(t, 12*mib+5)
	var reports []UploadProgress
	opt := fiveMiB
	opt.Progress = func(p UploadProgress) { reports = append(reports, p) }
	v, err := c.UploadVideoSource(t.Context(), vid, src, opt)
	if err != nil || v.ID != vid {
		t.Fatalf("UploadVideoSource = %+v, %v", v, err)
	}
	want := []string{"bytes 0-5242879/12582917", "bytes 5242880-10485759/12582917", "bytes 10485760-12582916/12582917"}
	if got := s.sent(); !reflect.DeepEqual(got, want) {
		t.Fatalf("Content-Range sent: %q\nwant %q", got, want)
	}
	if !s.holds(data) {
		t.Fatal("the service does not hold the file's bytes")
	}
	if n := c.limiters[ClassUploads].learnedLimit(); n != 100 {
		t.Fatalf("the uploads limiter learned %d, want the 100 of the source's headers", n)
	}
	if n := c.limiters[ClassWrites].learnedLimit(); n != 0 {
		t.Fatalf("the writes limiter learned %d from uploads", n)
	}
	last := reports[len(reports)-1]
	if last.Sent != src.Size || last.Total != src.Size || last.Left != 0 {
		t.Fatalf("last progress %+v", last)
	}
	var ends int
	for _, l := range log.all() {
		if l.msg == logProgress && l.fields["end"] == true {
			ends++
			if l.fields["sent_bytes"] != strconv.FormatInt(src.Size, 10) || l.fields["percent"] != "100" {
				t.Fatalf("the last progress line says %v", l.fields)
			}
		}
		if l.msg == logRequest && l.fields["path"] == "/videos/"+vid+"/source" && l.fields["class"] != ClassUploads {
			t.Fatalf("a chunk was logged in class %v", l.fields["class"])
		}
	}
	if ends != 1 {
		t.Fatalf("%d final progress lines, want 1:\n%s", ends, log.text())
	}
}

func TestUploadVideoSourceSmallFileIsOneRegularRequest(t *testing.T) {
	s, f := uploadEnv(t)
	data, src := randomFile(t, 1000)
	if _, err := f.client(t).UploadVideoSource(t.Context(), vid, src, UploadOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := s.sent(); !reflect.DeepEqual(got, []string{""}) || !s.holds(data) {
		t.Fatalf("sent %q, complete with the bytes: %v", got, s.holds(data))
	}
}

func TestUploadVideoSourceResumesOnlyTheMissingChunks(t *testing.T) {
	s, f := uploadEnv(t)
	data, src := randomFile(t, 20*mib+1)
	// An earlier run left chunk 0, half of chunk 1 and chunk 3.
	s.preset(data, 0, 5*mib-1)
	s.preset(data, 5*mib, 7*mib)
	s.preset(data, 15*mib, 20*mib-1)
	var first UploadProgress
	opt := UploadOptions{ChunkSize: 5 * mib, ChunksInFlight: 2, Progress: func(p UploadProgress) {
		if first.Total == 0 {
			first = p
		}
	}}
	if _, err := f.client(t).UploadVideoSource(t.Context(), vid, src, opt); err != nil {
		t.Fatal(err)
	}
	got := s.sent()
	want := map[string]bool{"bytes 5242880-10485759/20971521": true, "bytes 10485760-15728639/20971521": true,
		"bytes 20971520-20971520/20971521": true}
	if len(got) != len(want) {
		t.Fatalf("sent %q, want only the chunks holding missing bytes %v", got, want)
	}
	for _, cr := range got {
		if !want[cr] {
			t.Fatalf("sent %q, which the service held", cr)
		}
	}
	if !s.holds(data) {
		t.Fatal("the service does not hold the file's bytes")
	}
	if first.Sent <= 10*mib {
		t.Fatalf("the first report counts %d bytes: the bytes held before the run were not counted", first.Sent)
	}
}

func TestUploadVideoSourceRetriesServerErrorsAndCutConnections(t *testing.T) {
	s, f := uploadEnv(t)
	s.fault = func(n int, w http.ResponseWriter, r *http.Request, commit func()) bool {
		switch n {
		case 1: // refused before it was kept
			writeJSON(w, http.StatusServiceUnavailable, map[string]any{"title": "Busy.", "status": 503})
			return true
		case 3: // kept, then the answer lost
			commit()
			writeJSON(w, http.StatusInternalServerError, map[string]any{"title": "Oops.", "status": 500})
			return true
		case 5: // the connection cut
			if hj, ok := w.(http.Hijacker); ok {
				conn, _, _ := hj.Hijack()
				_ = conn.Close()
			}
			return true
		}
		return false
	}
	data, src := randomFile(t, 11*mib)
	if _, err := f.client(t).UploadVideoSource(t.Context(), vid, src, fiveMiB); err != nil {
		t.Fatal(err)
	}
	if got := s.sent(); len(got) != 6 || !s.holds(data) {
		t.Fatalf("sent %q, complete with the bytes: %v", got, s.holds(data))
	}
}

func TestUploadVideoSourceLastChunkAnswerLostMeansDone(t *testing.T) {
	s, f := uploadEnv(t)
	s.fault = func(n int, w http.ResponseWriter, r *http.Request, commit func()) bool {
		if r.Header.Get("Content-Range") == "bytes 5242880-6291455/6291456" && n == 2 {
			commit()
			writeJSON(w, http.StatusBadGateway, map[string]any{"title": "Bad gateway.", "status": 502})
			return true
		}
		return false
	}
	data, src := randomFile(t, 6*mib)
	v, err := f.client(t).UploadVideoSource(t.Context(), vid, src, fiveMiB)
	if err != nil || v.ID != vid {
		t.Fatalf("UploadVideoSource = %+v, %v", v, err)
	}
	if got := s.sent(); len(got) != 3 || !s.holds(data) {
		t.Fatalf("sent %q (want the last chunk twice), complete: %v", got, s.holds(data))
	}
}

func TestUploadVideoSourceWaitsForRetryAfter(t *testing.T) {
	s, f := uploadEnv(t)
	var limitedAt atomic.Int64
	s.fault = func(n int, w http.ResponseWriter, r *http.Request, commit func()) bool {
		if n == 2 {
			limitedAt.Store(time.Now().UnixNano())
			rateHeadersOf(w, 5, 0, 1)
			writeJSON(w, http.StatusTooManyRequests, tooMany)
			return true
		}
		return false
	}
	data, src := randomFile(t, 11*mib)
	// One chunk at a time: the fake records a request once its body is read, so a chunk sent
	// together with the limited one could be recorded after the 429 without being early.
	if _, err := f.client(t).UploadVideoSource(t.Context(), vid, src, fiveMiB); err != nil {
		t.Fatal(err)
	}
	if !s.holds(data) {
		t.Fatal("incomplete")
	}
	limited := time.Unix(0, limitedAt.Load())
	for _, q := range f.requests() {
		if q.path == "/videos/"+vid+"/source" && q.at.After(limited) && q.at.Before(limited.Add(time.Second)) {
			t.Fatalf("a chunk arrived %s after the 429 that said to wait 1 s", q.at.Sub(limited))
		}
	}
}

func TestUploadVideoSourceKeepsToChunksInFlight(t *testing.T) {
	s, f := uploadEnv(t)
	const limit = 3
	var (
		mu            sync.Mutex
		now, most     int
		reached       = make(chan struct{})
		reachedClosed bool
	)
	// The first chunk goes alone (it learns the limit), the others together.
	var spent atomic.Int32
	s.rate = func(w http.ResponseWriter) { rateHeadersOf(w, 1000, 1000-int(spent.Add(1)), 60) }
	s.fault = func(n int, w http.ResponseWriter, r *http.Request, commit func()) bool {
		if n == 1 {
			return false
		}
		mu.Lock()
		now++
		most = max(most, now)
		if now == limit && !reachedClosed {
			reachedClosed = true
			close(reached)
		}
		mu.Unlock()
		select { // hold the first chunks until the limit is reached, so that it is seen
		case <-reached:
		case <-time.After(2 * time.Second):
		}
		mu.Lock()
		now--
		mu.Unlock()
		return false
	}
	data, src := randomFile(t, 30*mib+1)
	if _, err := f.client(t).UploadVideoSource(t.Context(), vid, src, UploadOptions{ChunkSize: 5 * mib, ChunksInFlight: limit}); err != nil {
		t.Fatal(err)
	}
	if most != limit || !s.holds(data) {
		t.Fatalf("at most %d chunks in flight, want %d; complete: %v", most, limit, s.holds(data))
	}
}

func TestUploadVideoSourceInterruptedFinishesChunksInFlight(t *testing.T) {
	s, f := uploadEnv(t)
	ctx, cancel := context.WithCancel(t.Context())
	s.fault = func(n int, w http.ResponseWriter, r *http.Request, commit func()) bool {
		if n == 2 {
			cancel() // Ctrl-C while the second chunk is in flight
		}
		return false
	}
	_, src := randomFile(t, 20*mib)
	_, err := f.client(t).UploadVideoSource(ctx, vid, src, fiveMiB)
	var ie *UploadIncompleteError
	if !errors.As(err, &ie) || !errors.Is(err, ErrInterrupted) || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want an interrupted *UploadIncompleteError", err)
	}
	if ie.Sent != 10*mib || ie.Total != 20*mib || ie.VideoID != vid {
		t.Fatalf("the error says %d of %d sent, want the two chunks finished: %v", ie.Sent, ie.Total, err)
	}
	if got := s.sent(); len(got) != 2 {
		t.Fatalf("sent %q: a chunk started after the interrupt", got)
	}
	// The next run sends only the rest.
	if _, err := f.client(t).UploadVideoSource(t.Context(), vid, src, fiveMiB); err != nil {
		t.Fatal(err)
	}
	if got := s.sent(); len(got) != 4 || got[2] != "bytes 10485760-15728639/20971520" {
		t.Fatalf("the resumed run sent %q", got[2:])
	}
}

func TestUploadVideoSourceFailureOutlastingRetries(t *testing.T) {
	s, f := uploadEnv(t)
	s.fault = func(n int, w http.ResponseWriter, r *http.Request, commit func()) bool {
		if n == 1 {
			return false
		}
		writeJSON(w, http.StatusServiceUnavailable, map[string]any{"title": "Busy.", "status": 503})
		return true
	}
	_, src := randomFile(t, 12*mib)
	c := f.client(t, func(cfg *Config) { cfg.MaxRetries = 2 })
	_, err := c.UploadVideoSource(t.Context(), vid, src, fiveMiB)
	var ie *UploadIncompleteError
	if !errors.As(err, &ie) || errors.Is(err, ErrInterrupted) || !errors.Is(err, ErrServer) {
		t.Fatalf("err = %v, want an *UploadIncompleteError of a server error", err)
	}
	if ie.Sent != 5*mib {
		t.Fatalf("Sent = %d, want the first chunk", ie.Sent)
	}
	if got := s.sent(); len(got) != 4 {
		t.Fatalf("sent %d requests, want the first chunk and the second one 3 times (2 retries), no third", len(got))
	}
	wantError(t, err, "7340032 missing", "resumes")
}

// shrinking is a file that ends early: it was cut after its size was taken. ends counts the
// reads that met its end.
type shrinking struct {
	data []byte
	ends *atomic.Int32
}

func (s shrinking) ReadAt(p []byte, off int64) (int, error) {
	n := 0
	if off < int64(len(s.data)) {
		n = copy(p, s.data[off:])
	}
	if n < len(p) {
		s.ends.Add(1)
		return n, io.EOF
	}
	return n, nil
}

func TestUploadVideoSourceDetectsASizeChange(t *testing.T) {
	_, f := uploadEnv(t)
	c := f.client(t)
	data, src := randomFile(t, 11*mib)
	grown := src
	grown.Size--
	if _, err := c.UploadVideoSource(t.Context(), vid, grown, fiveMiB); !errors.Is(err, ErrSourceChanged) {
		t.Fatalf("a file longer than its size: %v", err)
	}
	shrunk := src
	var ends atomic.Int32
	shrunk.Reader = shrinking{data[:7*mib], &ends}
	_, err := c.UploadVideoSource(t.Context(), vid, shrunk, fiveMiB)
	if !errors.Is(err, ErrSourceChanged) {
		t.Fatalf("a file that shrank: %v", err)
	}
	// One read past the end checks the size before the upload, one cuts the second chunk.
	if n := ends.Load(); n != 2 {
		t.Fatalf("the end of the file was met %d times, want 2: the chunk cut short was sent again", n)
	}

	other, f2 := uploadEnv(t)
	other.preset(make([]byte, 3*mib), 0, mib)
	if _, err := f2.client(t).UploadVideoSource(t.Context(), vid, src, fiveMiB); !errors.Is(err, ErrSourceChanged) {
		t.Fatalf("a video holding part of another file: %v", err)
	}
	if n := len(other.sent()); n != 0 {
		t.Fatalf("%d chunks sent to a video holding another file", n)
	}
}

// TestUploadProgressCadence holds every chunk 150 ms with progress every 40 ms: lines come while
// a chunk is on the wire, never more than one per period (plus the end), and the acknowledged
// bytes never go back.
func TestUploadProgressCadence(t *testing.T) {
	s, f := uploadEnv(t)
	s.fault = func(n int, w http.ResponseWriter, r *http.Request, commit func()) bool {
		time.Sleep(150 * time.Millisecond)
		return false
	}
	c, log, opt, reported := progressClient(t, f, 40*time.Millisecond)
	_, src := randomFile(t, 11*mib)
	start := time.Now()
	if _, err := c.UploadVideoSource(t.Context(), vid, src, opt); err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	reports := reported()
	var lines int
	for _, l := range log.all() {
		if l.msg == logProgress {
			lines++
		}
	}
	if most := int(elapsed/c.progressEvery) + 1; len(reports) < 3 || len(reports) > most || lines != len(reports) {
		t.Fatalf("%d reports and %d lines in %s, want from 3 to %d, one line each", len(reports), lines, elapsed, most)
	}
	for i := 1; i < len(reports); i++ {
		if reports[i].Sent < reports[i-1].Sent {
			t.Fatalf("progress went back: %+v then %+v", reports[i-1], reports[i])
		}
	}
	if last := reports[len(reports)-1]; last.Sent != src.Size {
		t.Fatalf("the last report %+v", last)
	}
}

func TestUploadVideoSourceRefusesBadInputBeforeAnyRequest(t *testing.T) {
	_, f := uploadEnv(t)
	c := f.client(t)
	_, src := randomFile(t, 100)
	tests := []struct {
		name  string
		id    string
		src   UploadSource
		opt   UploadOptions
		field string
	}{
		{"small chunks", vid, src, UploadOptions{ChunkSize: 1 << 20}, "UploadOptions.ChunkSize"},
		{"too many in flight", vid, src, UploadOptions{ChunksInFlight: 99}, "UploadOptions.ChunksInFlight"},
		{"empty file", vid, UploadSource{Name: "e.mp4", Reader: src.Reader}, UploadOptions{}, ""},
		{"no reader", vid, UploadSource{Name: "e.mp4", Size: 10}, UploadOptions{}, ""},
		{"over 30 GiB", vid, UploadSource{Name: "e.mp4", Reader: src.Reader, Size: MaxSourceSize + 1}, UploadOptions{}, ""},
		{"no video", "", src, UploadOptions{}, ""},
	}
	for _, tt := range tests {
		_, err := c.UploadVideoSource(t.Context(), tt.id, tt.src, tt.opt)
		var ce *ConfigError
		switch {
		case err == nil:
			t.Errorf("%s: no error", tt.name)
		case tt.field != "" && (!errors.As(err, &ce) || ce.Field != tt.field):
			t.Errorf("%s: %v, want a *ConfigError on %s", tt.name, err, tt.field)
		}
	}
	if n := len(f.requests()); n != 0 {
		t.Fatalf("%d requests sent for bad input", n)
	}
}

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

// unreadableStatus serves s, except that its status cannot be read (503, past the retries)
// once down is set.
func unreadableStatus(t *testing.T, s *sourceStore, down *atomic.Bool) *fakeService {
	return newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		if down.Load() && r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/status") {
			writeJSON(w, http.StatusServiceUnavailable, map[string]any{"title": "Busy.", "status": 503})
			return
		}
		s.serve(w, r)
	})
}

// TestUploadVideoSourceUnconfirmed: every chunk was acknowledged, then the status that would
// confirm the upload could not be read (the service went away after the last chunk). What the
// service holds is not known: the error says so, and never that 0 bytes, or all of them, are
// missing.
func TestUploadVideoSourceUnconfirmed(t *testing.T) {
	s := newSourceStore(t)
	var down atomic.Bool
	f := unreadableStatus(t, s, &down)
	s.fault = func(n int, w http.ResponseWriter, _ *http.Request, commit func()) bool {
		if n == 3 {
			commit()
			down.Store(true)
			writeJSON(w, http.StatusCreated, videoJSON(vid, "uploaded"))
			return true
		}
		return false
	}
	data, src := randomFile(t, 12*mib)
	c := f.client(t, func(cfg *Config) { cfg.MaxRetries = 1 })
	_, err := c.UploadVideoSource(t.Context(), vid, src, fiveMiB)
	var ie *UploadIncompleteError
	if !errors.As(err, &ie) || !ie.StatusUnread || !errors.Is(err, ErrServer) {
		t.Fatalf("err = %v, want an *UploadIncompleteError whose status could not be read", err)
	}
	if !s.holds(data) {
		t.Fatal("the service does not hold the whole file")
	}
	if strings.Contains(err.Error(), "missing)") {
		t.Errorf("the error claims a count of missing bytes it never read: %v", err)
	}
	wantError(t, err, "not known", "confirming the upload")
}

// TestUploadVideoSourceStatusUnreadableBefore: the status read that starts a resumption fails;
// nothing is sent, and the error says that what the service holds is not known rather than
// that it holds nothing.
func TestUploadVideoSourceStatusUnreadableBefore(t *testing.T) {
	s := newSourceStore(t)
	var down atomic.Bool
	down.Store(true)
	f := unreadableStatus(t, s, &down)
	data, src := randomFile(t, 12*mib)
	s.preset(data, 0, 5*mib-1)
	c := f.client(t, func(cfg *Config) { cfg.MaxRetries = 1 })
	_, err := c.UploadVideoSource(t.Context(), vid, src, fiveMiB)
	var ie *UploadIncompleteError
	if !errors.As(err, &ie) || !ie.StatusUnread {
		t.Fatalf("err = %v, want an *UploadIncompleteError whose status could not be read", err)
	}
	if got := s.sent(); len(got) != 0 {
		t.Fatalf("sent %q without knowing what the service holds", got)
	}
	wantError(t, err, "not known", "before the upload")
}

// TestUploadVideoSourceCompleteVideoUnread: the last chunk was stored but its answer lost (a
// 500), its retry is refused as already uploaded, the status confirms the source complete, and
// then the video cannot be read. The upload has succeeded: no error, and the video holds its ID.
func TestUploadVideoSourceCompleteVideoUnread(t *testing.T) {
	s := newSourceStore(t)
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/videos/"+vid {
			writeJSON(w, http.StatusServiceUnavailable, map[string]any{"title": "Busy.", "status": 503})
			return
		}
		s.serve(w, r)
	})
	s.fault = func(n int, w http.ResponseWriter, _ *http.Request, commit func()) bool {
		if n == 3 {
			commit()
			writeJSON(w, http.StatusInternalServerError, map[string]any{"title": "Lost.", "status": 500})
			return true
		}
		return false
	}
	data, src := randomFile(t, 12*mib)
	v, err := f.client(t, func(cfg *Config) { cfg.MaxRetries = 1 }).UploadVideoSource(t.Context(), vid, src, fiveMiB)
	if err != nil || v.ID != vid {
		t.Fatalf("UploadVideoSource = %+v, %v; want the video's id and no error: the source is complete", v, err)
	}
	if !s.holds(data) {
		t.Fatal("the service does not hold the whole file")
	}
}
