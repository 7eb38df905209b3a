package videohost

import (
	"errors"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// TestRateLimitExhaustedNamesTheLearnedWindow: a 429 after the last retry says the limit per
// the window the headers gave (2 s here), not per minute.
func TestRateLimitExhaustedNamesTheLearnedWindow(t *testing.T) {
	f := newFakeService(t, func(w http.ResponseWriter, _ *http.Request) {
		rateHeadersOf(w, 8, 0, 2)
		writeJSON(w, http.StatusTooManyRequests, tooMany)
	})
	c := f.client(t, func(cfg *Config) { cfg.MaxRetries = 1 })
	_, err := c.CreateWebhook(t.Context(), CreateWebhookInput{URL: "https://e.org", Events: []string{"x"}})
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, ErrRateLimited) {
		t.Fatalf("err = %v, want a rate-limited *Error", err)
	}
	if e.Limit != 8 || e.Window != 2*time.Second {
		t.Errorf("Limit %d per %s, want 8 per 2s", e.Limit, e.Window)
	}
	if want := "(writes limit: 8 per 2 s; retried once)"; !strings.Contains(e.Error(), want) {
		t.Errorf("message %q does not say %q", e.Error(), want)
	}
}

func TestRatePer(t *testing.T) {
	for want, in := range map[string]struct {
		limit  int
		window time.Duration
	}{
		"8 per 2 s":         {8, 2 * time.Second},
		"40 per minute":     {40, time.Minute},
		"500 per 5 minutes": {500, 5 * time.Minute},
		"8 per window":      {8, 0},
		"3 per 90 s":        {3, 90 * time.Second},
	} {
		if got := RatePer(in.limit, in.window); got != want {
			t.Errorf("RatePer(%d, %s) = %q, want %q", in.limit, in.window, got, want)
		}
	}
	if got := Seconds(9800 * time.Millisecond); got != "9.8 s" {
		t.Errorf("Seconds(9.8s) = %q", got)
	}
	if got := Seconds(75 * time.Second); got != "75 s" {
		t.Errorf("Seconds(75s) = %q", got)
	}
}

// TestRateLimitWaitsCountsHeldTime: six writes at 2 per 1 s window must be held about two
// windows; RateLimitWaits says so for the writes class, counts waits that overlap once, and
// tells the limit and window it learned; the reads class waited nothing. It runs on the fake
// clock of a synctest bubble, where the service's windows and the client's waits share one
// clock that a loaded machine does not stretch.
func TestRateLimitWaitsCountsHeldTime(t *testing.T) {
	synctest.Test(t, testRateLimitWaitsCountsHeldTime)
}

