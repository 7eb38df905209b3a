package videohost

import (
	"fmt"
	"net/http"
	"testing"
	"time"
)

// BenchmarkLookupWebhook compares a refresh of 250 webhook resources done with GetWebhook
// (one read each) and with LookupWebhook (one shared list), reporting the reads each costs
// against the service's read limit.
func BenchmarkLookupWebhook(b *testing.B) {
	for _, ttl := range []time.Duration{0, time.Minute} {
		b.Run(fmt.Sprintf("ttl=%s", ttl), func(b *testing.B) {
			store := newWebhookStore(250)
			f := newFakeService(b, store.serve)
			cfg := Config{BaseURL: f.srv.URL, APIKey: testKey, HTTPClient: f.srv.Client(), WebhookListTTL: ttl}
			for b.Loop() {
				c, err := New(cfg)
				if err != nil {
					b.Fatal(err)
				}
				for i := range 250 {
					if _, err := c.LookupWebhook(b.Context(), fmt.Sprintf("wh-%04d", i)); err != nil {
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
