package emulator_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// FuzzHandler sends arbitrary methods, paths, queries, bodies and headers straight to the
// handler. The emulator must never panic, must answer a status between 200 and 599, and every
// non-empty answer of the service API must be JSON.
func FuzzHandler(f *testing.F) {
	emu, err := emulator.New(emulator.Options{
		APIKeys: []string{"fuzzkey"}, OtherEnvironmentKeys: []string{"otherkey"}, SeedVideos: 6, SeedLiveStreams: 2,
		Limits: emulator.Limits{Reads: 1 << 30, Writes: 1 << 30}, MaxWebhooks: 50,
		DeliveryRetries: -1, DeliveryTimeout: 50 * time.Millisecond,
	})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { _ = emu.Close() })
	basicAuth := "Basic ZnV6emtleTo=" // fuzzkey:
	for _, s := range []struct{ method, path, query, body, auth string }{
		{"GET", "/webhooks", "", "", basicAuth},
		{"GET", "/webhooks", "currentPage=2&pageSize=1&events=video.summary.generated", "", basicAuth},
		{"POST", "/webhooks", "", `{"url":"https://a.test","events":["video.summary.generated"]}`, basicAuth},
		{"POST", "/webhooks", "", `{"url":5,"events":"x","extra":null}`, basicAuth},
		{"POST", "/webhooks", "", `[`, basicAuth},
		{"DELETE", "/webhooks/webhook_x", "", "", basicAuth},
		{"GET", "/videos", "tags[]=seed&metadata[category]=music&sortBy=title&sortOrder=desc", "", basicAuth},
		{"GET", "/videos/vi0000000001", "", "", basicAuth},
		{"GET", "/live-streams", "streamKey=x&name=y&sortBy=name", "", basicAuth},
		{"POST", "/auth/api-key", "", `{"apiKey":"fuzzkey"}`, ""},
		{"POST", "/auth/refresh", "", `{"refreshToken":"x"}`, ""},
		{"GET", "/webhooks", "", "", "Bearer eyJhbGciOiJub25lIn0.e30."},
		{"GET", "/webhooks", "", "", "Basic b3RoZXJrZXk6"},
		{"PATCH", "/webhooks", "", "", basicAuth},
		{"GET", "/_emulator/", "", "", ""},
		{"POST", "/_emulator/videos", "", `{"title":"t","duration":1e308,"metadata":{"a":"b"}}`, ""},
		{"POST", "/_emulator/live-streams/li0000000001/record", "", `{"duration":-1}`, ""},
		{"POST", "/_emulator/live-streams/li0000000001/broadcast/start", "", "", ""},
		{"POST", "/_emulator/videos/vi0000000001/captions", "", `{"language":"zz-ZZZZZZZZZ"}`, ""},
		{"PUT", "/_emulator/faults", "", `{"errorRate":0.1,"latencyMs":0}`, ""},
		{"POST", "/_emulator/clock/advance", "", `{"seconds":1e300}`, ""},
		{"GET", "/_emulator/deliveries", "", "", ""},
		{"GET", "//webhooks/../x", "%zz", "\x00", "Basic !!!"},
	} {
		f.Add(s.method, s.path, s.query, s.body, s.auth)
	}
	f.Fuzz(func(t *testing.T, method, path, query, body, auth string) {
		if !validMethod(method) {
			return
		}
		// Latency faults would only slow the fuzzer down; everything else stays reachable.
		if strings.Contains(path, "faults") && strings.Contains(body, "latency") {
			return
		}
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
	})
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
