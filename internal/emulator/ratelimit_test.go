package emulator_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

func TestRateLimitDefaults(t *testing.T) {
	for _, tc := range []struct {
		env           string
		reads, writes int
	}{{"sandbox", 100, 40}, {"production", 500, 200}} {
		e := newEnv(t, emulator.Options{Environment: tc.env})
		if l, rem, ra := rateHeaders(t, e.api("GET", "/webhooks", nil)); l != tc.reads || rem != tc.reads-1 || ra < 59 || ra > 60 {
			t.Errorf("%s reads: %d %d %d", tc.env, l, rem, ra)
		}
		if l, rem, _ := rateHeaders(t, e.api("DELETE", "/webhooks/webhook_none", nil)); l != tc.writes || rem != tc.writes-1 {
			t.Errorf("%s writes: %d %d", tc.env, l, rem)
		}
	}
}

func TestRateLimitWindow(t *testing.T) {
	e := newEnv(t, emulator.Options{Limits: emulator.Limits{Reads: 3, Writes: 2}, RateWindow: 10 * time.Second})
	for i := range 3 {
		r := e.api("GET", "/webhooks/webhook_missing", nil) // 404s count and carry the headers too.
		expectStatus(t, r, http.StatusNotFound)
		if l, rem, ra := rateHeaders(t, r); l != 3 || rem != 2-i || ra < 1 || ra > 10 {
			t.Errorf("read %d: limit %d remaining %d retry %d", i, l, rem, ra)
		}
	}
	r := e.api("GET", "/webhooks", nil)
	expectStatus(t, r, http.StatusTooManyRequests)
	if r.str("type") != "https://docs.api.video/reference/too-many-requests" || r.str("title") != "Too many requests." || r.num("status") != 429 {
		t.Errorf("429 body: %s", r.raw)
	}
	if _, rem, ra := rateHeaders(t, r); rem != 0 || ra < 1 || ra > 10 {
		t.Errorf("429 headers: remaining %d retry %d", rem, ra)
	}
	// Writes have their own window; other keys have their own buckets; auth is not limited.
	expectStatus(t, e.api("POST", "/webhooks", "{"), http.StatusBadRequest)
	e2 := newEnv(t, emulator.Options{APIKeys: []string{"k1", "k2"}, Limits: emulator.Limits{Reads: 1}})
	expectStatus(t, e2.do("GET", "/videos", basic("k1"), nil), http.StatusOK)
	expectStatus(t, e2.do("GET", "/videos", basic("k1"), nil), http.StatusTooManyRequests)
	expectStatus(t, e2.do("GET", "/videos", basic("k2"), nil), http.StatusOK)
	// A token counts against its key's bucket.
	tok := e2.do("POST", "/auth/api-key", "", map[string]any{"apiKey": "k2"})
	expectStatus(t, e2.do("GET", "/videos", "Bearer "+tok.str("access_token"), nil), http.StatusTooManyRequests)

	// The window reopens when the clock passes its end.
	e.emu.AdvanceClock(10 * time.Second)
	r = e.api("GET", "/webhooks", nil)
	expectStatus(t, r, http.StatusOK)
	if _, rem, _ := rateHeaders(t, r); rem != 2 {
		t.Errorf("after the window: remaining %d, want 2", rem)
	}
}

// TestRateLimitRealTimeWindow: on the wall clock (no Options.Now), a second read inside a window
// of one second is refused with a Retry-After of 1, and a read after the window is served. The
// two reads are inside one window when the test's own clock says they both ended within a
// second of the first one's start; a machine too busy for that (it happens beside other work)
// has the pair tried again on a fresh emulator, a few times, rather than the test failing.
func TestRateLimitRealTimeWindow(t *testing.T) {
	const attempts = 5
	for attempt := 1; ; attempt++ {
		e := newEnv(t, emulator.Options{Limits: emulator.Limits{Reads: 1}, RateWindow: time.Second})
		start := time.Now()
		first := e.api("GET", "/webhooks", nil)
		second := e.api("GET", "/webhooks", nil)
		if time.Since(start) >= time.Second {
			if attempt == attempts {
				t.Fatalf("%d pairs of reads each took a second or more: the machine is too busy to test a one-second window", attempts)
			}
			continue
		}
		expectStatus(t, first, http.StatusOK)
		expectStatus(t, second, http.StatusTooManyRequests)
		if _, _, ra := rateHeaders(t, second); ra != 1 {
			t.Errorf("Retry-After %d for a one-second window, want 1", ra)
		}
		time.Sleep(1100 * time.Millisecond)
		expectStatus(t, e.api("GET", "/webhooks", nil), http.StatusOK)
		return
	}
}
