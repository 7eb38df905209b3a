package emulator_test

import (
	"fmt"
	"maps"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

var playerIDRe = regexp.MustCompile(`^pt[0-9A-Za-z]{22}$`)

// playerDefaults are the contract's defaults of every setting of a player theme.
var playerDefaults = map[string]any{
	"text": "rgba(255, 255, 255, 1)", "link": "rgba(255, 255, 255, 1)", "linkHover": "rgba(255, 255, 255, 1)",
	"linkActive": "rgba(255, 255, 255, 1)", "backgroundText": "rgba(255, 255, 255, 1)",
	"trackPlayed": "rgba(88, 131, 255, .95)", "trackUnplayed": "rgba(255, 255, 255, .35)",
	"trackBackground": "rgba(255, 255, 255, .2)",
	"backgroundTop":   "rgba(0, 0, 0, .7)", "backgroundBottom": "rgba(0, 0, 0, .7)",
	"enableApi": true, "enableControls": true, "forceAutoplay": false, "hideTitle": false, "forceLoop": false,
}

// settings are the members of a player theme answer other than its id, name and times.
func settings(r response) map[string]any {
	out := maps.Clone(r.body)
	for _, k := range []string{"playerId", "name", "createdAt", "updatedAt"} {
		delete(out, k)
	}
	return out
}

func TestPlayerCreate(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	before := e.emu.Now().UTC().Truncate(time.Second)
	for _, body := range []any{map[string]any{}, "{}"} {
		c := e.createPlayer(map[string]any{})
		if s, ok := body.(string); ok {
			c = e.api("POST", "/players", s)
			expectStatus(t, c, http.StatusCreated)
		}
		if !playerIDRe.MatchString(c.str("playerId")) {
			t.Errorf("playerId %q is not pt + 22 base62 characters", c.str("playerId"))
		}
		if _, has := c.body["name"]; has {
			t.Errorf("a theme made without a name has one: %s", c.raw)
		}
		if fmt.Sprint(settings(c)) != fmt.Sprint(playerDefaults) {
			t.Errorf("settings %v, want the defaults %v", settings(c), playerDefaults)
		}
		created, err := time.Parse(time.RFC3339, c.str("createdAt"))
		if !atomRe.MatchString(c.str("createdAt")) || err != nil || created.Before(before) || c.str("updatedAt") != c.str("createdAt") {
			t.Errorf("times: %s", c.raw)
		}
	}

	// Colours come back character for character, whatever their spacing and decimals.
	body := map[string]any{
		"name": "Brand", "text": "rgba(0,0,0,1)", "link": "rgba( 10 , 20 , 30 , 0.5 )", "trackPlayed": "rgba(88, 131, 255, .95)",
		"backgroundTop": "rgba(255, 255, 255, 0)", "forceLoop": true, "enableApi": false,
	}
	c := e.createPlayer(body)
	want := maps.Clone(playerDefaults)
	for k, v := range body {
		if k != "name" {
			want[k] = v
		}
	}
	if c.str("name") != "Brand" || fmt.Sprint(settings(c)) != fmt.Sprint(want) {
		t.Errorf("create with settings: %s", c.raw)
	}
	if g := e.api("GET", "/players/"+c.str("playerId"), nil); string(g.raw) != string(c.raw) {
		t.Errorf("get answer %s differs from the create answer %s", g.raw, c.raw)
	}
}

func TestPlayerColours(t *testing.T) {
	e := newEnv(t, emulator.Options{Limits: emulator.Limits{Writes: 1000}})
	for _, tc := range []struct {
		colour string
		valid  bool
	}{
		{colour: "rgba(255, 255, 255, 1)", valid: true},
		{colour: "rgba(0, 0, 0, 0)", valid: true},
		{colour: "rgba(88, 131, 255, .95)", valid: true},
		{colour: "rgba(88, 131, 255, 0.95)", valid: true},
		{colour: "rgba(1,2,3,.5)", valid: true},
		{colour: "rgba(1, 2, 3, 1.0)", valid: true},
		{colour: "rgba(007, 2, 3, 1)", valid: true},
		{colour: "rgba(256, 0, 0, 1)", valid: false},
		{colour: "rgba(0, 0, 0, 1.5)", valid: false},
		{colour: "rgba(0, 0, 0, 2)", valid: false},
		{colour: "rgba(0, 0, 0, -1)", valid: false},
		{colour: "rgba(0, 0, 0, 0.)", valid: false},
		{colour: "rgba(0, 0, 0)", valid: false},
		{colour: "rgb(0, 0, 0, 1)", valid: false},
		{colour: "RGBA(0, 0, 0, 1)", valid: false},
		{colour: "rgba(0.5, 0, 0, 1)", valid: false},
		{colour: "#ffffff", valid: false},
		{colour: "rgba(0, 0, 0, 1) ", valid: false},
		{colour: "", valid: false},
	} {
		r := e.api("POST", "/players", map[string]any{"trackBackground": tc.colour})
		if tc.valid {
			expectStatus(t, r, http.StatusCreated)
			if r.str("trackBackground") != tc.colour {
				t.Errorf("%q came back as %q", tc.colour, r.str("trackBackground"))
			}
			continue
		}
		expectStatus(t, r, http.StatusBadRequest)
		if r.str("name") != "trackBackground" || !strings.HasSuffix(r.str("type"), "/invalid-attribute") ||
			r.str("title") != "An attribute is invalid." || !strings.Contains(r.str("detail"), "rgba(R, G, B, A)") {
			t.Errorf("%q: %s", tc.colour, r.raw)
		}
	}
}

func TestPlayerBadInput(t *testing.T) {
	e := newEnv(t, emulator.Options{Limits: emulator.Limits{Writes: 1000}})
	existing := e.createPlayer(map[string]any{"name": "Keep"})
	id := existing.str("playerId")
	const docs = "https://docs.api.video/reference/"
	for _, tc := range []struct {
		name   string
		body   any
		slug   string
		title  string
		detail string
		attr   string
	}{
		{name: "name of 101 characters", body: map[string]any{"name": strings.Repeat("é", 101)}, slug: "invalid-attribute", title: "An attribute is invalid.", detail: "This value is too long. It should have 100 characters or less.", attr: "name"},
		{name: "name a number", body: map[string]any{"name": 1}, slug: "invalid-attribute", title: "An attribute is invalid.", detail: "This value should be of type string.", attr: "name"},
		{name: "colour null", body: map[string]any{"link": nil}, slug: "invalid-attribute", title: "An attribute is invalid.", detail: "This value should not be null.", attr: "link"},
		{name: "colour a number", body: map[string]any{"backgroundBottom": 0}, slug: "invalid-attribute", title: "An attribute is invalid.", detail: "This value should be of type string.", attr: "backgroundBottom"},
		{name: "flag a string", body: map[string]any{"hideTitle": "true"}, slug: "invalid-attribute", title: "An attribute is invalid.", detail: "This value should be of type bool.", attr: "hideTitle"},
		{name: "flag null", body: map[string]any{"forceAutoplay": nil}, slug: "invalid-attribute", title: "An attribute is invalid.", detail: "This value should not be null.", attr: "forceAutoplay"},
		{name: "unknown member", body: map[string]any{"logo": "x"}, slug: "invalid-attributes", title: "Invalid attributes.", detail: "This field was not expected.", attr: "logo"},
		{name: "read-only id", body: map[string]any{"playerId": "pt1"}, slug: "invalid-attributes", title: "Invalid attributes.", detail: "This field was not expected.", attr: "playerId"},
		{name: "not JSON", body: "nope", slug: "invalid-payload", title: "The payload is invalid."},
	} {
		for _, method := range []string{"POST", "PATCH"} {
			path := "/players"
			if method == "PATCH" {
				path += "/" + id
			}
			r := e.api(method, path, tc.body)
			expectStatus(t, r, http.StatusBadRequest)
			if r.str("type") != docs+tc.slug || r.str("title") != tc.title || r.str("detail") != tc.detail || r.str("name") != tc.attr {
				t.Errorf("%s %s: %s", method, tc.name, r.raw)
			}
		}
	}
	if all := e.api("GET", "/players", nil); len(all.data()) != 1 {
		t.Errorf("failed creates stored themes: %s", all.raw)
	}
	if g := e.api("GET", "/players/"+id, nil); string(g.raw) != string(existing.raw) {
		t.Errorf("failed updates changed the theme: %s, was %s", g.raw, existing.raw)
	}
	// A name of exactly 100 characters (not bytes) is fine.
	if c := e.createPlayer(map[string]any{"name": strings.Repeat("é", 100)}); len([]rune(c.str("name"))) != 100 {
		t.Errorf("100-character name: %s", c.raw)
	}
	expectStatus(t, e.api("PATCH", "/players/pt_missing", map[string]any{}), http.StatusNotFound)
}

func TestPlayerUpdate(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	c := e.createPlayer(map[string]any{"name": "Brand", "text": "rgba(1, 2, 3, .4)"})
	id, created, prevUpdated := c.str("playerId"), c.str("createdAt"), c.str("updatedAt")
	want := settings(c)
	for _, tc := range []struct {
		name     string
		body     map[string]any
		wantName string // "" when the theme has no name
	}{
		{name: "empty body", body: map[string]any{}, wantName: "Brand"},
		{name: "one colour", body: map[string]any{"linkHover": "rgba(9, 9, 9, 0.9)"}, wantName: "Brand"},
		{name: "flags", body: map[string]any{"enableControls": false, "hideTitle": true}, wantName: "Brand"},
		{name: "rename", body: map[string]any{"name": "Other"}, wantName: "Other"},
		{name: "name again", body: map[string]any{"name": "Back"}, wantName: "Back"},
		{name: "empty name removes it", body: map[string]any{"name": ""}, wantName: ""},
	} {
		r := e.api("PATCH", "/players/"+id, tc.body)
		expectStatus(t, r, http.StatusOK)
		for k, v := range tc.body {
			if k != "name" {
				want[k] = v
			}
		}
		_, hasName := r.body["name"]
		if r.str("name") != tc.wantName || hasName != (tc.wantName != "") || fmt.Sprint(settings(r)) != fmt.Sprint(want) {
			t.Errorf("%s: %s, want settings %v", tc.name, r.raw, want)
		}
		if r.str("createdAt") != created || r.str("playerId") != id || r.str("updatedAt") <= prevUpdated {
			t.Errorf("%s: times or id: %s (updatedAt was %s)", tc.name, r.raw, prevUpdated)
		}
		prevUpdated = r.str("updatedAt")
		if g := e.api("GET", "/players/"+id, nil); string(g.raw) != string(r.raw) {
			t.Errorf("%s: get answer %s differs from the update answer %s", tc.name, g.raw, r.raw)
		}
	}
	// The published document gives the name as a string, never null: a null is refused, naming
	// the member.
	r := e.api("PATCH", "/players/"+id, map[string]any{"name": nil})
	expectStatus(t, r, http.StatusBadRequest)
	if r.str("name") != "name" || r.str("detail") != "This value should not be null." {
		t.Errorf("a null name: %s", r.raw)
	}
}

func TestPlayerList(t *testing.T) {
	clock := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	e := newEnv(t, emulator.Options{Now: func() time.Time { return clock }})
	var made []string
	for _, name := range []string{"b", "c", "a"} {
		made = append(made, e.createPlayer(map[string]any{"name": name}).str("playerId"))
		e.emu.AdvanceClock(time.Second)
	}
	expectStatus(t, e.api("PATCH", "/players/"+made[0], map[string]any{"forceLoop": true}), http.StatusOK)
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{query: "", want: made},
		{query: "sortBy=name", want: []string{made[2], made[0], made[1]}},
		{query: "sortBy=name&sortOrder=desc", want: []string{made[1], made[0], made[2]}},
		{query: "sortBy=updatedAt", want: []string{made[1], made[2], made[0]}},
		{query: "sortOrder=desc", want: []string{made[2], made[1], made[0]}},
		{query: "pageSize=2&currentPage=2", want: []string{made[2]}},
	} {
		r := e.api("GET", "/players?"+tc.query, nil)
		expectStatus(t, r, http.StatusOK)
		if got := ids(r, "playerId"); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%q: %v, want %v", tc.query, got, tc.want)
		}
		if tc.query == "" && fmt.Sprint(r.data()[0]["text"]) != "rgba(255, 255, 255, 1)" {
			t.Errorf("list items lack their defaults: %s", r.raw)
		}
	}
	r := e.api("GET", "/players?sortBy=name&pageSize=1", nil)
	if next := r.links()["next"]; next != "/players?currentPage=2&pageSize=1&sortBy=name" {
		t.Errorf("next link %q", next)
	}
	for _, bad := range []string{"name=a", "sortBy=title", "sortOrder=up", "pageSize=0", "currentPage=0"} {
		r := e.api("GET", "/players?"+bad, nil)
		expectStatus(t, r, http.StatusBadRequest)
		if r.str("name") == "" {
			t.Errorf("%s: %s", bad, r.raw)
		}
	}
}

