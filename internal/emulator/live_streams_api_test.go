package emulator_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

var (
	liveStreamIDRe = regexp.MustCompile(`^li[0-9A-Za-z]{22}$`)
	uuidRe         = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
)

// keys lists the members of an answer, sorted.
func keys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }

// restreamsJSON is the answer's restreams as JSON, for comparing whole lists.
func restreamsJSON(t *testing.T, r response) string {
	t.Helper()
	b, err := json.Marshal(r.body["restreams"])
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestLiveStreams(t *testing.T) {
	e := newEnv(t, emulator.Options{SeedLiveStreams: 4})
	l := e.api("GET", "/live-streams/li0000000002", nil)
	expectStatus(t, l, http.StatusOK)
	for _, k := range []string{"liveStreamId", "name", "streamKey", "public", "broadcasting", "createdAt", "updatedAt", "assets", "restreams"} {
		if _, ok := l.body[k]; !ok {
			t.Errorf("live stream lacks %s", k)
		}
	}
	if _, ok := l.body["playerId"]; ok {
		t.Errorf("a live stream without a player theme carries playerId: %s", l.raw)
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
		{params: "", want: "[li0000000001 li0000000002 li0000000003 li0000000004]"},
		{params: "streamKey=" + key, want: "[li0000000002]"},
		{params: "name=stream%203", want: "[li0000000003]"},
		{params: "sortBy=name&sortOrder=desc", want: "[li0000000004 li0000000003 li0000000002 li0000000001]"},
		{params: "sortBy=updatedAt&sortOrder=asc&pageSize=2", want: "[li0000000001 li0000000002]"},
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

func TestLiveStreamCreate(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	before := e.emu.Now().UTC().Truncate(time.Second)
	c := e.createLiveStream(map[string]any{"name": "Studio"})
	id := c.str("liveStreamId")
	if !liveStreamIDRe.MatchString(id) {
		t.Errorf("liveStreamId %q is not li + 22 base62 characters", id)
	}
	want := []string{"assets", "broadcasting", "createdAt", "liveStreamId", "name", "public", "restreams", "streamKey", "updatedAt"}
	if got := keys(c.body); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("members %v, want exactly %v", got, want)
	}
	if !uuidRe.MatchString(c.str("streamKey")) {
		t.Errorf("streamKey %q is not a UUID", c.str("streamKey"))
	}
	if c.str("name") != "Studio" || c.body["public"] != true || c.body["broadcasting"] != false || restreamsJSON(t, c) != "[]" {
		t.Errorf("defaults: %s", c.raw)
	}
	created, err := time.Parse(time.RFC3339, c.str("createdAt"))
	if !atomRe.MatchString(c.str("createdAt")) || err != nil || created.Before(before) || c.str("updatedAt") != c.str("createdAt") {
		t.Errorf("createdAt %q, updatedAt %q", c.str("createdAt"), c.str("updatedAt"))
	}
	assets, _ := c.body["assets"].(map[string]any)
	wantAssets := map[string]any{
		"hls":       "https://live.api.video/" + id + ".m3u8",
		"player":    "https://embed.api.video/live/" + id,
		"iframe":    `<iframe src="https://embed.api.video/live/` + id + `" width="100%" height="100%" frameborder="0" scrolling="no" allowfullscreen="true"></iframe>`,
		"thumbnail": "https://live.api.video/" + id + "/thumbnail.jpg",
	}
	if fmt.Sprint(assets) != fmt.Sprint(wantAssets) {
		t.Errorf("assets %v, want %v", assets, wantAssets)
	}
	if g := e.api("GET", "/live-streams/"+id, nil); string(g.raw) != string(c.raw) {
		t.Errorf("get answer %s differs from the create answer %s", g.raw, c.raw)
	}

	player := e.createPlayer(map[string]any{"name": "Brand"}).str("playerId")
	full := e.createLiveStream(map[string]any{
		"name": "Full", "public": false, "playerId": player,
		"restreams": []map[string]any{
			{"name": "YouTube", "serverUrl": "rtmp://a.rtmp.youtube.com/live2", "streamKey": "yt-key"},
			{"name": "Twitch", "serverUrl": "rtmps://live.twitch.tv/app/extra", "streamKey": "tw-key"},
		},
	})
	if full.body["public"] != false || full.str("playerId") != player ||
		restreamsJSON(t, full) != `[{"name":"YouTube","serverUrl":"rtmp://a.rtmp.youtube.com/live2","streamKey":"yt-key"},{"name":"Twitch","serverUrl":"rtmps://live.twitch.tv/app/extra","streamKey":"tw-key"}]` {
		t.Errorf("full create: %s", full.raw)
	}
	if full.str("streamKey") == c.str("streamKey") || full.str("liveStreamId") == id {
		t.Error("two live streams share an id or a stream key")
	}
}

func TestLiveStreamUpdate(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	brand := e.createPlayer(map[string]any{}).str("playerId")
	other := e.createPlayer(map[string]any{}).str("playerId")
	c := e.createLiveStream(map[string]any{
		"name": "Show", "playerId": brand,
		"restreams": []map[string]any{{"name": "A", "serverUrl": "rtmp://a.test/live", "streamKey": "ka"}},
	})
	id, key, created := c.str("liveStreamId"), c.str("streamKey"), c.str("createdAt")
	const restreamA = `[{"name":"A","serverUrl":"rtmp://a.test/live","streamKey":"ka"}]`
	const restreamB = `[{"name":"B","serverUrl":"rtmps://b.test/app","streamKey":"kb"}]`
	prevUpdated := c.str("updatedAt")
	for _, tc := range []struct {
		name      string
		body      map[string]any
		wantName  string
		public    bool
		player    string // "" for none: the member is left out
		restreams string
	}{
		{name: "empty body changes nothing", body: map[string]any{}, wantName: "Show", public: true, player: brand, restreams: restreamA},
		{name: "name only", body: map[string]any{"name": "Renamed"}, wantName: "Renamed", public: true, player: brand, restreams: restreamA},
		{name: "public only", body: map[string]any{"public": false}, wantName: "Renamed", public: false, player: brand, restreams: restreamA},
		{name: "another player", body: map[string]any{"playerId": other}, wantName: "Renamed", public: false, player: other, restreams: restreamA},
		{name: "restreams replace the list", body: map[string]any{"restreams": []map[string]any{{"name": "B", "serverUrl": "rtmps://b.test/app", "streamKey": "kb"}}}, wantName: "Renamed", public: false, player: other, restreams: restreamB},
		{name: "absent restreams stay", body: map[string]any{"public": true, "playerId": brand}, wantName: "Renamed", public: true, player: brand, restreams: restreamB},
		{name: "empty restreams remove all", body: map[string]any{"restreams": []any{}}, wantName: "Renamed", public: true, player: brand, restreams: "[]"},
	} {
		r := e.api("PATCH", "/live-streams/"+id, tc.body)
		expectStatus(t, r, http.StatusOK)
		_, hasPlayer := r.body["playerId"]
		if r.str("name") != tc.wantName || r.body["public"] != tc.public || r.str("playerId") != tc.player ||
			hasPlayer != (tc.player != "") || restreamsJSON(t, r) != tc.restreams {
			t.Errorf("%s: %s", tc.name, r.raw)
		}
		if r.str("streamKey") != key || r.str("createdAt") != created || r.str("liveStreamId") != id {
			t.Errorf("%s: stream key, id or createdAt changed: %s", tc.name, r.raw)
		}
		if r.str("updatedAt") <= prevUpdated {
			t.Errorf("%s: updatedAt %s did not move from %s", tc.name, r.str("updatedAt"), prevUpdated)
		}
		prevUpdated = r.str("updatedAt")
		if g := e.api("GET", "/live-streams/"+id, nil); string(g.raw) != string(r.raw) {
			t.Errorf("%s: get answer %s differs from the update answer %s", tc.name, g.raw, r.raw)
		}
	}
	// The published document gives a live stream's playerId as a string, never null: a null is
	// refused, naming the member, and changes nothing.
	r := e.api("PATCH", "/live-streams/"+id, map[string]any{"playerId": nil, "name": "Nulled"})
	expectStatus(t, r, http.StatusBadRequest)
	if r.str("name") != "playerId" || r.str("detail") != "This value should not be null." {
		t.Errorf("a null playerId: %s", r.raw)
	}
	if g := e.api("GET", "/live-streams/"+id, nil); g.str("playerId") != brand || g.str("name") != "Renamed" {
		t.Errorf("a refused update changed the live stream: %s", g.raw)
	}
	expectStatus(t, e.api("PATCH", "/live-streams/li_missing", map[string]any{"name": "x"}), http.StatusNotFound)
}

// TestLiveStreamBadInput runs every 400 and 404 of the contract's table against both writes;
// each must leave the store as it was.
func TestLiveStreamBadInput(t *testing.T) {
	e := newEnv(t, emulator.Options{Limits: emulator.Limits{Writes: 1000}})
	existing := e.createLiveStream(map[string]any{"name": "Keep"})
	id := existing.str("liveStreamId")
	const docs = "https://docs.api.video/reference/"
	restream := func(name, serverURL, key any) map[string]any {
		return map[string]any{"name": name, "serverUrl": serverURL, "streamKey": key}
	}
	ok := restream("R", "rtmp://h.test/app", "k")
	for _, tc := range []struct {
		name       string
		body       any
		createOnly bool
		status     int
		slug       string
		title      string
		detail     string
		attr       string
	}{
		{name: "blank restream name", body: map[string]any{"restreams": []any{ok, restream("  ", "rtmp://h.test/app", "k")}}, status: 400, slug: "invalid-attribute", title: "An attribute is invalid.", detail: "This value should not be blank.", attr: "restreams[1][name]"},
		{name: "blank restream key", body: map[string]any{"restreams": []any{restream("R", "rtmp://h.test/app", "")}}, status: 400, slug: "invalid-attribute", title: "An attribute is invalid.", detail: "This value should not be blank.", attr: "restreams[0][streamKey]"},
		{name: "null restream server", body: map[string]any{"restreams": []any{restream("R", nil, "k")}}, status: 400, slug: "invalid-attribute", title: "An attribute is invalid.", detail: "This value should not be null.", attr: "restreams[0][serverUrl]"},
		{name: "missing restream key", body: map[string]any{"restreams": []any{map[string]any{"name": "R", "serverUrl": "rtmp://h.test/app"}}}, status: 400, slug: "invalid-attribute", title: "An attribute is invalid.", detail: "This value should not be null.", attr: "restreams[0][streamKey]"},
		{name: "server without app", body: map[string]any{"restreams": []any{ok, ok, restream("R", "rtmp://h.test", "k")}}, status: 400, slug: "invalid-attribute", title: "An attribute is invalid.", detail: "Missing app name: [rtmp|rtmps]://[host]/[app name].", attr: "restreams[2][serverUrl]"},
		{name: "server with an empty app", body: map[string]any{"restreams": []any{restream("R", "rtmps://h.test/", "k")}}, status: 400, slug: "invalid-attribute", title: "An attribute is invalid.", detail: "Missing app name: [rtmp|rtmps]://[host]/[app name].", attr: "restreams[0][serverUrl]"},
		{name: "http server", body: map[string]any{"restreams": []any{restream("R", "https://h.test/app", "k")}}, status: 400, slug: "invalid-attribute", title: "An attribute is invalid.", detail: "RTMP URL should have the following format: [rtmp|rtmps]://[host]/[app name].", attr: "restreams[0][serverUrl]"},
		{name: "server without host", body: map[string]any{"restreams": []any{restream("R", "rtmp:///app", "k")}}, status: 400, slug: "invalid-attribute", title: "An attribute is invalid.", detail: "RTMP URL should have the following format: [rtmp|rtmps]://[host]/[app name].", attr: "restreams[0][serverUrl]"},
		{name: "server not a URL", body: map[string]any{"restreams": []any{restream("R", "live", "k")}}, status: 400, slug: "invalid-attribute", title: "An attribute is invalid.", detail: "RTMP URL should have the following format: [rtmp|rtmps]://[host]/[app name].", attr: "restreams[0][serverUrl]"},
		{name: "six restreams", body: map[string]any{"restreams": []any{ok, ok, ok, ok, ok, ok}}, status: 400, slug: "invalid-attribute", title: "An attribute is invalid.", detail: "This collection should contain 5 elements or less.", attr: "restreams"},
		{name: "restreams not a list", body: map[string]any{"restreams": ok}, status: 400, slug: "invalid-attribute", title: "An attribute is invalid.", detail: "This value should be of type array.", attr: "restreams"},
		{name: "restreams null", body: map[string]any{"restreams": nil}, status: 400, slug: "invalid-attribute", title: "An attribute is invalid.", detail: "This value should not be null.", attr: "restreams"},
		{name: "restream not an object", body: map[string]any{"restreams": []any{"rtmp://h.test/app"}}, status: 400, slug: "invalid-attribute", title: "An attribute is invalid.", detail: "This value should be of type object.", attr: "restreams[0]"},
		{name: "restream member unknown", body: map[string]any{"restreams": []any{map[string]any{"name": "R", "serverUrl": "rtmp://h.test/app", "streamKey": "k", "key": "x"}}}, status: 400, slug: "invalid-attributes", title: "Invalid attributes.", detail: "This field was not expected.", attr: "restreams[0][key]"},
		{name: "name missing on create", body: map[string]any{"public": true}, createOnly: true, status: 400, slug: "attribute-required", title: "This attribute is required.", detail: "A live stream needs a name.", attr: "name"},
		{name: "name blank", body: map[string]any{"name": " \t"}, status: 400, slug: "invalid-attribute", title: "An attribute is invalid.", detail: "This value should not be blank.", attr: "name"},
		{name: "name null", body: map[string]any{"name": nil}, status: 400, slug: "invalid-attribute", title: "An attribute is invalid.", detail: "This value should not be null.", attr: "name"},
		{name: "name a number", body: map[string]any{"name": 5}, status: 400, slug: "invalid-attribute", title: "An attribute is invalid.", detail: "This value should be of type string.", attr: "name"},
		{name: "public a string", body: map[string]any{"name": "n", "public": "yes"}, status: 400, slug: "invalid-attribute", title: "An attribute is invalid.", detail: "This value should be of type bool.", attr: "public"},
		{name: "public null", body: map[string]any{"name": "n", "public": nil}, status: 400, slug: "invalid-attribute", title: "An attribute is invalid.", detail: "This value should not be null.", attr: "public"},
		{name: "playerId a number", body: map[string]any{"name": "n", "playerId": 7}, status: 400, slug: "invalid-attribute", title: "An attribute is invalid.", detail: "This value should be of type string.", attr: "playerId"},
		{name: "unknown member", body: map[string]any{"name": "n", "broadcasting": true}, status: 400, slug: "invalid-attributes", title: "Invalid attributes.", detail: "This field was not expected.", attr: "broadcasting"},
		{name: "read-only stream key", body: map[string]any{"name": "n", "streamKey": "mine"}, status: 400, slug: "invalid-attributes", title: "Invalid attributes.", detail: "This field was not expected.", attr: "streamKey"},
		{name: "unknown player", body: map[string]any{"name": "n", "playerId": "pt_none"}, status: 404, slug: "resource-not-found", title: "The requested resource could not be found.", attr: "playerId"},
		{name: "empty player id", body: map[string]any{"name": "n", "playerId": ""}, status: 404, slug: "resource-not-found", title: "The requested resource could not be found.", attr: "playerId"},
		{name: "not JSON", body: "{", status: 400, slug: "invalid-payload", title: "The payload is invalid."},
		{name: "an array", body: "[]", status: 400, slug: "invalid-payload", title: "The payload is invalid."},
	} {
		for _, method := range []string{"POST", "PATCH"} {
			if tc.createOnly && method == "PATCH" {
				continue
			}
			path := "/live-streams"
			if method == "PATCH" {
				path += "/" + id
			}
			body := tc.body
			if m, isMap := body.(map[string]any); isMap && method == "POST" && m["name"] == nil && !tc.createOnly && tc.attr != "name" {
				// A create needs a name; the case is about another member.
				m = maps.Clone(m)
				m["name"] = "n"
				body = m
			}
			r := e.api(method, path, body)
			expectStatus(t, r, tc.status)
			if r.str("type") != docs+tc.slug || r.str("title") != tc.title || r.str("detail") != tc.detail ||
				r.str("name") != tc.attr || r.num("status") != tc.status {
				t.Errorf("%s %s: %s", method, tc.name, r.raw)
			}
			if _, has := r.body["problems"]; has {
				t.Errorf("%s %s: one problem listed in problems too: %s", method, tc.name, r.raw)
			}
		}
	}
	if all := e.api("GET", "/live-streams", nil); len(all.data()) != 1 {
		t.Errorf("failed creates stored live streams: %s", all.raw)
	}
	if g := e.api("GET", "/live-streams/"+id, nil); string(g.raw) != string(existing.raw) {
		t.Errorf("failed updates changed the live stream: %s, was %s", g.raw, existing.raw)
	}

	// Several problems: the first in the body's order gives type, title, detail and name, and
	// problems lists them all.
	r := e.api("POST", "/live-streams", map[string]any{"public": 1, "restreams": []any{restream("", "ftp://x/y", "k")}, "zz": 1})
	expectStatus(t, r, http.StatusBadRequest)
	var names []string
	for _, p := range r.problems() {
		names = append(names, fmt.Sprint(p["name"]))
		if p["detail"] == nil {
			t.Errorf("problem without a detail: %v", p)
		}
	}
	if r.str("name") != "name" || r.str("type") != docs+"attribute-required" ||
		fmt.Sprint(names) != "[name public restreams[0][name] restreams[0][serverUrl] zz]" {
		t.Errorf("several problems: %s", r.raw)
	}
}

func TestLiveStreamListQueries(t *testing.T) {
	clock := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	e := newEnv(t, emulator.Options{Now: func() time.Time { return clock }})
	var created []string
	for _, name := range []string{"Morning show", "evening Show", "Night show"} {
		created = append(created, e.createLiveStream(map[string]any{"name": name}).str("liveStreamId"))
		e.emu.AdvanceClock(time.Second)
	}
	// The first stream becomes the last updated.
	expectStatus(t, e.api("PATCH", "/live-streams/"+created[0], map[string]any{"public": false}), http.StatusOK)
	key := e.api("GET", "/live-streams/"+created[1], nil).str("streamKey")
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{query: "", want: created},
		{query: "name=show", want: []string{created[0], created[2]}},
		{query: "name=Show", want: []string{created[1]}},
		{query: "name=show&sortOrder=desc", want: []string{created[2], created[0]}},
		{query: "streamKey=" + key, want: []string{created[1]}},
		{query: "streamKey=" + key[:8], want: nil},
		{query: "sortBy=name", want: []string{created[0], created[2], created[1]}},
		{query: "sortBy=updatedAt", want: []string{created[1], created[2], created[0]}},
		{query: "sortBy=createdAt&sortOrder=desc", want: []string{created[2], created[1], created[0]}},
		{query: "pageSize=2&currentPage=2", want: []string{created[2]}},
	} {
		r := e.api("GET", "/live-streams?"+tc.query, nil)
		expectStatus(t, r, http.StatusOK)
		if got := ids(r, "liveStreamId"); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%q: %v, want %v", tc.query, got, tc.want)
		}
	}
	r := e.api("GET", "/live-streams?name=show&pageSize=1", nil)
	if next := r.links()["next"]; next != "/live-streams?currentPage=2&pageSize=1&name=show" {
		t.Errorf("next link %q keeps the filter", next)
	}
}

