package emulator_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// FuzzHandler sends arbitrary methods, paths, queries, bodies and headers straight to the
// handler; its seeds (testdata/fuzz/FuzzHandler) are every endpoint and every row of the
// specification's error table. Properties:
//   - the emulator never panics and answers a status between 200 and 599;
//   - every JSON answer is valid JSON, and a 204 has no body;
//   - every error of the service API (not the control API) is the specification's error object:
//     type under the docs URL, a title, and status equal to the status line;
//   - every answer of a service endpoint carries the three rate-limit headers as whole numbers,
//     and only unknown paths and /auth/ carry none (doc.go);
//   - a token answer has token_type Bearer, a positive expires_in and both tokens;
//   - a page has its data, currentPageItems equal to the items served, a pageSize of 1 to 100,
//     a currentPage of at least 1 and its links.
func FuzzHandler(f *testing.F) {
	// Event deliveries go to the URLs of the webhooks that inputs create, which may name any
	// host: the emulator's delivery client (a clone of http.DefaultTransport, taken by New) is
	// made to refuse every connection, so that fuzzing never reaches the network or another
	// process's listener. Fuzz targets run alone, after the tests, so the swap races nothing.
	saved := http.DefaultTransport
	http.DefaultTransport = &http.Transport{
		Proxy: nil,
		DialContext: func(context.Context, string, string) (net.Conn, error) {
			return nil, errors.New("fuzz: event deliveries do not leave the process")
		},
	}
	emu, err := emulator.New(emulator.Options{
		APIKeys: []string{"fuzzkey"}, OtherEnvironmentKeys: []string{"otherkey"}, SeedVideos: 6, SeedLiveStreams: 2,
		Limits: emulator.Limits{Reads: 1 << 30, Writes: 1 << 30}, MaxWebhooks: 50,
		DeliveryRetries: -1, DeliveryTimeout: 50 * time.Millisecond,
	})
	http.DefaultTransport = saved
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { _ = emu.Close() })
	// The seeds are the files of testdata/fuzz/FuzzHandler: every endpoint, every row of the
	// specification's error table and the control API.
	f.Fuzz(func(t *testing.T, method, path, query, body, auth string) {
		if !validMethod(method) {
			return
		}
		// Faults set by one input are taken back after it: a latency would slow every later
		// input down (up to an hour: the request's context never ends; JSON member names match
		// in any case, so no filter on the body's text catches them all), an error rate of 1
		// would answer every later input 500, and an input that fails must fail again alone,
		// from its file. The faults' own answers are the business of faults_test.go.
		defer emu.SetFaults(emulator.Faults{})
		u := &url.URL{Path: "/" + strings.TrimPrefix(path, "/"), RawQuery: query}
		req := httptest.NewRequest(http.MethodGet, "/", bytes.NewReader([]byte(body)))
		req.Method = method
		req.URL = u
		req.RequestURI = u.RequestURI()
		if auth != "" {
			req.Header["Authorization"] = []string{auth}
		}
		rec := httptest.NewRecorder()
		emu.ServeHTTP(rec, req)
		if rec.Code < 200 || rec.Code > 599 {
			t.Fatalf("status %d", rec.Code)
		}
		if ct := rec.Header().Get("Content-Type"); ct == "application/json" && !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("invalid JSON answer: %q", rec.Body.String())
		}
		if rec.Code == http.StatusNoContent && rec.Body.Len() != 0 {
			t.Fatalf("204 with a body")
		}
		if p := u.Path; p == "/_emulator" || strings.HasPrefix(p, "/_emulator/") {
			return
		}
		checkServiceAnswer(t, u.Path, rec)
	})
}

// rateLimitHeaders are the rate-limit headers of every answer of a service endpoint.
var rateLimitHeaders = []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Retry-After"}

// checkServiceAnswer checks one answer of the service API against the specification.
func checkServiceAnswer(t *testing.T, path string, rec *httptest.ResponseRecorder) {
	t.Helper()
	var obj map[string]any
	if rec.Body.Len() > 0 {
		if err := json.Unmarshal(rec.Body.Bytes(), &obj); err != nil {
			t.Fatalf("%d answer of the service API is not a JSON object: %q", rec.Code, rec.Body.String())
		}
	}
	unknownPath := false
	if rec.Code >= 400 {
		typ, _ := obj["type"].(string)
		title, _ := obj["title"].(string)
		status, _ := obj["status"].(float64)
		if !strings.HasPrefix(typ, "https://docs.api.video/reference/") || title == "" || status != float64(rec.Code) {
			t.Fatalf("%d: not the error object of the specification: %q", rec.Code, rec.Body.String())
		}
		unknownPath = rec.Code == http.StatusNotFound && strings.HasSuffix(typ, "/unrecognized-request-url")
	}
	auth := path == "/auth/api-key" || path == "/auth/refresh"
	for _, h := range rateLimitHeaders {
		v := rec.Header().Values(h)
		switch {
		case auth || unknownPath:
			if len(v) != 0 {
				t.Fatalf("%s answer %d carries %s", path, rec.Code, h)
			}
		case len(v) != 1 || !isWholeNumber(v[0]):
			t.Fatalf("%s answer %d: %s = %q, want one whole number", path, rec.Code, h, v)
		}
	}
	if rec.Code != http.StatusOK && rec.Code != http.StatusCreated {
		return
	}
	if auth {
		expires, _ := obj["expires_in"].(float64)
		access, _ := obj["access_token"].(string)
		refresh, _ := obj["refresh_token"].(string)
		if obj["token_type"] != "Bearer" || expires <= 0 || access == "" || refresh == "" {
			t.Fatalf("token answer %q", rec.Body.String())
		}
		return
	}
	if pg, ok := obj["pagination"].(map[string]any); ok {
		data, isList := obj["data"].([]any)
		_, hasLinks := pg["links"].([]any)
		items, _ := pg["currentPageItems"].(float64)
		size, _ := pg["pageSize"].(float64)
		current, _ := pg["currentPage"].(float64)
		if !isList || !hasLinks || int(items) != len(data) || size < 1 || size > 100 || current < 1 {
			t.Fatalf("page %q", rec.Body.String())
		}
	}
}

func isWholeNumber(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func validMethod(m string) bool {
	if m == "" || len(m) > 16 {
		return false
	}
	for _, c := range m {
		if c < 'A' || c > 'Z' {
			return false
		}
	}
	return true
}