func TestPlayerDeleteUnsetsLiveStreams(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	gone := e.createPlayer(map[string]any{"name": "Gone"}).str("playerId")
	kept := e.createPlayer(map[string]any{"name": "Kept"}).str("playerId")
	a := e.createLiveStream(map[string]any{"name": "A", "playerId": gone})
	b := e.createLiveStream(map[string]any{"name": "B", "playerId": kept})
	d := e.api("DELETE", "/players/"+gone, nil)
	expectStatus(t, d, http.StatusNoContent)
	if len(d.raw) != 0 {
		t.Errorf("204 with a body: %q", d.raw)
	}
	ga := e.api("GET", "/live-streams/"+a.str("liveStreamId"), nil)
	if _, has := ga.body["playerId"]; has || ga.str("updatedAt") <= a.str("updatedAt") {
		t.Errorf("live stream of the deleted theme: %s", ga.raw)
	}
	if gb := e.api("GET", "/live-streams/"+b.str("liveStreamId"), nil); gb.str("playerId") != kept || gb.str("updatedAt") != b.str("updatedAt") {
		t.Errorf("live stream of another theme: %s", gb.raw)
	}
	for _, m := range []string{"GET", "DELETE", "PATCH"} {
		nf := e.api(m, "/players/"+gone, map[string]any{})
		expectStatus(t, nf, http.StatusNotFound)
		if nf.str("name") != "playerId" {
			t.Errorf("%s after delete: %s", m, nf.raw)
		}
	}
	// The deleted theme cannot be set again.
	expectStatus(t, e.api("PATCH", "/live-streams/"+b.str("liveStreamId"), map[string]any{"playerId": gone}), http.StatusNotFound)
	expectStatus(t, e.ctl("DELETE", "/players/"+kept, nil), http.StatusNoContent)
	if e.emu.DeletePlayer(kept) {
		t.Error("DeletePlayer of a deleted theme reported true")
	}
	if gb := e.api("GET", "/live-streams/"+b.str("liveStreamId"), nil); gb.str("playerId") != "" {
		t.Errorf("control delete kept the player on its live stream: %s", gb.raw)
	}
}
