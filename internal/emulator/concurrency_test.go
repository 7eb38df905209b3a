package emulator_test

import (
	"fmt"
	"net/http"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// TestConcurrentUse drives every part at once (run it with -race): creates, deletes, lists,
// token refreshes, control calls, deliveries, state saves, and live streams and player themes.
func TestConcurrentUse(t *testing.T) {
	rc := newReceiver(t)
	e := newEnv(t, emulator.Options{
		MaxWebhooks: 1000, Limits: emulator.Limits{Reads: 100000, Writes: 100000},
		StatePath: filepath.Join(t.TempDir(), "s.json"), SeedVideos: 5, SeedLiveStreams: 2,
		DeliveryRetryDelay: time.Millisecond,
	})
	if _, err := e.emu.CreateWebhook(rc.srv.URL, []string{"video.encoding.quality.completed"}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	// Failures are kept in a slice, never sent on a channel that a full buffer could block.
	var failMu sync.Mutex
	var failures []string
	fail := func(format string, a ...any) {
		failMu.Lock()
		defer failMu.Unlock()
		failures = append(failures, fmt.Sprintf(format, a...))
	}
	for g := range 6 {
		wg.Go(func() {
			for i := range 15 {
				r := e.api("POST", "/webhooks", map[string]any{"url": fmt.Sprintf("https://r.test/%d/%d", g, i), "events": []string{"video.summary.generated"}})
				if r.status != http.StatusCreated {
					fail("create: %d %s", r.status, r.raw)
					return
				}
				if s := e.api("GET", "/webhooks?pageSize=7&currentPage=2", nil).status; s != http.StatusOK {
					fail("list: %d", s)
				}
				if s := e.api("DELETE", "/webhooks/"+r.str("webhookId"), nil).status; s != http.StatusNoContent {
					fail("delete: %d", s)
				}
			}
		})
	}
	// Live streams and player themes: a theme is deleted while streams that use it are updated.
	for g := range 2 {
		wg.Go(func() {
			for i := range 10 {
				pt := e.api("POST", "/players", map[string]any{"name": fmt.Sprintf("p%d-%d", g, i)})
				ls := e.api("POST", "/live-streams", map[string]any{"name": fmt.Sprintf("s%d-%d", g, i), "playerId": pt.str("playerId")})
				if pt.status != http.StatusCreated || ls.status != http.StatusOK {
					fail("create theme %d, stream %d: %s %s", pt.status, ls.status, pt.raw, ls.raw)
					return
				}
				if s := e.api("PATCH", "/live-streams/"+ls.str("liveStreamId"), map[string]any{"public": false}).status; s != http.StatusOK {
					fail("update stream: %d", s)
				}
				if s := e.api("DELETE", "/players/"+pt.str("playerId"), nil).status; s != http.StatusNoContent {
					fail("delete theme: %d", s)
				}
				if s := e.api("GET", "/live-streams?pageSize=5&sortBy=updatedAt", nil).status; s != http.StatusOK {
					fail("list streams: %d", s)
				}
				if s := e.api("DELETE", "/live-streams/"+ls.str("liveStreamId"), nil).status; s != http.StatusNoContent {
					fail("delete stream: %d", s)
				}
			}
		})
	}
	wg.Go(func() {
		for range 10 {
			tok := e.tokens()
			e.do("GET", "/videos?tags[]=seed", "Bearer "+tok.str("access_token"), nil)
			e.do("POST", "/auth/refresh", "", map[string]any{"refreshToken": tok.str("refresh_token")})
			e.emu.RevokeTokens()
		}
	})
	wg.Go(func() {
		for range 5 {
			e.ctl("POST", "/videos", map[string]any{"title": "c", "duration": 3})
			e.ctl("PUT", "/faults", map[string]any{"latencyMs": 0})
			e.ctl("GET", "/deliveries", nil)
			e.ctl("GET", "/stats", nil)
			e.ctl("POST", "/clock/advance", map[string]any{"seconds": 1})
			_ = e.emu.RequestCount("GET", "/webhooks")
		}
	})
	// A worker stuck on a lock fails the test with a deadline instead of hanging it.
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("the concurrent workers did not finish within 2 minutes")
	}
	failMu.Lock()
	for _, msg := range failures {
		t.Error(msg)
	}
	failMu.Unlock()
	e.waitDeliveries()
	if n := len(e.emu.Webhooks()); n != 1 {
		t.Errorf("%d webhooks left, want 1", n)
	}
	if r := e.api("GET", "/players", nil); len(r.data()) != 0 {
		t.Errorf("player themes left: %s", r.raw)
	}
	if r := e.api("GET", "/live-streams", nil); len(r.data()) != 2 {
		t.Errorf("live streams left besides the 2 seeds: %s", r.raw)
	}
	if n := len(rc.notifications()); n != 50 {
		t.Errorf("%d notifications, want 50 (5 uploads of 10 versions)", n)
	}
}