func TestLiveStreamDelete(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	rc := newReceiver(t)
	hook := e.ctl("POST", "/webhooks", map[string]any{"url": rc.srv.URL, "events": []string{"live-stream.broadcast.started", "live-stream.broadcast.ended"}})
	expectStatus(t, hook, http.StatusCreated)
	quiet := e.createLiveStream(map[string]any{"name": "Quiet"}).str("liveStreamId")
	onAir := e.createLiveStream(map[string]any{"name": "On air"}).str("liveStreamId")
	expectStatus(t, e.ctl("POST", "/live-streams/"+onAir+"/broadcast/start", nil), http.StatusOK)

	for _, id := range []string{quiet, onAir} {
		d := e.api("DELETE", "/live-streams/"+id, nil)
		expectStatus(t, d, http.StatusNoContent)
		if len(d.raw) != 0 {
			t.Errorf("204 with a body: %q", d.raw)
		}
		for _, m := range []string{"GET", "DELETE", "PATCH"} {
			nf := e.api(m, "/live-streams/"+id, map[string]any{})
			expectStatus(t, nf, http.StatusNotFound)
			if nf.str("name") != "liveStreamId" {
				t.Errorf("%s after delete: %s", m, nf.raw)
			}
		}
	}
	e.waitDeliveries()
	var got []string
	for _, n := range rc.notifications() {
		got = append(got, fmt.Sprint(n.fields["type"], " ", n.fields["liveStreamId"]))
	}
	slices.Sort(got)
	want := []string{"live-stream.broadcast.ended " + onAir, "live-stream.broadcast.started " + onAir}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("notifications %v, want %v (the delete of a broadcasting stream ends it; a quiet one sends nothing)", got, want)
	}
	if e.emu.DeleteLiveStream(onAir) {
		t.Error("DeleteLiveStream of a deleted live stream reported true")
	}
}

