package emulator_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// controlCall sends method path to the emulator served by e with the given Host (empty: the
// server's address), headers and body, and returns the status.
func controlCall(t *testing.T, e *env, method, path, host string, header map[string]string, body string) int {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, e.srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	return resp.StatusCode
}

const hookBody = `{"url":"https://r.test/x","events":["video.summary.generated"]}`

// TestControlRefusesCrossSiteRequests: a page of another site can send a POST that needs no
// preflight (text/plain, a form) and names itself in Origin; neither that nor any body that is
// not JSON reaches the control API, and nothing is created.
func TestControlRefusesCrossSiteRequests(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	evil := map[string]string{"Origin": "https://evil.example", "Content-Type": "text/plain"}
	for _, tc := range []struct {
		name   string
		header map[string]string
	}{
		{"text/plain from another site", evil},
		{"JSON from another site", map[string]string{"Origin": "https://evil.example", "Content-Type": "application/json"}},
		{"an opaque origin", map[string]string{"Origin": "null", "Content-Type": "application/json"}},
		{"text/plain without Origin", map[string]string{"Content-Type": "text/plain"}},
		{"a form", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}},
		{"no Content-Type", nil},
		{"another port of loopback", map[string]string{"Origin": "http://127.0.0.1:1", "Content-Type": "application/json"}},
	} {
		if s := controlCall(t, e, "POST", "/_emulator/webhooks", "", tc.header, hookBody); s != http.StatusForbidden {
			t.Errorf("%s: POST /_emulator/webhooks answered %d, want 403", tc.name, s)
		}
	}
	if s := controlCall(t, e, "POST", "/_emulator/tokens/revoke", "", map[string]string{"Origin": "https://evil.example"}, ""); s != http.StatusForbidden {
		t.Errorf("a cross-site revoke answered %d, want 403", s)
	}
	if hooks := e.emu.Webhooks(); len(hooks) != 0 {
		t.Errorf("%d webhooks created by refused requests", len(hooks))
	}
	// The emulator's own page, and tools that send no Origin, are served.
	own := map[string]string{"Origin": e.srv.URL, "Content-Type": "application/json; charset=utf-8"}
	if s := controlCall(t, e, "POST", "/_emulator/webhooks", "", own, hookBody); s != http.StatusCreated {
		t.Errorf("same-origin JSON answered %d, want 201", s)
	}
	if s := controlCall(t, e, "POST", "/_emulator/tokens/revoke", "", nil, ""); s != http.StatusNoContent {
		t.Errorf("a revoke with no body answered %d, want 204", s)
	}
}

// TestControlRefusesRebindingHosts: a page whose own name resolves to the emulator's address
// sends its name in Host; only the loopback names and addresses, the address the emulator was
// reached on, and the allowed hosts are served.
func TestControlRefusesRebindingHosts(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(e.srv.URL, "http://"))
	for host, want := range map[string]int{
		"rebind.evil.example":         http.StatusForbidden,
		"rebind.evil.example:" + port: http.StatusForbidden,
		"localhost.evil.example":      http.StatusForbidden,
		"127.0.0.1.nip.io":            http.StatusForbidden,
		"localhost:" + port:           http.StatusOK,
		"LOCALHOST.":                  http.StatusOK,
		"127.0.0.1:" + port:           http.StatusOK,
		"127.8.9.10":                  http.StatusOK,
		"[::1]:" + port:               http.StatusOK,
	} {
		if s := controlCall(t, e, "GET", "/_emulator/stats", host, nil, ""); s != want {
			t.Errorf("Host %q: %d, want %d", host, s, want)
		}
	}
	if s := controlCall(t, e, "POST", "/_emulator/webhooks", "rebind.evil.example", map[string]string{"Content-Type": "application/json"}, hookBody); s != http.StatusForbidden {
		t.Errorf("a rebound create answered %d, want 403", s)
	}
	// The service's API is not the control API: it answers any Host, as the service does.
	if s := controlCall(t, e, "GET", "/webhooks", "rebind.evil.example", map[string]string{"Authorization": basic(e.key)}, ""); s != http.StatusOK {
		t.Errorf("GET /webhooks with another Host answered %d, want 200", s)
	}
}

// TestControlServesTheAddressItWasReachedOn: an emulator listening beyond loopback is reached
// on one of its addresses, which its Host then names; another address is refused.
func TestControlServesTheAddressItWasReachedOn(t *testing.T) {
	emu, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = emu.Close() })
	local := &net.TCPAddr{IP: net.ParseIP("192.0.2.7"), Port: 8080}
	for host, want := range map[string]int{"192.0.2.7:8080": http.StatusOK, "192.0.2.8:8080": http.StatusForbidden} {
		r := httptest.NewRequest("GET", "/_emulator/stats", nil)
		r.Host = host
		r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, local))
		w := httptest.NewRecorder()
		emu.ServeHTTP(w, r)
		if w.Code != want {
			t.Errorf("Host %s on a connection to %s: %d, want %d", host, local, w.Code, want)
		}
	}
}

// TestControlAllowFlags: ControlAllowHosts and ControlAllowOrigins allow a name and a page.
func TestControlAllowFlags(t *testing.T) {
	e := newEnv(t, emulator.Options{ControlAllowHosts: []string{"emu.test"}, ControlAllowOrigins: []string{"https://app.test"}})
	if s := controlCall(t, e, "GET", "/_emulator/stats", "emu.test:8080", nil, ""); s != http.StatusOK {
		t.Errorf("an allowed host answered %d", s)
	}
	if s := controlCall(t, e, "GET", "/_emulator/stats", "other.test", nil, ""); s != http.StatusForbidden {
		t.Errorf("a host not allowed answered %d", s)
	}
	h := map[string]string{"Origin": "https://app.test", "Content-Type": "application/json"}
	if s := controlCall(t, e, "POST", "/_emulator/webhooks", "", h, hookBody); s != http.StatusCreated {
		t.Errorf("an allowed origin answered %d", s)
	}
	h["Content-Type"] = "text/plain"
	if s := controlCall(t, e, "POST", "/_emulator/webhooks", "", h, hookBody); s != http.StatusForbidden {
		t.Errorf("an allowed origin's text/plain body answered %d, want 403: the body rule stays", s)
	}
}

// TestBrowserPathsKeepTheirCORS: the browser uploader's paths still answer any origin.
func TestBrowserPathsKeepTheirCORS(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	req, _ := http.NewRequestWithContext(t.Context(), "OPTIONS", e.srv.URL+"/upload", nil)
	req.Header.Set("Origin", "https://evil.example")
	req.Header.Set("Access-Control-Request-Method", "POST")
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("the preflight of /upload: %d, Access-Control-Allow-Origin %q", resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"))
	}
}