func testRateLimitWaitsCountsHeldTime(t *testing.T) {
	var mu sync.Mutex
	var windowStart time.Time
	var inWindow int
	var served atomic.Int32
	f := newBubbleFakeService(t, func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		now := time.Now()
		if windowStart.IsZero() || now.Sub(windowStart) >= time.Second {
			windowStart, inWindow = now, 0
		}
		inWindow++
		left := 2 - inWindow
		mu.Unlock()
		rateHeadersOf(w, 2, max(left, 0), 1)
		if left < 0 {
			writeJSON(w, http.StatusTooManyRequests, tooMany)
			return
		}
		served.Add(1)
		writeJSON(w, http.StatusCreated, webhookJSON("wh-"+time.Now().Format("150405.000000000"), true))
	})
	c := f.client(t, func(cfg *Config) { cfg.MaxRetries = 10 })
	// Every class is there, uploads too: a video upload held by its class must be counted.
	got := c.RateLimitWaits()
	if len(got) != 3 || got[2].Class != ClassUploads {
		t.Fatalf("the classes of RateLimitWaits: %+v, want reads, writes and uploads", got)
	}
	for _, w := range got {
		if w.Waited != 0 {
			t.Fatalf("a new client has waited: %+v", got)
		}
	}
	start := time.Now()
	var wg sync.WaitGroup
	for range 6 {
		wg.Go(func() {
			if _, err := c.CreateWebhook(t.Context(), CreateWebhookInput{URL: "https://e.org", Events: []string{"x"}}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	stats := c.RateLimitWaits()
	reads, writes := stats[0], stats[1]
	if reads.Class != ClassReads || reads.Waited != 0 || reads.Waits != 0 {
		t.Errorf("reads = %+v, want no wait", reads)
	}
	if writes.Class != ClassWrites || writes.Limit != 2 || writes.Window != time.Second {
		t.Errorf("writes = %+v, want the class with its limit 2 per 1s", writes)
	}
	// Six writes at two a window: the last two wait about two windows. Overlapping waits count
	// once, so the total is at most the elapsed time, never the sum of six callers' waits.
	if writes.Waited < 1500*time.Millisecond || writes.Waited > elapsed {
		t.Errorf("writes waited %s in all over %s, want between 1.5 s and the elapsed time", writes.Waited, elapsed)
	}
	// The sum of every caller's wait is at least the wall time: calls held together add up.
	if writes.WaitedSum < writes.Waited || writes.WaitedSum > time.Duration(writes.Waits)*elapsed {
		t.Errorf("writes' calls waited %s in total for %s of wall time, want at least the wall time and at most %d calls over %s",
			writes.WaitedSum, writes.Waited, writes.Waits, elapsed)
	}
	if writes.Waits < 4 || writes.Waits > 6 {
		t.Errorf("writes held %d calls, want the 4 or so beyond the first window's 2", writes.Waits)
	}
	if served.Load() != 6 {
		t.Errorf("%d creates served, want 6", served.Load())
	}
}

// TestWaitMeterSumsAndWallTime: ten callers held together for 8 s are 8 s of wall time and
// 80 s of waits in total; a caller held alone for 2 s later adds 2 s to both, and a wait in
// progress counts up to now.
func TestWaitMeterSumsAndWallTime(t *testing.T) {
	var m waitMeter
	t0 := time.Unix(1000, 0)
	for range 10 {
		m.begin(t0)
	}
	for range 10 {
		m.end(t0.Add(8 * time.Second))
	}
	m.begin(t0.Add(20 * time.Second))
	m.end(t0.Add(22 * time.Second))
	m.begin(t0.Add(30 * time.Second))
	now := t0.Add(31 * time.Second)
	waited, waits, waiting := m.total(now)
	if sum := m.summedAt(now); waited != 11*time.Second || sum != 83*time.Second || waits != 12 || waiting != 1 {
		t.Errorf("wall %s, sum %s, %d waits, %d waiting; want 11 s, 83 s, 12, 1", waited, sum, waits, waiting)
	}
}

// TestRateLimitWaitsCountsA429: a 429 answered with Retry-After 1 holds the retry about a
// second, and RateLimitWaits counts it like any wait of the class.
func TestRateLimitWaitsCountsA429(t *testing.T) {
	var n atomic.Int32
	f := newFakeService(t, func(w http.ResponseWriter, _ *http.Request) {
		if n.Add(1) == 1 {
			rateHeadersOf(w, 100, 0, 1)
			writeJSON(w, http.StatusTooManyRequests, tooMany)
			return
		}
		rateHeadersOf(w, 100, 99, 1)
		writeJSON(w, http.StatusOK, map[string]any{"data": []any{}, "pagination": map[string]any{"pagesTotal": 1, "currentPage": 1}})
	})
	c := f.client(t, basic)
	if _, err := c.ListWebhooks(t.Context(), ""); err != nil {
		t.Fatal(err)
	}
	reads := c.RateLimitWaits()[0]
	if reads.Class != ClassReads || reads.Waits != 1 || reads.Waited < 900*time.Millisecond || reads.Waiting != 0 {
		t.Errorf("reads = %+v, want one wait of about a second, none held now", reads)
	}
}
