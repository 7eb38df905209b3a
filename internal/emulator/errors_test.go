package emulator_test

import (
	"net/http"
	"testing"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

func TestErrorBodies(t *testing.T) {
	e := newEnv(t, emulator.Options{DocsURL: "https://docs.example.test/errors/"})
	for _, tc := range []struct {
		method, path string
		status       int
		slug, title  string
		allow        string
	}{
		{"GET", "/nowhere", 404, "unrecognized-request-url", "Unrecognized request URL.", ""},
		{"GET", "/webhooks/", 404, "unrecognized-request-url", "Unrecognized request URL.", ""},
		{"GET", "/webhooks/a/b", 404, "unrecognized-request-url", "Unrecognized request URL.", ""},
		{"PUT", "/webhooks", 405, "method-not-allowed", "Method is not allowed for this route.", "GET, POST"},
		{"PATCH", "/webhooks/webhook_x", 405, "method-not-allowed", "Method is not allowed for this route.", "GET, DELETE"},
		{"POST", "/videos", 405, "method-not-allowed", "Method is not allowed for this route.", "GET"},
		{"PUT", "/live-streams/li1", 405, "method-not-allowed", "Method is not allowed for this route.", "GET, PATCH, DELETE"},
		{"DELETE", "/live-streams", 405, "method-not-allowed", "Method is not allowed for this route.", "GET, POST"},
		{"PUT", "/players/pt1", 405, "method-not-allowed", "Method is not allowed for this route.", "GET, PATCH, DELETE"},
		{"PATCH", "/players", 405, "method-not-allowed", "Method is not allowed for this route.", "GET, POST"},
		{"GET", "/players/pt_missing", 404, "resource-not-found", "The requested resource could not be found.", ""},
		{"GET", "/videos/vi_missing", 404, "resource-not-found", "The requested resource could not be found.", ""},
		{"GET", "/live-streams/li_missing", 404, "resource-not-found", "The requested resource could not be found.", ""},
	} {
		r := e.api(tc.method, tc.path, nil)
		expectStatus(t, r, tc.status)
		if r.str("type") != "https://docs.example.test/errors/"+tc.slug || r.str("title") != tc.title || r.num("status") != tc.status {
			t.Errorf("%s %s: %s", tc.method, tc.path, r.raw)
		}
		if r.header.Get("Allow") != tc.allow {
			t.Errorf("%s %s: Allow %q, want %q", tc.method, tc.path, r.header.Get("Allow"), tc.allow)
		}
		if r.header.Get("Content-Type") != "application/json" {
			t.Errorf("%s %s: Content-Type %q", tc.method, tc.path, r.header.Get("Content-Type"))
		}
	}
	if r := e.api("GET", "/videos/vi_missing", nil); r.str("name") != "videoId" {
		t.Errorf("video 404 name: %s", r.raw)
	}
	if r := e.api("GET", "/live-streams/li_missing", nil); r.str("name") != "liveStreamId" {
		t.Errorf("live stream 404 name: %s", r.raw)
	}
	if r := e.api("GET", "/players/pt_missing", nil); r.str("name") != "playerId" {
		t.Errorf("player theme 404 name: %s", r.raw)
	}

	e.emu.SetFaults(emulator.Faults{ErrorRate: 1})
	r := e.api("GET", "/webhooks", nil)
	expectStatus(t, r, http.StatusInternalServerError)
	if r.str("title") != "Server error" || r.str("type") != "https://docs.example.test/errors/server-error" || r.num("status") != 500 {
		t.Errorf("500 body: %s", r.raw)
	}
}
