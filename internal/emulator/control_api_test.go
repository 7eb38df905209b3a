package emulator_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

func TestControlIndex(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	for _, p := range []string{"/_emulator/", "/_emulator"} {
		r := e.do("GET", p, "", nil)
		expectStatus(t, r, http.StatusOK)
		for _, ep := range []string{
			"GET    /_emulator/", "POST   /_emulator/webhooks", "DELETE /_emulator/webhooks/{id}", "POST   /_emulator/videos",
			"POST   /_emulator/live-streams ", "DELETE /_emulator/live-streams/{id}", "DELETE /_emulator/players/{id}",
			"/live-streams/{id}/broadcast/start", "/live-streams/{id}/broadcast/end",
			"/live-streams/{id}/record", "/videos/{id}/captions", "/videos/{id}/summary", "GET    /_emulator/deliveries",
			"POST   /_emulator/clock/advance", "PUT    /_emulator/faults", "POST   /_emulator/tokens/revoke", "GET    /_emulator/stats",
		} {
			if !strings.Contains(string(r.raw), ep) {
				t.Errorf("index lacks %q", ep)
			}
		}
	}
}

func TestControlWebhooksAndErrors(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	c := e.ctl("POST", "/webhooks", map[string]any{"url": "https://r.test", "events": []string{"video.summary.generated"}})
	expectStatus(t, c, http.StatusCreated)
	if c.str("signatureSecret") == "" || !webhookIDRe.MatchString(c.str("webhookId")) {
		t.Errorf("control create: %s", c.raw)
	}
	// Created outside: the service sees it.
	expectStatus(t, e.api("GET", "/webhooks/"+c.str("webhookId"), nil), http.StatusOK)
	expectStatus(t, e.ctl("DELETE", "/webhooks/"+c.str("webhookId"), nil), http.StatusNoContent)
	expectStatus(t, e.api("GET", "/webhooks/"+c.str("webhookId"), nil), http.StatusNotFound)
	expectStatus(t, e.ctl("DELETE", "/webhooks/"+c.str("webhookId"), nil), http.StatusNotFound)
	if e.emu.DeleteWebhook(c.str("webhookId")) {
		t.Error("DeleteWebhook of a deleted webhook reported true")
	}

	for _, tc := range []struct {
		method, path string
		body         any
		status       int
	}{
		{method: "POST", path: "/webhooks", body: map[string]any{"url": "mailto:x", "events": []string{"video.summary.generated"}}, status: 400},
		{method: "POST", path: "/webhooks", body: map[string]any{"url": "https://r.test", "events": "video.summary.generated"}, status: 400},
		{method: "POST", path: "/webhooks", body: "{", status: 400},
		{method: "GET", path: "/webhooks", status: 405},
		{method: "GET", path: "/nowhere", status: 404},
		{method: "POST", path: "/live-streams/li_none/broadcast/start", status: 404},
		{method: "POST", path: "/live-streams/li_none/broadcast/pause", status: 404},
		{method: "POST", path: "/live-streams/li_none/record", status: 404},
		{method: "POST", path: "/videos/vi_none/captions", body: map[string]any{"language": "en"}, status: 404},
		{method: "POST", path: "/videos/vi_none/summary", status: 404},
		{method: "POST", path: "/videos", body: map[string]any{"titel": "typo"}, status: 400},
		{method: "POST", path: "/videos", body: map[string]any{"metadata": 3}, status: 400},
		{method: "POST", path: "/clock/advance", body: map[string]any{}, status: 400},
		{method: "POST", path: "/clock/advance", body: map[string]any{"seconds": -5}, status: 400},
		{method: "DELETE", path: "/stats", status: 405},
		{method: "GET", path: "/stats/", status: 404},
		{method: "GET", path: "//stats", status: 404},
		{method: "GET", path: "/./stats", status: 404},
		{method: "GET", path: "/x/../stats", status: 404},
		{method: "PATCH", path: "/live-streams/li_none", status: 405},
		{method: "POST", path: "/players/pt_none", status: 405},
		{method: "DELETE", path: "/players/pt_none", status: 404},
		{method: "DELETE", path: "/live-streams/li_none", status: 404},
	} {
		r := e.ctl(tc.method, tc.path, tc.body)
		expectStatus(t, r, tc.status)
		if r.num("status") != tc.status || r.str("title") == "" || r.header.Get("Content-Type") != "application/json" {
			t.Errorf("%s %s: %s", tc.method, tc.path, r.raw)
		}
		if allow := r.header.Get("Allow"); (tc.status == http.StatusMethodNotAllowed) != (allow != "") {
			t.Errorf("%s %s: Allow %q on a %d", tc.method, tc.path, allow, tc.status)
		}
	}
	// HEAD is refused as the service refuses it, although the mux would let a GET route answer
	// it, and the Allow header of any 405 leaves it out. A HEAD answer has no body to check.
	for _, tc := range []struct{ method, path, allow string }{
		{"HEAD", "/stats", "GET"},
		{"HEAD", "/faults", "GET, PUT"},
		{"HEAD", "/", "GET"},
		{"DELETE", "/faults", "GET, PUT"},
		{"DELETE", "/deliveries", "GET"},
	} {
		r := e.ctl(tc.method, tc.path, nil)
		expectStatus(t, r, http.StatusMethodNotAllowed)
		if allow := r.header.Get("Allow"); allow != tc.allow || r.header.Get("Content-Type") != "application/json" {
			t.Errorf("%s %s: Allow %q, Content-Type %q; want Allow %q", tc.method, tc.path, allow, r.header.Get("Content-Type"), tc.allow)
		}
	}
	expectStatus(t, e.ctl("HEAD", "/nowhere", nil), http.StatusNotFound)
	v := e.ctl("POST", "/videos", nil)
	expectStatus(t, v, http.StatusCreated)
	expectStatus(t, e.ctl("POST", "/videos/"+v.str("videoId")+"/captions", map[string]any{"language": "not a tag"}), http.StatusBadRequest)
	capt := e.ctl("POST", "/videos/"+v.str("videoId")+"/captions", nil)
	if capt.str("language") != "en" || capt.str("generationMode") != "transcript" {
		t.Errorf("default caption: %s", capt.raw)
	}
}

