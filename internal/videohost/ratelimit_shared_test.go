package videohost

import (
	"encoding/json"
	"math"
	"net/http"
	"sync"
	"testing"
	"time"
)

// Rules of a limiter whose key other processes spend too (see the limiter's comment), on a
// settable clock: limit 10 in windows of 2 s, so that 2 places are left to others.

func TestLimiterPacesTheFirstWindow(t *testing.T) {
	l, clk := newTestLimiter()
	l.observe(mustAdmit(t, l), headers(10, 9, 2))
	// Half at once (the probe was one), then the rest spread over the first half of the window.
	var out []ticket
	for range 4 {
		out = append(out, mustAdmit(t, l))
	}
	if a := l.admit(); a.ok || a.d <= 0 || a.d > time.Second {
		t.Fatalf("the 6th request of a first window at once: %+v, want a paced wait", a)
	}
	clk.advance(time.Second)
	for range 3 {
		out = append(out, mustAdmit(t, l))
	}
	// Two places stay free for the first requests of processes that start a moment later,
	// until three quarters of the first window.
	if a := l.admit(); a.ok || a.d != 500*time.Millisecond {
		t.Fatalf("the 9th request before the release: %+v, want a wait of 500ms", a)
	}
	// Then the leader takes them back, one at a time, each on a fresh Remaining.
	for i, tk := range out {
		l.observe(tk, headers(10, 10-2-i, 2))
	}
	clk.advance(500 * time.Millisecond)
	mustAdmit(t, l)
	if a := l.admit(); a.ok {
		t.Fatal("a second released place was taken before the first one's answer")
	}
}

func TestLimiterSharesOnceOthersAreSeen(t *testing.T) {
	l, _ := newTestLimiter()
	l.observe(mustAdmit(t, l), headers(10, 9, 2))
	unpaced(l)
	a, b := mustAdmit(t, l), mustAdmit(t, l)
	// Remaining fell by 3 for this limiter's 2: another process spends the key.
	l.observe(a, headers(10, 6, 2))
	if held := l.admit(); held.ok || held.changed == nil {
		t.Fatalf("a second request in flight while sharing: %+v, want held until an answer", held)
	}
	l.observe(b, headers(10, 5, 2))
	mustAdmit(t, l)
}

func TestLimiterLeaderLeavesThePlacesOfOthers(t *testing.T) {
	l, clk := newTestLimiter()
	l.observe(mustAdmit(t, l), headers(10, 9, 2))
	unpaced(l)
	l.othersSeen()
	// This limiter opened the window (its first answer counted no one else's request): it
	// sends one at a time down to the places left to others.
	remaining := 9
	for range 7 {
		tk := mustAdmit(t, l)
		remaining--
		l.observe(tk, headers(10, remaining, 2))
	}
	if a := l.admit(); a.ok || a.d != releaseAfter {
		t.Fatalf("the leader's request into the last 2 places: %+v, want a wait of releaseAfter", a)
	}
	// The others took one of the two; after releaseAfter the leader takes the rest.
	clk.advance(releaseAfter)
	tk := mustAdmit(t, l)
	l.observe(tk, headers(10, 0, 1))
	if a := l.admit(); a.ok {
		t.Fatal("admitted a request into a spent window")
	}
}

func TestLimiterFollowerSendsItsFirstRequestOfTheWindow(t *testing.T) {
	l, clk := newTestLimiter()
	// The probe found 6 places taken by others: this limiter follows a leader.
	l.observe(mustAdmit(t, l), headers(10, 3, 2))
	if a := l.admit(); a.ok {
		t.Fatal("a follower took one of the last places of the window")
	}
	clk.advance(2 * time.Second)
	// Its first request of the next window goes at once; further ones only while the window
	// has plenty of room, which it has not once the leader took its share.
	tk := mustAdmit(t, l)
	l.observe(tk, headers(10, 1, 2))
	if a := l.admit(); a.ok {
		t.Fatal("a follower took a second place in a window its leader has filled")
	}
}

