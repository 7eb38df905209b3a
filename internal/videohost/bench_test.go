package videohost

import (
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
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

// BenchmarkUploadVideoSource uploads a 256 MiB file to a loopback server that reads the
// multipart stream and discards it, at a few chunk sizes and numbers of chunks in flight, and
// reports the throughput (MB/s, from SetBytes) and the allocations of one whole upload. The
// reference of the same loopback is BenchmarkUploadRawPost: one bare POST of the same bytes.
func BenchmarkUploadVideoSource(b *testing.B) {
	const size = 256 << 20
	d := newDiscardService(b)
	src := sourceFile(b, size)
	for _, chunk := range []int64{5 << 20, 50 << 20, 200 << 20} {
		for _, inFlight := range []int{1, 2, 4} {
			b.Run(fmt.Sprintf("chunk=%dMiB/in_flight=%d", chunk>>20, inFlight), func(b *testing.B) {
				c := d.client(b)
				b.SetBytes(size)
				b.ReportAllocs()
				for b.Loop() {
					d.reset()
					if _, err := c.UploadVideoSource(b.Context(), vid, src, UploadOptions{ChunkSize: chunk, ChunksInFlight: inFlight}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkUploadRawPost is the reference of BenchmarkUploadVideoSource: the same file and
// server, one bare net/http POST of the file as one multipart part, written through io.Pipe by
// mime/multipart (what curl -F sends, and the plainest Go client's way), with no client around it.
func BenchmarkUploadRawPost(b *testing.B) {
	const size = 256 << 20
	d := newDiscardService(b)
	src := sourceFile(b, size)
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		d.reset()
		pr, pw := io.Pipe()
		mw := multipart.NewWriter(pw)
		go func() {
			part, err := mw.CreateFormFile("file", "source.mp4")
			if err == nil {
				_, err = io.Copy(part, io.NewSectionReader(src.Reader, 0, size))
			}
			if err == nil {
				err = mw.Close()
			}
			pw.CloseWithError(err)
		}()
		req, err := http.NewRequestWithContext(b.Context(), http.MethodPost, d.srv.URL+"/videos/"+vid+"/source", pr)
		if err != nil {
			b.Fatal(err)
		}
		req.Header.Set("Content-Type", mw.FormDataContentType())
		resp, err := d.srv.Client().Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusCreated || d.received != size {
			b.Fatalf("status %d, %d bytes received", resp.StatusCode, d.received)
		}
	}
}

// BenchmarkDecodeVideoPage decodes a page of 100 videos as the service writes them (the data
// of one read of a list walk), the work of the records' UnmarshalJSON.
func BenchmarkDecodeVideoPage(b *testing.B) {
	page := []byte(`{"data":[` + strings.Repeat(videoSample+",", 99) + videoSample + `]}`)
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		var out struct{ Data []Video }
		if err := json.Unmarshal(page, &out); err != nil || len(out.Data) != 100 {
			b.Fatalf("%d videos, %v", len(out.Data), err)
		}
	}
}
