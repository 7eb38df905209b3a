package videohost

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestChooseUploadShape(t *testing.T) {
	const gib = 1 << 30
	for _, c := range []struct {
		name            string
		size, chunkSize int64
		inFlight, limit int
		want            uploadShape
	}{
		// 1 GiB with the limit unknown (the sandbox's 40 assumed): one wave of 16 chunks.
		{"1 GiB, limit unknown", gib, 0, 0, 0, uploadShape{64 * mib, 16}},
		{"1 GiB, production", gib, 0, 0, 100, uploadShape{64 * mib, 16}},
		// A file that fills fewer chunks of autoMinChunk than connections: one wave of them.
		{"100 MiB", 100 * mib, 0, 0, 0, uploadShape{25 * mib, 4}},
		{"20 MiB, one regular request", 20 * mib, 0, 0, 0, uploadShape{20 * mib, 1}},
		{"1 byte", 1, 0, 0, 0, uploadShape{MinUploadChunkSize, 1}},
		// 4 GiB needs 21 chunks of at most 200 MiB: two whole waves of 11 (22 chunks of 187 MiB).
		{"4 GiB, production", 4 * gib, 0, 0, 100, uploadShape{187 * mib, 11}},
		// 10 GiB needs 52 chunks, more than the sandbox's window of 40 takes: the largest
		// chunks, in 4 whole waves of 13.
		{"10 GiB, sandbox", 10 * gib, 0, 0, 40, uploadShape{197 * mib, 13}},
		// Never more chunks together than a window takes.
		{"1 GiB, 2 uploads a window", gib, 0, 0, 2, uploadShape{171 * mib, 2}},
		// 6 chunks at most 5 together: 2 waves of 3.
		{"1 GiB, 5 uploads a window", gib, 0, 0, 5, uploadShape{171 * mib, 3}},
		// A chunk size set: the connections for whole waves of it.
		{"1 GiB in 50 MiB chunks", gib, 50 * mib, 0, 0, uploadShape{50 * mib, 11}},
		{"1 GiB in 200 MiB chunks", gib, 200 * mib, 0, 0, uploadShape{200 * mib, 6}},
		// Chunks in flight set: one wave of them when the file fills it.
		{"1 GiB, 8 in flight", gib, 0, 8, 0, uploadShape{128 * mib, 8}},
		// Both set: kept as they are.
		{"both set", gib, 50 * mib, 4, 40, uploadShape{50 * mib, 4}},
	} {
		if got := chooseUploadShape(c.size, c.chunkSize, c.inFlight, c.limit); got != c.want {
			t.Errorf("%s: chooseUploadShape(%d, %d, %d, %d) = %+v, want %+v", c.name, c.size, c.chunkSize, c.inFlight, c.limit, got, c.want)
		}
	}
}

// TestChooseUploadShapeBounds checks, over sizes from 1 MiB to the service's 30 GiB and every
// limit, what the choice must never break: a chunk within the service's bounds, no more chunks
// together than MaxUploadChunksInFlight or a window takes, and no last wave much lonelier than
// the others (its chunks at least half of a wave, or the only wave) while the chunks fit in a
// window: when they do not, the budget spreads them whatever the waves, and the fewest chunks
// are the choice.
func TestChooseUploadShapeBounds(t *testing.T) {
	for _, limit := range []int{0, 1, 2, 5, 40, 100, 1_000_000} {
		for size := int64(mib); size <= 30<<30; size = size*5/4 + 12345 {
			s := chooseUploadShape(size, 0, 0, limit)
			budget := limit
			if budget == 0 {
				budget = assumedUploadsLimit
			}
			most := min(MaxUploadChunksInFlight, budget)
			chunks := int(ceilDiv(size, s.chunkSize))
			last := chunks - (chunks-1)/s.inFlight*s.inFlight
			what := fmt.Sprintf("%d bytes under %d a window: %+v (%d chunks)", size, limit, s, chunks)
			switch {
			case s.chunkSize < MinUploadChunkSize || s.chunkSize > MaxUploadChunkSize:
				t.Fatalf("%s: a chunk outside the service's bounds", what)
			case s.inFlight < 1 || s.inFlight > most:
				t.Fatalf("%s: %d in flight, want 1 to %d", what, s.inFlight, most)
			case chunks > s.inFlight && chunks < budget && 2*last < s.inFlight:
				t.Fatalf("%s: a last wave of %d chunks", what, last)
			}
		}
	}
}

// shapeService answers source chunks after holding each until hold of them are in flight
// together, or the last bytes of the source have come (a last wave of fewer chunks), and
// records their sizes and the most in flight; its uploads window has limit places a minute, of
// which spent were taken before the test. Both are events, so that a slow machine (a chunk that
// takes seconds to come under -race beside other work) changes nothing; stuckAfter only keeps a
// client that holds chunks back from hanging the test, which then fails on what it counted:
// once met, no chunk is held any more.
type shapeService struct {
	hold, limit, spent int

	mu             sync.Mutex
	now, most      int
	sizes          []int64
	total, got     int64
	together       chan struct{}
	togetherClosed bool
	stuck          bool
}

