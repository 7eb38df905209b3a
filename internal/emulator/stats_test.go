package emulator_test

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// fixedStart is the emulator clock of the rate-statistics tests: it moves only with
// AdvanceClock, so that every arrival time, and with it every early request, is exact.
var fixedStart = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func newStatsEnv(t *testing.T, opts emulator.Options) *env {
	t.Helper()
	opts.Now = func() time.Time { return fixedStart }
	return newEnv(t, opts)
}

// retryAfter reads X-RateLimit-Retry-After of a 429.
func retryAfter(t *testing.T, r response) time.Duration {
	t.Helper()
	expectStatus(t, r, http.StatusTooManyRequests)
	s, err := strconv.Atoi(r.header.Get("X-RateLimit-Retry-After"))
	if err != nil || s < 1 {
		t.Fatalf("X-RateLimit-Retry-After %q on a 429", r.header.Get("X-RateLimit-Retry-After"))
	}
	return time.Duration(s) * time.Second
}

func TestRateStatsEarlyRequests(t *testing.T) {
	e := newStatsEnv(t, emulator.Options{APIKeys: []string{"k1", "k2"}, Limits: emulator.Limits{Writes: 2}, RateWindow: 10 * time.Second})
	write := func(key string) response { return e.do("DELETE", "/webhooks/webhook_none", basic(key), nil) }
	expectStatus(t, write("k1"), http.StatusNotFound)
	expectStatus(t, write("k1"), http.StatusNotFound)
	if ra := retryAfter(t, write("k1")); ra != 10*time.Second {
		t.Fatalf("Retry-After %s at the start of a 10 s window", ra)
	}
	// Within the grace: sent before its client could have read the 429.
	e.emu.AdvanceClock(50 * time.Millisecond)
	if ra := retryAfter(t, write("k1")); ra != 10*time.Second {
		t.Fatalf("Retry-After %s, want 10 s (9.95 s rounded up)", ra)
	}
	if s := e.emu.RateStats(); s.Writes.Early != 0 {
		t.Fatalf("a request within the grace counted early: %+v", s.Writes)
	}
	// A second later, the same key and class: early. Another key, or a read, is not.
	e.emu.AdvanceClock(time.Second)
	retryAfter(t, write("k1"))
	expectStatus(t, write("k2"), http.StatusNotFound)
	expectStatus(t, e.do("GET", "/webhooks", basic("k1"), nil), http.StatusOK)
	// The window reopens at 10 s, but the 429 at 50 ms said 10 s: 10.05 s is when it elapses.
	e.emu.AdvanceClock(10*time.Second - 1050*time.Millisecond)
	expectStatus(t, write("k1"), http.StatusNotFound)
	e.emu.AdvanceClock(50 * time.Millisecond)
	expectStatus(t, write("k1"), http.StatusNotFound)

	s := e.emu.RateStats()
	want := emulator.ClassRateStats{
		Requests: 8, TooManyRequests: 3, Early: 2,
		First: fixedStart, Last: fixedStart.Add(10050 * time.Millisecond),
	}
	if s.Writes != want {
		t.Errorf("writes: %+v\nwant    %+v", s.Writes, want)
	}
	if r := s.Reads; r.Requests != 1 || r.TooManyRequests != 0 || r.Early != 0 || !r.First.Equal(fixedStart.Add(1050*time.Millisecond)) {
		t.Errorf("reads: %+v", r)
	}
	if s.Uploads != (emulator.ClassRateStats{}) {
		t.Errorf("uploads: %+v", s.Uploads)
	}
	if s.EarlyGrace != emulator.EarlyGrace || emulator.EarlyGrace < 50*time.Millisecond || emulator.EarlyGrace > 100*time.Millisecond {
		t.Errorf("EarlyGrace %s, RateStats says %s", emulator.EarlyGrace, s.EarlyGrace)
	}
}

