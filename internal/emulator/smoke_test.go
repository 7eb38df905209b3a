package emulator_test

import (
	"testing"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

func TestSmoke(t *testing.T) {
	e := newEnv(t, emulator.Options{SeedVideos: 3})
	r := e.api("POST", "/webhooks", map[string]any{"url": "https://example.com/h", "events": []string{"video.summary.generated"}})
	t.Logf("%d %s %v", r.status, r.raw, r.header)
	r = e.api("GET", "/webhooks", nil)
	t.Logf("%d %s", r.status, r.raw)
	r = e.api("POST", "/webhooks", map[string]any{"events": "x"})
	t.Logf("%d %s", r.status, r.raw)
	r = e.do("POST", "/auth/api-key", "", map[string]any{"apiKey": e.key})
	t.Logf("%d %s", r.status, r.raw)
	r = e.do("GET", "/videos?pageSize=2", "Bearer "+r.str("access_token"), nil)
	t.Logf("%d %s", r.status, r.raw)
}
