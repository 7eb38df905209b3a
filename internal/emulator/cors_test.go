package emulator_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// corsRequest sends method to path from a page of another origin, as a browser would.
func corsRequest(t *testing.T, e *env, method, path string, header map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, e.srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Origin", "http://127.0.0.1:1234")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	return resp
}

// TestCORSForTheBrowserPaths: the three paths a browser uploader calls answer a preflight 204
// with the methods and headers it sends (not counted, not rate limited), and their answers,
// errors included, carry Access-Control-Allow-Origin; the rest of the API has no CORS.
func TestCORSForTheBrowserPaths(t *testing.T) {
	e := newEnv(t, emulator.Options{Limits: emulator.Limits{Uploads: 1, Writes: 1}})
	preflight := map[string]string{
		"Access-Control-Request-Method":  "POST",
		"Access-Control-Request-Headers": "av-origin-client,content-range,authorization",
	}
	for _, path := range []string{"/upload?token=toNope", "/videos/viSomething/source", "/auth/refresh"} {
		for range 3 { // more than the limits: a preflight is not rate limited
			resp := corsRequest(t, e, "OPTIONS", path, preflight)
			h := resp.Header
			if resp.StatusCode != http.StatusNoContent || h.Get("Access-Control-Allow-Origin") != "*" ||
				!strings.Contains(h.Get("Access-Control-Allow-Methods"), "POST") {
				t.Fatalf("preflight of %s: %d %v", path, resp.StatusCode, h)
			}
			for _, want := range []string{"AV-Origin-Client", "Content-Range", "Authorization"} {
				if !strings.Contains(h.Get("Access-Control-Allow-Headers"), want) {
					t.Errorf("preflight of %s: %s not allowed: %v", path, want, h)
				}
			}
		}
		resp := corsRequest(t, e, "POST", path, nil)
		if resp.StatusCode < 400 || resp.Header.Get("Access-Control-Allow-Origin") != "*" ||
			!strings.Contains(resp.Header.Get("Access-Control-Expose-Headers"), "X-RateLimit-Retry-After") {
			t.Errorf("POST %s from a page: %d %v", path, resp.StatusCode, resp.Header)
		}
	}
	if n := e.emu.RequestCount("OPTIONS", "/"); n != 0 {
		t.Errorf("%d preflights counted as API requests", n)
	}
	for _, path := range []string{"/webhooks", "/videos/viSomething", "/videos/viSomething/source/x"} {
		resp := corsRequest(t, e, "OPTIONS", path, preflight)
		if resp.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("%s answers CORS: %d %v", path, resp.StatusCode, resp.Header)
		}
	}
}