// TestLiveStreamControlOnAPIStreams drives broadcast start, end and recording through the
// control API on a live stream made through the service API.
func TestLiveStreamControlOnAPIStreams(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	c := e.createLiveStream(map[string]any{"name": "API made", "public": false})
	id := c.str("liveStreamId")
	start := e.ctl("POST", "/live-streams/"+id+"/broadcast/start", nil)
	expectStatus(t, start, http.StatusOK)
	if g := e.api("GET", "/live-streams/"+id, nil); g.body["broadcasting"] != true || g.str("streamKey") != c.str("streamKey") {
		t.Errorf("after start: %s", g.raw)
	}
	// An update while on air keeps it on air.
	if u := e.api("PATCH", "/live-streams/"+id, map[string]any{"name": "Renamed"}); u.body["broadcasting"] != true {
		t.Errorf("update while broadcasting: %s", u.raw)
	}
	expectStatus(t, e.ctl("POST", "/live-streams/"+id+"/broadcast/end", nil), http.StatusOK)
	rec := e.ctl("POST", "/live-streams/"+id+"/record", map[string]any{"duration": 5})
	expectStatus(t, rec, http.StatusCreated)
	if rec.body["public"] != false || !strings.HasPrefix(rec.str("title"), "Renamed") {
		t.Errorf("recording: %s", rec.raw)
	}
	if v := e.api("GET", "/videos?liveStreamId="+id, nil); len(v.data()) != 1 {
		t.Errorf("recording not listed: %s", v.raw)
	}
	expectStatus(t, e.ctl("DELETE", "/live-streams/"+id, nil), http.StatusNoContent)
	expectStatus(t, e.ctl("DELETE", "/live-streams/"+id, nil), http.StatusNotFound)
}