// sharedWindowService is a fixedWindowService that also counts, per caller (the URL of the
// webhook each create sends), the 429s, and the early requests: those that arrive more than
// 100 ms after a 429 of any caller and before its Retry-After elapsed, as the emulator counts
// them.
type sharedWindowService struct {
	fixedWindowService

	refusedBy map[string]int
	until     time.Time // the latest Retry-After end of the 429s written more than 100 ms ago
	recent    []struct{ at, until time.Time }
	early     int
}

func (s *sharedWindowService) serveShared(w http.ResponseWriter, r *http.Request) {
	var in struct {
		URL string `json:"url"`
	}
	_ = json.NewDecoder(r.Body).Decode(&in)
	s.mu.Lock()
	now := time.Now()
	kept := s.recent[:0]
	for _, rc := range s.recent {
		if now.Sub(rc.at) >= 100*time.Millisecond {
			if rc.until.After(s.until) {
				s.until = rc.until
			}
			continue
		}
		kept = append(kept, rc)
	}
	s.recent = kept
	if now.Before(s.until) {
		s.early++
	}
	if s.windows == 0 || !now.Before(s.start.Add(s.window)) {
		s.start, s.used = now, 0
		s.windows++
		s.accepted = append(s.accepted, 0)
	}
	ok := s.used < s.limit
	left := s.start.Add(s.window).Sub(now)
	retryAfter := max(1, int(math.Ceil(left.Seconds())))
	if ok {
		s.used++
		s.accepted[len(s.accepted)-1]++
	} else {
		s.refusedBy[in.URL]++
		s.recent = append(s.recent, struct{ at, until time.Time }{now, now.Add(time.Duration(retryAfter) * time.Second)})
	}
	rateHeadersOf(w, s.limit, s.limit-s.used, retryAfter)
	s.mu.Unlock()
	if !ok {
		writeJSON(w, http.StatusTooManyRequests, tooMany)
		return
	}
	writeJSON(w, http.StatusCreated, webhookJSON("wh-new", false))
}

// TestRateLimitSharedKeyAcrossClients runs three clients, as three terraform processes on one
// key would be (each its own limiter, learning only from the headers), each creating 10
// webhooks from 5 goroutines against a service that takes 8 writes per 2-second window. The
// issue's bounds: at most 2 429s per process and no request before a 429's Retry-After. The
// wall time is logged (it is the bench's to judge, not this test's).
func TestRateLimitSharedKeyAcrossClients(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: this test takes about 8 s of windows")
	}
	s := &sharedWindowService{fixedWindowService: fixedWindowService{limit: 8, window: 2 * time.Second}, refusedBy: map[string]int{}}
	f := newFakeService(t, s.serveShared)
	clients := []string{"https://e.org/a", "https://e.org/b", "https://e.org/c"}
	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, 30)
	for i, u := range clients {
		c := f.client(t, basic)
		wg.Go(func() {
			// The processes start a little apart, as terraform processes do.
			time.Sleep(time.Duration(i) * 150 * time.Millisecond)
			var inner sync.WaitGroup
			for range 5 {
				inner.Go(func() {
					for range 2 {
						_, err := c.CreateWebhook(t.Context(), CreateWebhookInput{URL: u, Events: []string{"x"}})
						errs <- err
					}
				})
			}
			inner.Wait()
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
	t.Logf("30 writes at 8 per 2 s: %s (floor 6 s), windows %v, 429s %v, early %d", time.Since(start).Round(time.Millisecond), s.accepted, s.refusedBy, s.early)
	for _, u := range clients {
		if n := s.refusedBy[u]; n > 2 {
			t.Errorf("client %s drew %d 429s, want at most 2", u, n)
		}
	}
	if s.early != 0 {
		t.Errorf("%d requests arrived before the Retry-After of a 429 had elapsed, want 0", s.early)
	}
}
