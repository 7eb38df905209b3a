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
		{method: "GET", path: "/nowhere", status: 404, slug: "unrecognized-request-url", title: "Unrecognized request URL."},
		{method: "GET", path: "/webhooks/", status: 404, slug: "unrecognized-request-url", title: "Unrecognized request URL."},
		{method: "GET", path: "/webhooks/a/b", status: 404, slug: "unrecognized-request-url", title: "Unrecognized request URL."},
		{method: "PUT", path: "/webhooks", status: 405, slug: "method-not-allowed", title: "Method is not allowed for this route.", allow: "GET, POST"},
		{method: "PATCH", path: "/webhooks/webhook_x", status: 405, slug: "method-not-allowed", title: "Method is not allowed for this route.", allow: "GET, DELETE"},
		{method: "PUT", path: "/videos", status: 405, slug: "method-not-allowed", title: "Method is not allowed for this route.", allow: "GET, POST"},
		{method: "PUT", path: "/videos/vi1/source", status: 405, slug: "method-not-allowed", title: "Method is not allowed for this route.", allow: "POST"},
		{method: "GET", path: "/videos/vi1/unknown", status: 404, slug: "unrecognized-request-url", title: "Unrecognized request URL."},
		{method: "GET", path: "/videos/vi1/captions/en/x", status: 404, slug: "unrecognized-request-url", title: "Unrecognized request URL."},
		{method: "PUT", path: "/live-streams/li1", status: 405, slug: "method-not-allowed", title: "Method is not allowed for this route.", allow: "GET, PATCH, DELETE"},
		{method: "DELETE", path: "/live-streams", status: 405, slug: "method-not-allowed", title: "Method is not allowed for this route.", allow: "GET, POST"},
		{method: "PUT", path: "/players/pt1", status: 405, slug: "method-not-allowed", title: "Method is not allowed for this route.", allow: "GET, PATCH, DELETE"},
		{method: "PATCH", path: "/players", status: 405, slug: "method-not-allowed", title: "Method is not allowed for this route.", allow: "GET, POST"},
		{method: "GET", path: "/players/pt_missing", status: 404, slug: "resource-not-found", title: "The requested resource could not be found."},
		{method: "GET", path: "/videos/vi_missing", status: 404, slug: "resource-not-found", title: "The requested resource could not be found."},
		{method: "GET", path: "/live-streams/li_missing", status: 404, slug: "resource-not-found", title: "The requested resource could not be found."},
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
