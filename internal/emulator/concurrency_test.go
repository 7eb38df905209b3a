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
// token refreshes, control calls, deliveries and state saves.
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
	errs := make(chan string, 100)
	for g := range 6 {
		wg.Go(func() {
			for i := range 15 {
				r := e.api("POST", "/webhooks", map[string]any{"url": fmt.Sprintf("https://r.test/%d/%d", g, i), "events": []string{"video.summary.generated"}})
				if r.status != http.StatusCreated {
					errs <- fmt.Sprintf("create: %d %s", r.status, r.raw)
					return
				}
				if s := e.api("GET", "/webhooks?pageSize=7&currentPage=2", nil).status; s != http.StatusOK {
					errs <- fmt.Sprintf("list: %d", s)
				}
				if s := e.api("DELETE", "/webhooks/"+r.str("webhookId"), nil).status; s != http.StatusNoContent {
					errs <- fmt.Sprintf("delete: %d", s)
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
	wg.Wait()
	close(errs)
	for msg := range errs {
		t.Error(msg)
	}
	e.waitDeliveries()
	if n := len(e.emu.Webhooks()); n != 1 {
		t.Errorf("%d webhooks left, want 1", n)
	}
	if n := len(rc.notifications()); n != 50 {
		t.Errorf("%d notifications, want 50 (5 uploads of 10 versions)", n)
	}
}
