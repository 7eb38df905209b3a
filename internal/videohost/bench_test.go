package videohost

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// BenchmarkLookupWebhook compares a refresh of 250 webhook resources that read each webhook
// (GetWebhook, one read each, and still without the secret that only the list holds) with one
// that looks each up in the list the client shares for a minute, reporting the reads each costs
// against the service's read limit.
func BenchmarkLookupWebhook(b *testing.B) {
	for _, shared := range []bool{false, true} {
		b.Run(fmt.Sprintf("shared_list=%t", shared), func(b *testing.B) {
			store := newWebhookStore(250)
			f := newFakeService(b, store.serve)
			cfg := Config{BaseURL: f.srv.URL, APIKey: testKey, HTTPClient: f.srv.Client(), ListTTL: time.Minute}
			lookup := func(c *Client, id string) (Webhook, error) { return c.GetWebhook(b.Context(), id) }
			if shared {
				lookup = func(c *Client, id string) (Webhook, error) { return c.LookupWebhook(b.Context(), id) }
			}
			for b.Loop() {
				c, err := New(cfg)
				if err != nil {
					b.Fatal(err)
				}
				for i := range 250 {
					if _, err := lookup(c, fmt.Sprintf("wh-%04d", i)); err != nil {
						b.Fatal(err)
					}
				}
			}
			reads := 0
			for _, s := range f.requests() {
				if s.method == http.MethodGet {
					reads++
				}
			}
			b.ReportMetric(float64(reads)/float64(b.N), "reads/refresh")
		})
	}
}

func BenchmarkSign(b *testing.B) {
	body := []byte(signatureVectors[0].body)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		Sign("sig-secret-7Hq2", body)
	}
}

// BenchmarkClientOverhead measures what the client adds to one request: the same GET of one
// webhook against a loopback server, through GetWebhook (authentication, rate gate, retries
// policy, error mapping, logging) and through a bare net/http call with the same headers and
// the same JSON decode. The difference of the two ns/op is the client's overhead per request;
// scripts/bench.sh prints their ratio.
func BenchmarkClientOverhead(b *testing.B) {
	body, err := json.Marshal(webhookJSON("wh-0001", false))
	if err != nil {
		b.Fatal(err)
	}
	const token = "access-tok-bench-Xy7"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if r.URL.Path == "/auth/api-key" {
			writeJSON(w, http.StatusOK, map[string]any{
				"token_type": "Bearer", "expires_in": 3600, "access_token": token, "refresh_token": "refresh-tok-bench-Qw3",
			})
			return
		}
		// A budget that no run spends, so that the gate never holds a request.
		rateHeadersOf(w, 1_000_000_000, 999_999_999, 60)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	defer srv.Close()

	b.Run("client", func(b *testing.B) {
		c, err := New(Config{BaseURL: srv.URL, APIKey: testKey, HTTPClient: srv.Client(), Version: "bench"})
		if err != nil {
			b.Fatal(err)
		}
		// The token exchange and the first answer's rate headers are not per-request costs.
		if _, err := c.GetWebhook(b.Context(), "wh-0001"); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			w, err := c.GetWebhook(b.Context(), "wh-0001")
			if err != nil || w.ID != "wh-0001" {
				b.Fatalf("GetWebhook: %v %+v", err, w)
			}
		}
	})

	b.Run("bare", func(b *testing.B) {
		hc := srv.Client()
		url := srv.URL + "/webhooks/wh-0001"
		b.ReportAllocs()
		for b.Loop() {
			req, err := http.NewRequestWithContext(b.Context(), http.MethodGet, url, nil)
			if err != nil {
				b.Fatal(err)
			}
			req.Header.Set("Authorization", "Bearer "+token)
			req.Header.Set("Accept", "application/json")
			req.Header.Set("User-Agent", "bench")
			resp, err := hc.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			var w Webhook
			err = json.NewDecoder(resp.Body).Decode(&w)
			_ = resp.Body.Close()
			if err != nil || resp.StatusCode != http.StatusOK || w.ID != "wh-0001" {
				b.Fatalf("bare GET: %d %v %+v", resp.StatusCode, err, w)
			}
		}
	})
}
