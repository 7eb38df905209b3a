package emulator_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

func TestLiveStreams(t *testing.T) {
	e := newEnv(t, emulator.Options{SeedLiveStreams: 4})
	l := e.api("GET", "/live-streams/li0000000002", nil)
	expectStatus(t, l, http.StatusOK)
	for _, k := range []string{"liveStreamId", "name", "streamKey", "public", "playerId", "broadcasting", "createdAt", "updatedAt", "assets", "restreams"} {
		if _, ok := l.body[k]; !ok {
			t.Errorf("live stream lacks %s", k)
		}
	}
	rs, _ := l.body["restreams"].([]any)
	if len(rs) != 1 {
		t.Fatalf("restreams %v", l.body["restreams"])
	}
	if r0, _ := rs[0].(map[string]any); r0["name"] == nil || r0["serverUrl"] == nil || r0["streamKey"] == nil {
		t.Errorf("restream %v", r0)
	}
	key := l.str("streamKey")
	for _, tc := range []struct {
		params string
		want   string
	}{
		{"", "[li0000000001 li0000000002 li0000000003 li0000000004]"},
		{"streamKey=" + key, "[li0000000002]"},
		{"name=stream%203", "[li0000000003]"},
		{"sortBy=name&sortOrder=desc", "[li0000000004 li0000000003 li0000000002 li0000000001]"},
		{"sortBy=updatedAt&sortOrder=asc&pageSize=2", "[li0000000001 li0000000002]"},
	} {
		r := e.api("GET", "/live-streams?"+tc.params, nil)
		expectStatus(t, r, http.StatusOK)
		if got := fmt.Sprint(ids(r, "liveStreamId")); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.params, got, tc.want)
		}
	}
	for _, bad := range []string{"sortBy=title", "sortOrder=random", "pageSize=500", "broadcasting=true"} {
		expectStatus(t, e.api("GET", "/live-streams?"+bad, nil), http.StatusBadRequest)
	}
}
