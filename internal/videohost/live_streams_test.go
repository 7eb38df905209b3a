package videohost

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// liveStreamJSON is a live stream as the contract writes it, with a restream.
func liveStreamJSON(id string) map[string]any {
	return map[string]any{
		"liveStreamId": id, "name": "studio", "streamKey": "30087931-229e-42cf-b5f9-e91bcc1f7332",
		"public": true, "broadcasting": false, "playerId": "pt1234567890123456789012",
		"createdAt": "2024-08-08T14:12:18+00:00", "updatedAt": "2024-08-09T10:00:00Z",
		"assets": map[string]any{
			"hls": "https://live.api.video/" + id + ".m3u8", "iframe": "<iframe></iframe>",
			"player": "https://embed.api.video/live/" + id, "thumbnail": "https://live.api.video/" + id + "/thumbnail.jpg",
		},
		"restreams": []map[string]any{{"name": "yt", "serverUrl": "rtmp://a.rtmp.youtube.com/live2", "streamKey": "yt-key"}},
	}
}

func TestUpdateLiveStreamBodies(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   UpdateLiveStreamInput
		want string
	}{
		{"nothing", UpdateLiveStreamInput{}, `{}`},
		{"name only", UpdateLiveStreamInput{Name: Value("new")}, `{"name":"new"}`},
		{"public false is sent", UpdateLiveStreamInput{Public: Value(false)}, `{"public":false}`},
		{"player cleared", UpdateLiveStreamInput{PlayerID: Null[string]()}, `{"playerId":null}`},
		{"player set", UpdateLiveStreamInput{PlayerID: Value("pt1")}, `{"playerId":"pt1"}`},
		{"restreams removed", UpdateLiveStreamInput{Restreams: Value[[]Restream](nil)}, `{"restreams":[]}`},
		{"restreams replaced", UpdateLiveStreamInput{Restreams: Value([]Restream{{Name: "a", ServerURL: "rtmp://h/app", StreamKey: "k"}})},
			`{"restreams":[{"name":"a","serverUrl":"rtmp://h/app","streamKey":"k"}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
				writeJSON(w, http.StatusOK, liveStreamJSON("li1"))
			})
			if tc.in.IsEmpty() != (tc.want == `{}`) {
				t.Errorf("IsEmpty = %v for %s", tc.in.IsEmpty(), tc.want)
			}
			if _, err := f.client(t, basic).UpdateLiveStream(t.Context(), "li1", tc.in); err != nil {
				t.Fatal(err)
			}
			reqs := f.requests()
			last := reqs[len(reqs)-1]
			if last.method != http.MethodPatch || last.path != "/live-streams/li1" || last.body != tc.want {
				t.Fatalf("sent %s %s %s, want PATCH /live-streams/li1 %s", last.method, last.path, last.body, tc.want)
			}
		})
	}
}

// TestLiveStreamCreateBodies: a create sends what was set and decodes the live stream; what
// every API area's calls share is TestCollectionCalls'.
func TestLiveStreamCreateBodies(t *testing.T) {
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, liveStreamJSON("li-new"))
	})
	c := f.client(t, basic)
	ctx := t.Context()

	pub := false
	got, err := c.CreateLiveStream(ctx, CreateLiveStreamInput{Name: "studio", Public: &pub,
		Restreams: []Restream{{Name: "yt", ServerURL: "rtmp://a.rtmp.youtube.com/live2", StreamKey: "yt-key"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != "li-new" || got.PlayerID != "pt1234567890123456789012" || got.Assets == nil || got.Assets.HLS != "https://live.api.video/li-new.m3u8" ||
		len(got.Restreams) != 1 || got.Restreams[0].StreamKey != "yt-key" || got.UpdatedAt == nil || got.UpdatedAt.Year() != 2024 {
		t.Fatalf("decoded %+v", got)
	}
	reqs := f.requests()
	want := `{"name":"studio","public":false,"restreams":[{"name":"yt","serverUrl":"rtmp://a.rtmp.youtube.com/live2","streamKey":"yt-key"}]}`
	if b := reqs[len(reqs)-1].body; b != want {
		t.Errorf("create body = %s, want %s", b, want)
	}
	if _, err := c.CreateLiveStream(ctx, CreateLiveStreamInput{Name: "bare"}); err != nil {
		t.Fatal(err)
	}
	reqs = f.requests()
	if b := reqs[len(reqs)-1].body; b != `{"name":"bare"}` {
		t.Errorf("a create with defaults sends %s, want only the name", b)
	}
}

// TestLiveStreamErrorsKeepNoKey pins that a 400 naming a restream is decoded with its name
// and that neither the error nor the logs repeat the restream key that was sent.
func TestLiveStreamErrorsKeepNoKey(t *testing.T) {
	const key = "restream-key-Zq81"
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusBadRequest, map[string]any{
			"type": "https://docs.api.video/reference/invalid-attribute", "title": "An attribute is invalid.",
			"detail": "Missing app name: [rtmp|rtmps]://[host]/[app name].", "name": "restreams[1][serverUrl]", "status": 400,
		})
	})
	log := &captureLogger{}
	c := f.client(t, basic, func(cfg *Config) { cfg.Logger = log })
	_, err := c.UpdateLiveStream(t.Context(), "li1", UpdateLiveStreamInput{Restreams: Value([]Restream{
		{Name: "a", ServerURL: "rtmp://h/app", StreamKey: key}, {Name: "b", ServerURL: "rtmp://h", StreamKey: key},
	})})
	apiErr, ok := errors.AsType[*Error](err)
	if !ok || apiErr.Name != "restreams[1][serverUrl]" {
		t.Fatalf("err = %v, want an *Error naming restreams[1][serverUrl]", err)
	}
	if strings.Contains(err.Error(), key) || strings.Contains(log.text(), key) {
		t.Fatalf("the restream key leaked: error %q, logs %q", err, log.text())
	}
}

func TestLiveStreamDecodesWithoutPlayer(t *testing.T) {
	m := liveStreamJSON("li1")
	delete(m, "playerId")
	m["restreams"] = []any{}
	b, _ := json.Marshal(m)
	var l LiveStream
	if err := json.Unmarshal(b, &l); err != nil {
		t.Fatal(err)
	}
	if l.PlayerID != "" || l.Restreams == nil || len(l.Restreams) != 0 {
		t.Fatalf("decoded %+v: want no player and an empty, non-nil list of restreams", l)
	}
}

func TestCompleteLiveStream(t *testing.T) {
	var calls atomic.Int32
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/live-streams/gone/complete":
			writeJSON(w, http.StatusNotFound, map[string]any{"type": "https://docs/errors/resource-not-found", "title": "The requested resource was not found.", "name": "liveStreamId", "status": 404})
		case calls.Add(1) == 1:
			// A server error: the complete is sent again, as a read would be.
			w.WriteHeader(http.StatusInternalServerError)
		default:
			w.WriteHeader(http.StatusAccepted)
		}
	})
	c := f.client(t, basic)
	if err := c.CompleteLiveStream(t.Context(), "li1"); err != nil {
		t.Fatal(err)
	}
	var puts int
	for _, r := range f.requests() {
		if r.method == http.MethodPut && r.path == "/live-streams/li1/complete" && r.body == "" {
			puts++
		}
	}
	if puts != 2 {
		t.Errorf("%d PUT /live-streams/li1/complete without a body, want 2 (one retried after the 500): %+v", puts, f.requests())
	}
	if err := c.CompleteLiveStream(t.Context(), "gone"); !errors.Is(err, ErrNotFound) {
		t.Errorf("complete of an unknown live stream: %v, want ErrNotFound", err)
	}
	if err := c.CompleteLiveStream(t.Context(), ""); err == nil {
		t.Error("complete of an empty id succeeded")
	}
}