// TestCompleteLiveStream: PUT /live-streams/{id}/complete is 202 and ends a broadcast at once
// with its event; a stream that is not broadcasting stays as it is; an unknown one is 404.
func TestCompleteLiveStream(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	rc := newReceiver(t)
	e.createWebhook(rc.srv.URL, "live-stream.broadcast.ended")
	id := e.createLiveStream(map[string]any{"name": "s"}).str("liveStreamId")
	before := e.api("GET", "/live-streams/"+id, nil)
	r := e.api("PUT", "/live-streams/"+id+"/complete", nil)
	expectStatus(t, r, http.StatusAccepted)
	if after := e.api("GET", "/live-streams/"+id, nil); after.str("updatedAt") != before.str("updatedAt") {
		t.Errorf("completing an idle stream changed it: %s", after.raw)
	}
	if err := e.emu.SetBroadcasting(id, true); err != nil {
		t.Fatal(err)
	}
	expectStatus(t, e.api("PUT", "/live-streams/"+id+"/complete", nil), http.StatusAccepted)
	if got := e.api("GET", "/live-streams/"+id, nil); got.body["broadcasting"] != false {
		t.Errorf("still broadcasting: %s", got.raw)
	}
	e.waitDeliveries()
	if n := len(rc.notifications()); n != 1 {
		t.Errorf("%d broadcast.ended events, want 1", n)
	}
	expectError(t, e.api("PUT", "/live-streams/liNope/complete", nil), 404, "resource-not-found", "liveStreamId")
}
