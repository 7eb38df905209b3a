package videohost

import (
	"math"
	"net/http"
	"sync"
	"testing"
	"time"
)

// fakeClock is a settable clock for the limiter's decisions.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

func newTestLimiter() (*limiter, *fakeClock) {
	clk := &fakeClock{t: time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)}
	l := newLimiter(ClassWrites)
	l.now = clk.now
	return l, clk
}

func headers(limit, remaining, retryAfter int) rateHeaders {
	return rateHeaders{limit: limit, remaining: remaining, retryAfter: retryAfter,
		hasLimit: true, hasRemaining: true, hasRetryAfter: true}
}

// unpaced ends the pacing of the first window, for the tests of the budget alone
// (TestLimiterPacesTheFirstWindow tests the pacing).
func unpaced(l *limiter) { l.first = false }

// mustAdmit takes a ticket that must be given at once.
func mustAdmit(t *testing.T, l *limiter) ticket {
	t.Helper()
	a := l.admit()
	if !a.ok {
		t.Fatalf("admit: held (wait %s, %q), want admitted", a.d, a.reason)
	}
	return a.t
}

func TestLimiterKeepsTheWindowBudget(t *testing.T) {
	l, clk := newTestLimiter()

	probe := mustAdmit(t, l)
	if a := l.admit(); a.ok || a.changed == nil {
		t.Fatalf("a second caller before the limit is known: %+v, want held until an answer", a)
	}
	// Limit 3, the probe spent one, the window resets in 2 s.
	l.observe(probe, headers(3, 2, 2))
	unpaced(l)

	first, second := mustAdmit(t, l), mustAdmit(t, l)
	a := l.admit()
	if a.ok || a.d != 2*time.Second {
		t.Fatalf("after the budget of the window is sent: %+v, want a wait of 2s for the reset", a)
	}
	// An answer with a longer Retry-After (it came later in the window) must not push the
	// reset back: the earliest estimate is the closest.
	clk.advance(500 * time.Millisecond)
	l.observe(first, headers(3, 1, 2))
	if a := l.admit(); a.ok || a.d != 1500*time.Millisecond {
		t.Fatalf("wait = %s, want 1.5s (the first estimate kept)", a.d)
	}

	clk.advance(1500 * time.Millisecond)
	// The window reset with one request of the old window still out: it may land in the new
	// window, so the new budget is 3 - 1.
	third, fourth := mustAdmit(t, l), mustAdmit(t, l)
	if third.gen == first.gen {
		t.Fatal("a request after the reset was counted in the old window")
	}
	if a := l.admit(); a.ok {
		t.Fatal("admitted a third request into a window of 3 that had one request of the old window in flight")
	}
	// The late answer of the old window says it is spent: that is old news and must not close
	// the new window or move its reset.
	l.observe(second, headers(3, 0, 1))
	l.observe(third, headers(3, 2, 2))
	if until := l.until; !until.IsZero() {
		t.Fatalf("an answer of a reset window closed the gate until %s", until)
	}
	if want := clk.now().Add(2 * time.Second); !l.reset.Equal(want) {
		t.Fatalf("reset = %s, want %s (from the new window's answer)", l.reset, want)
	}
	l.observe(fourth, headers(3, 1, 2))
}

func TestLimiterFollowsALowerRemaining(t *testing.T) {
	l, _ := newTestLimiter()
	l.observe(mustAdmit(t, l), headers(10, 9, 60))
	tk := mustAdmit(t, l)
	// Another user of the key spent the window: the service's figure is lower than ours.
	l.observe(tk, headers(10, 0, 30))
	if a := l.admit(); a.ok || a.d != 30*time.Second {
		t.Fatalf("after Remaining: 0: %+v, want a wait of 30s", a)
	}
}

func TestLimiterWithoutRateHeaders(t *testing.T) {
	l, _ := newTestLimiter()
	l.observe(mustAdmit(t, l), rateHeaders{})
	for range 50 {
		mustAdmit(t, l) // nothing to keep a budget of: only 429s gate
	}
	// A limit announced later is learned.
	l.observe(mustAdmit(t, l), headers(2, 1, 1))
	unpaced(l)
	mustAdmit(t, l)
	if a := l.admit(); a.ok {
		t.Fatal("a budget learned after headerless answers was not kept")
	}
}

func TestLimiterLostAnswers(t *testing.T) {
	l, _ := newTestLimiter()
	probe := mustAdmit(t, l)
	l.forget(probe) // the probe got no answer: the next caller probes
	probe = mustAdmit(t, l)
	if !probe.probe {
		t.Fatal("after a lost probe the next request was not a probe")
	}
	l.observe(probe, headers(2, 2, 0)) // no reset announced
	l.block(0, 0)                      // a 429 with no Retry-After
	l.until = time.Time{}
	l.reset = time.Time{}
	// The window is spent, its reset unknown and no answer is in flight: waiting for an
	// answer would wait forever, so a new window is tried.
	if a := l.admit(); !a.ok {
		t.Fatalf("a spent window with nothing in flight and no known reset: %+v, want a new window", a)
	}
}

// fixedWindowService is a service with the emulator's kind of limit: a window of `window`
// opens at the first request after the previous one closed and accepts `limit` requests;
// Retry-After is the whole seconds left, rounded up.
type fixedWindowService struct {
	limit  int
	window time.Duration

	mu       sync.Mutex
	start    time.Time
	used     int
	windows  int
	refused  int
	accepted []int // requests accepted per window
}

func (s *fixedWindowService) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	now := time.Now()
	if s.windows == 0 || !now.Before(s.start.Add(s.window)) {
		s.start, s.used = now, 0
		s.windows++
		s.accepted = append(s.accepted, 0)
	}
	ok := s.used < s.limit
	if ok {
		s.used++
		s.accepted[len(s.accepted)-1]++
	} else {
		s.refused++
	}
	left := s.start.Add(s.window).Sub(now)
	rateHeadersOf(w, s.limit, s.limit-s.used, max(1, int(math.Ceil(left.Seconds()))))
	s.mu.Unlock()
	if !ok {
		writeJSON(w, http.StatusTooManyRequests, tooMany)
		return
	}
	if r.Method == http.MethodPost {
		writeJSON(w, http.StatusCreated, webhookJSON("wh-new", false))
		return
	}
	okWebhooks(w, r)
}

// TestRateLimitFillsShortWindowsWithout429 sends 15 writes from 5 goroutines to a service
// that takes 5 per 1-second window. The gate must meet no 429 and fill every window it
// opens: 3 windows of 5, where a pace spread over a minute would open one window per request.
func TestRateLimitFillsShortWindowsWithout429(t *testing.T) {
	s := &fixedWindowService{limit: 5, window: time.Second}
	f := newFakeService(t, s.serve)
	c := f.client(t, basic)
	var wg sync.WaitGroup
	errs := make(chan error, 15)
	for g := range 5 {
		wg.Go(func() {
			for range 3 {
				_, err := c.CreateWebhook(t.Context(), CreateWebhookInput{URL: "https://e.org/" + string(rune('a'+g)), Events: []string{"x"}})
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.refused != 0 {
		t.Errorf("the service answered %d requests 429, want 0", s.refused)
	}
	if s.windows != 3 {
		t.Errorf("the 15 writes opened %d windows %v, want 3 full windows of 5", s.windows, s.accepted)
	}
	for i, n := range s.accepted {
		if n > s.limit {
			t.Errorf("window %d accepted %d, over the limit of %d", i, n, s.limit)
		}
	}
}
