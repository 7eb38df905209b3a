package emulator_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

func TestSandboxDurationLimit(t *testing.T) {
	sb := newEnv(t, emulator.Options{})
	ls := sb.ctl("POST", "/live-streams", map[string]any{"name": "s"}).str("liveStreamId")
	for _, tc := range []struct {
		path string
		body map[string]any
	}{
		{"/videos", map[string]any{"title": "long", "duration": 31}},
		{"/live-streams/" + ls + "/record", map[string]any{"duration": 30.5}},
	} {
		r := sb.ctl("POST", tc.path, tc.body)
		expectStatus(t, r, http.StatusBadRequest)
		if !strings.Contains(r.str("title"), "30 seconds") {
			t.Errorf("%s: %s", tc.path, r.raw)
		}
	}
	expectStatus(t, sb.ctl("POST", "/videos", map[string]any{"title": "ok", "duration": 30}), http.StatusCreated)
	for _, bad := range []any{0, -1, "ten"} {
		expectStatus(t, sb.ctl("POST", "/videos", map[string]any{"title": "x", "duration": bad}), http.StatusBadRequest)
	}

	prod := newEnv(t, emulator.Options{Environment: "production"})
	expectStatus(t, prod.ctl("POST", "/videos", map[string]any{"title": "long", "duration": 3600}), http.StatusCreated)
	pls := prod.ctl("POST", "/live-streams", map[string]any{"name": "p"}).str("liveStreamId")
	expectStatus(t, prod.ctl("POST", "/live-streams/"+pls+"/record", map[string]any{"duration": 600}), http.StatusCreated)
}

func TestSandboxExpiryAndWatermark(t *testing.T) {
	for _, tc := range []struct {
		env      string
		survives bool
	}{{"sandbox", false}, {"production", true}} {
		t.Run(tc.env, func(t *testing.T) {
			e := newEnv(t, emulator.Options{Environment: tc.env, SeedVideos: 2})
			up := e.ctl("POST", "/videos", map[string]any{"title": "up", "duration": 5})
			ls := e.ctl("POST", "/live-streams", map[string]any{"name": "s"}).str("liveStreamId")
			rec := e.ctl("POST", "/live-streams/"+ls+"/record", map[string]any{"duration": 5})
			// The sandbox's watermark is on the pictures: videos and live streams carry the
			// contract's members only, which have no flag for it.
			l := e.api("GET", "/live-streams/"+ls, nil)
			for _, r := range []response{up, rec, e.api("GET", "/videos/"+up.str("videoId"), nil), l} {
				if _, ok := r.body["watermarked"]; ok {
					t.Errorf("a watermark flag: %s", r.raw)
				}
			}
			e.emu.AdvanceClock(23*time.Hour + 59*time.Minute)
			expectStatus(t, e.api("GET", "/videos/"+up.str("videoId"), nil), http.StatusOK)
			adv := e.ctl("POST", "/clock/advance", map[string]any{"seconds": 60})
			expectStatus(t, adv, http.StatusOK)
			if now, err := time.Parse(time.RFC3339, adv.str("now")); err != nil || now.Before(time.Now().Add(23*time.Hour)) {
				t.Errorf("clock advance answer: %s", adv.raw)
			}
			want := http.StatusNotFound
			if tc.survives {
				want = http.StatusOK
			}
			for _, id := range []string{up.str("videoId"), rec.str("videoId"), emulator.SeedVideoID(1)} {
				expectStatus(t, e.api("GET", "/videos/"+id, nil), want)
			}
			list := e.api("GET", "/videos", nil)
			if n := len(list.data()); (n == 0) == tc.survives {
				t.Errorf("%d videos listed after 24 h", n)
			}
			// Live streams themselves do not expire.
			expectStatus(t, e.api("GET", "/live-streams/"+ls, nil), http.StatusOK)
		})
	}
}