func TestControlNotCountedNorLimited(t *testing.T) {
	e := newEnv(t, emulator.Options{Limits: emulator.Limits{Reads: 1, Writes: 1}})
	for range 5 {
		r := e.ctl("GET", "/stats", nil)
		expectStatus(t, r, http.StatusOK)
		if r.header.Get("X-RateLimit-Limit") != "" {
			t.Fatal("control answers carry rate-limit headers")
		}
		expectStatus(t, e.ctl("POST", "/videos", map[string]any{"title": "t"}), http.StatusCreated)
	}
	e.api("GET", "/webhooks", nil)
	e.api("GET", "/webhooks?pageSize=5", nil)
	e.api("GET", "/webhooks/webhook_x", nil)
	e.api("DELETE", "/webhooks/webhook_x", nil)
	e.api("GET", "/videos", nil)
	for _, tc := range []struct {
		method, prefix string
		want           int
	}{
		{"GET", "/webhooks", 3}, {"DELETE", "/webhooks", 1}, {"", "/webhooks", 4}, {"", "/", 5}, {"GET", "/videos", 1}, {"", "/_emulator", 0},
	} {
		if got := e.emu.RequestCount(tc.method, tc.prefix); got != tc.want {
			t.Errorf("RequestCount(%q, %q) = %d, want %d", tc.method, tc.prefix, got, tc.want)
		}
	}
	s := e.ctl("GET", "/stats", nil)
	if s.num("total") != 5 {
		t.Errorf("stats: %s", s.raw)
	}
	rows, _ := s.body["requests"].([]any)
	if len(rows) != 4 {
		t.Errorf("stats rows: %v", rows)
	}
}

func TestControlToken(t *testing.T) {
	e := newEnv(t, emulator.Options{ControlToken: "s3cret"})
	expectStatus(t, e.do("GET", "/_emulator/", "", nil), http.StatusUnauthorized)
	expectStatus(t, e.do("GET", "/_emulator/stats", "Bearer wrong", nil), http.StatusUnauthorized)
	expectStatus(t, e.do("GET", "/_emulator/stats", basic(e.key), nil), http.StatusUnauthorized)
	expectStatus(t, e.do("GET", "/_emulator/stats", "Bearer s3cret", nil), http.StatusOK)
	// The service API is unaffected by the control token.
	expectStatus(t, e.api("GET", "/webhooks", nil), http.StatusOK)
}

func TestControlFaultsReadErrorRateAndInjected(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	p := e.ctl("PUT", "/faults", map[string]any{"readErrorRate": 1, "burst429": 1})
	expectStatus(t, p, http.StatusOK)
	if p.num("readErrorRate") != 1 || p.num("burst429") != 1 {
		t.Errorf("PUT answer: %s", p.raw)
	}
	if f := e.emu.CurrentFaults(); f.ReadErrorRate != 1 || f.ErrorRate != 0 {
		t.Errorf("CurrentFaults after PUT: %+v", f)
	}
	expectStatus(t, e.api("GET", "/webhooks", nil), http.StatusTooManyRequests)
	expectStatus(t, e.api("GET", "/webhooks", nil), http.StatusInternalServerError)
	expectStatus(t, e.api("POST", "/webhooks", map[string]any{"url": "https://r.test", "events": []string{"video.summary.generated"}}), http.StatusCreated)
	g := e.ctl("GET", "/faults", nil)
	expectStatus(t, g, http.StatusOK)
	inj, ok := g.body["injected"].(map[string]any)
	if !ok {
		t.Fatalf("GET /faults lacks \"injected\": %s", g.raw)
	}
	want := map[string]float64{"error500": 0, "readError500": 1, "burst429": 1, "commitThen500": 0, "uploadCommitThen500": 0, "uploadCut": 0}
	for k, v := range want {
		if got, ok := inj[k].(float64); !ok || got != v {
			t.Errorf("injected.%s = %v, want %v (%s)", k, inj[k], v, g.raw)
		}
	}
	if len(inj) != len(want) {
		t.Errorf("injected has %d members, want %d: %s", len(inj), len(want), g.raw)
	}
	// The counts are read-only, and the read rate is validated like the others.
	for _, bad := range []any{
		map[string]any{"injected": map[string]any{"error500": 0}},
		map[string]any{"readErrorRate": 1.5}, map[string]any{"readErrorRate": -0.1},
	} {
		expectStatus(t, e.ctl("PUT", "/faults", bad), http.StatusBadRequest)
	}
	if f := e.emu.CurrentFaults(); f.ReadErrorRate != 1 {
		t.Errorf("a refused PUT changed the faults: %+v", f)
	}
	if !strings.Contains(emulator.ControlIndex, `"readErrorRate"`) || !strings.Contains(emulator.ControlIndex, `"injected"`) {
		t.Error("the control index does not document readErrorRate and injected")
	}
}