func (s *shapeService) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.total == 0 {
			writeJSON(w, http.StatusOK, map[string]any{"encoding": map[string]any{"playable": false}})
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"ingest": map[string]any{"status": IngestUploaded, "filesize": s.total}})
		return
	}
	n, err := discardFilePart(r)
	s.mu.Lock()
	s.spent++
	rateHeadersOf(w, s.limit, max(0, s.limit-s.spent), 50)
	s.now++
	s.most = max(s.most, s.now)
	s.sizes = append(s.sizes, n)
	s.got += n
	if cr := r.Header.Get("Content-Range"); cr != "" {
		s.total, _ = strconv.ParseInt(cr[strings.LastIndex(cr, "/")+1:], 10, 64)
	} else {
		s.total = n
	}
	if (s.now >= s.hold || s.got >= s.total || s.stuck) && !s.togetherClosed {
		s.togetherClosed = true
		close(s.together)
	}
	together := s.together
	s.mu.Unlock()
	select {
	case <-together:
	case <-r.Context().Done():
	case <-time.After(stuckAfter):
		s.mu.Lock()
		s.stuck = true
		s.mu.Unlock()
	}
	s.mu.Lock()
	s.now--
	if s.now == 0 && s.togetherClosed {
		// The next wave is held together again.
		s.together, s.togetherClosed = make(chan struct{}), false
	}
	s.mu.Unlock()
	if err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"title": err.Error(), "status": 400})
		return
	}
	writeJSON(w, http.StatusCreated, videoJSON(vid, "shape"))
}

// stuckAfter is how long shapeService holds a chunk whose wave never fills: only a client that
// holds chunks back meets it, and its test fails.
const stuckAfter = 30 * time.Second

func newShapeService(t *testing.T, hold, limit, spent int) (*shapeService, *Client) {
	s := &shapeService{hold: hold, limit: limit, spent: spent, together: make(chan struct{})}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(srv.Close)
	c, err := New(Config{BaseURL: srv.URL, APIKey: testKey, AuthScheme: AuthBasic, HTTPClient: srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	return s, c
}

// TestUploadVideoSourceChoosesItsShape: with nothing set, a source of 100 MiB goes as 4 chunks of
// 25 MiB, all 4 in flight together (the service's smallest limit assumed while none is known).
func TestUploadVideoSourceChoosesItsShape(t *testing.T) {
	s, c := newShapeService(t, 4, 40, 0)
	src := sourceFile(t, 100*mib)
	if _, err := c.UploadVideoSource(t.Context(), vid, src, UploadOptions{}); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(s.sizes) != fmt.Sprint([]int64{25 * mib, 25 * mib, 25 * mib, 25 * mib}) || s.most != 4 || s.got != src.Size {
		t.Fatalf("chunks of %v bytes, at most %d in flight, %d bytes of %d; want 4 of 25 MiB together",
			s.sizes, s.most, s.got, src.Size)
	}
}

// TestUploadVideoSourceShapeKeepsToTheLearnedLimit: once the service has announced 2 uploads a
// window, a source that would go as 4 chunks together goes as 2 of 50 MiB, never more in flight
// than the window takes.
func TestUploadVideoSourceShapeKeepsToTheLearnedLimit(t *testing.T) {
	s, c := newShapeService(t, 2, 2, 0)
	// An earlier upload of this client (an image, say) taught the limit, in a window that has
	// since reset.
	l := c.limiters[ClassUploads]
	clk := &fakeClock{t: time.Now()}
	l.now = clk.now
	l.observe(mustAdmit(t, l), headers(2, 1, 1))
	clk.advance(2 * time.Second)
	src := sourceFile(t, 100*mib)
	if _, err := c.UploadVideoSource(t.Context(), vid, src, UploadOptions{}); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(s.sizes) != fmt.Sprint([]int64{50 * mib, 50 * mib}) || s.most != 2 {
		t.Fatalf("chunks of %v bytes, at most %d in flight; want 2 of 50 MiB together", s.sizes, s.most)
	}
}

// TestUploadVideoSourceAfterAnEarlierRun: the uploads window was half spent by the run before
// (21 of 40): the chunks still go 4 at a time, not one at a time, and no caller is held.
func TestUploadVideoSourceAfterAnEarlierRun(t *testing.T) {
	s, c := newShapeService(t, 4, 40, 21)
	src := sourceFile(t, 12*MinUploadChunkSize)
	if _, err := c.UploadVideoSource(t.Context(), vid, src, UploadOptions{ChunkSize: MinUploadChunkSize, ChunksInFlight: 4}); err != nil {
		t.Fatal(err)
	}
	w := c.RateLimitWaits()[2]
	if s.most != 4 || len(s.sizes) != 12 || w.Waits != 0 {
		t.Fatalf("at most %d chunks of %d in flight, uploads held %d times (%s); want 4 together, never held",
			s.most, len(s.sizes), w.Waits, w.Waited)
	}
}

// TestUploadVideoSourceEightInFlightUnderTheSandboxLimit: 21 chunks, 8 in flight, under 40
// uploads a minute: the window has room for every chunk, and the limiter holds none of them
// (before, the first window's pacing held the 21st chunk for 15 s).
func TestUploadVideoSourceEightInFlightUnderTheSandboxLimit(t *testing.T) {
	s, c := newShapeService(t, 8, 40, 0)
	src := sourceFile(t, 20*MinUploadChunkSize+mib)
	if _, err := c.UploadVideoSource(t.Context(), vid, src, UploadOptions{ChunkSize: MinUploadChunkSize, ChunksInFlight: 8}); err != nil {
		t.Fatal(err)
	}
	w := c.RateLimitWaits()[2]
	if len(s.sizes) != 21 || s.most != 8 || w.Waits != 0 {
		t.Fatalf("%d chunks, at most %d in flight, uploads held %d times (%s); want 21, 8 together, never held",
			len(s.sizes), s.most, w.Waits, w.Waited)
	}
}