// TestRateStatsClientsThatWaitOrNot runs two clients through the same limit: one waits the
// Retry-After of each 429 before sending again, the other retries after a fixed second.
func TestRateStatsClientsThatWaitOrNot(t *testing.T) {
	// Three reads per 5 s window, 10 ms apart, then a 429 with Retry-After 5 (4.97 s rounded
	// up). The 1 s client sends four more before the window reopens, each early; the other
	// sends its next read when the window has reopened.
	for _, tc := range []struct {
		name           string
		wait           func(retryAfter time.Duration) time.Duration
		refused, early int
	}{
		{name: "waits Retry-After", wait: func(ra time.Duration) time.Duration { return ra }, refused: 3, early: 0},
		{name: "retries after 1 s", wait: func(time.Duration) time.Duration { return time.Second }, refused: 15, early: 12},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newStatsEnv(t, emulator.Options{Limits: emulator.Limits{Reads: 3}, RateWindow: 5 * time.Second})
			refused := 0
			for sent := 0; sent < 12; {
				r := e.api("GET", "/webhooks", nil)
				if r.status == http.StatusTooManyRequests {
					refused++
					e.emu.AdvanceClock(tc.wait(retryAfter(t, r)))
					continue
				}
				expectStatus(t, r, http.StatusOK)
				sent++
				e.emu.AdvanceClock(10 * time.Millisecond)
			}
			s := e.emu.RateStats().Reads
			if refused != tc.refused || s.TooManyRequests != refused || s.Requests != 12+refused || s.Early != tc.early {
				t.Errorf("reads %+v after %d refusals; want %d refusals and %d early", s, refused, tc.refused, tc.early)
			}
		})
	}
}

func TestRateStatsInjected429NotTheLimiters(t *testing.T) {
	e := newStatsEnv(t, emulator.Options{Faults: emulator.Faults{Burst429: 2}})
	expectStatus(t, e.api("GET", "/webhooks", nil), http.StatusTooManyRequests)
	expectStatus(t, e.api("GET", "/webhooks", nil), http.StatusTooManyRequests)
	expectStatus(t, e.api("GET", "/webhooks", nil), http.StatusOK)
	if s := e.emu.RateStats().Reads; s.Requests != 3 || s.TooManyRequests != 0 || s.Early != 0 {
		t.Errorf("reads after two injected 429s: %+v", s)
	}
}

func TestRateStatsWithoutCredentials(t *testing.T) {
	e := newStatsEnv(t, emulator.Options{Limits: emulator.Limits{Reads: 1}})
	expectStatus(t, e.do("GET", "/webhooks", "", nil), http.StatusUnauthorized)
	expectStatus(t, e.do("GET", "/webhooks", "", nil), http.StatusTooManyRequests)
	e.emu.AdvanceClock(time.Second)
	expectStatus(t, e.do("GET", "/webhooks", "", nil), http.StatusTooManyRequests)
	// The address's bucket is not the key's: the key's first read is on time.
	expectStatus(t, e.api("GET", "/webhooks", nil), http.StatusOK)
	if s := e.emu.RateStats().Reads; s.Requests != 4 || s.TooManyRequests != 2 || s.Early != 1 {
		t.Errorf("reads: %+v", s)
	}
}

func TestControlStatsRateLimits(t *testing.T) {
	e := newStatsEnv(t, emulator.Options{Limits: emulator.Limits{Writes: 1}})
	expectStatus(t, e.api("DELETE", "/webhooks/webhook_none", nil), http.StatusNotFound)
	expectStatus(t, e.api("DELETE", "/webhooks/webhook_none", nil), http.StatusTooManyRequests)
	e.emu.AdvanceClock(1500 * time.Millisecond)
	expectStatus(t, e.api("DELETE", "/webhooks/webhook_none", nil), http.StatusTooManyRequests)

	s := e.ctl("GET", "/stats", nil)
	expectStatus(t, s, http.StatusOK)
	if s.num("total") != 3 {
		t.Errorf("total: %s", s.raw)
	}
	rl, _ := s.body["rateLimits"].(map[string]any)
	if g, _ := rl["earlyGraceMs"].(float64); g != float64(emulator.EarlyGrace.Milliseconds()) {
		t.Errorf("earlyGraceMs: %s", s.raw)
	}
	w, _ := rl["writes"].(map[string]any)
	for k, v := range map[string]float64{"requests": 3, "tooManyRequests": 2, "early": 1} {
		if got, ok := w[k].(float64); !ok || got != v {
			t.Errorf("rateLimits.writes.%s = %v, want %v: %s", k, w[k], v, s.raw)
		}
	}
	first, _ := w["first"].(string)
	last, _ := w["last"].(string)
	f, err1 := time.Parse(time.RFC3339Nano, first)
	l, err2 := time.Parse(time.RFC3339Nano, last)
	if err1 != nil || err2 != nil || !f.Equal(fixedStart) || l.Sub(f) != 1500*time.Millisecond {
		t.Errorf("rateLimits.writes first %q last %q: %s", first, last, s.raw)
	}
	for _, class := range []string{"reads", "uploads"} {
		c, _ := rl[class].(map[string]any)
		if c == nil || c["requests"] != float64(0) || c["first"] != nil || c["last"] != nil {
			t.Errorf("rateLimits.%s without requests: %v", class, c)
		}
	}
}
