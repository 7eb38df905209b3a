package emulator_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// benchServer serves an emulator on a real loopback listener with the rate limits raised out
// of the way, and returns a keep-alive client sized for parallel use.
func benchServer(b *testing.B) (*httptest.Server, *http.Client, string) {
	b.Helper()
	srv, emu := benchEmulator(b, emulator.Options{MaxWebhooks: 1 << 20})
	tr := &http.Transport{MaxIdleConns: 256, MaxIdleConnsPerHost: 256, IdleConnTimeout: time.Minute}
	b.Cleanup(tr.CloseIdleConnections)
	for i := range 20 {
		if _, err := emu.CreateWebhook(fmt.Sprintf("https://r.test/%d", i), []string{"video.summary.generated"}); err != nil {
			b.Fatal(err)
		}
	}
	return srv, &http.Client{Transport: tr}, basic("benchkey")
}

// benchEmulator serves an emulator of opts with the key "benchkey" on a loopback listener,
// with the rate limits raised out of the way; both stop when the benchmark ends.
func benchEmulator(b *testing.B, opts emulator.Options) (*httptest.Server, *emulator.Emulator) {
	b.Helper()
	opts.APIKeys = []string{"benchkey"}
	opts.Limits = emulator.Limits{Reads: 1 << 30, Writes: 1 << 30, Uploads: 1 << 30}
	emu, err := emulator.New(opts)
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(emu)
	b.Cleanup(func() {
		srv.Close()
		_ = emu.Close()
	})
	return srv, emu
}

func send(b *testing.B, c *http.Client, method, u, auth, body string, want int) []byte {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(b.Context(), method, u, rd)
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Authorization", auth)
	resp, err := c.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != want {
		b.Fatalf("%s %s: %d %s", method, u, resp.StatusCode, raw)
	}
	return raw
}

func reportRate(b *testing.B, n *atomic.Int64) {
	b.ReportMetric(float64(n.Load())/b.Elapsed().Seconds(), "requests/s")
}

// BenchmarkServeListWebhooks measures GET /webhooks (a page of 20) from parallel clients over
// loopback.
func BenchmarkServeListWebhooks(b *testing.B) {
	srv, c, auth := benchServer(b)
	var n atomic.Int64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			send(b, c, "GET", srv.URL+"/webhooks", auth, "", http.StatusOK)
			n.Add(1)
		}
	})
	reportRate(b, &n)
}

// BenchmarkServeCreateDelete measures POST /webhooks followed by DELETE /webhooks/{id}.
func BenchmarkServeCreateDelete(b *testing.B) {
	srv, c, auth := benchServer(b)
	var n atomic.Int64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			raw := send(b, c, "POST", srv.URL+"/webhooks", auth, `{"url":"https://r.test/x","events":["video.summary.generated"]}`, http.StatusCreated)
			i := strings.Index(string(raw), `"webhookId":"`)
			if i < 0 {
				b.Fatalf("no id in %s", raw)
			}
			id := string(raw[i+13 : i+13+30])
			send(b, c, "DELETE", srv.URL+"/webhooks/"+id, auth, "", http.StatusNoContent)
			n.Add(2)
		}
	})
	reportRate(b, &n)
}

// BenchmarkServeMixed interleaves lists, gets, creates and deletes.
func BenchmarkServeMixed(b *testing.B) {
	srv, c, auth := benchServer(b)
	var n atomic.Int64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			raw := send(b, c, "POST", srv.URL+"/webhooks", auth, `{"url":"https://r.test/y","events":["video.caption.generated"]}`, http.StatusCreated)
			i := strings.Index(string(raw), `"webhookId":"`)
			id := string(raw[i+13 : i+13+30])
			send(b, c, "GET", srv.URL+"/webhooks?pageSize=10&events=video.summary.generated", auth, "", http.StatusOK)
			send(b, c, "GET", srv.URL+"/webhooks/"+id, auth, "", http.StatusOK)
			send(b, c, "GET", srv.URL+"/webhooks", auth, "", http.StatusOK)
			send(b, c, "DELETE", srv.URL+"/webhooks/"+id, auth, "", http.StatusNoContent)
			n.Add(5)
		}
	})
	reportRate(b, &n)
}

// BenchmarkWalkVideos walks every page of 10,000 videos (100 pages of 100), as the videos data
// source does: one op is the whole walk.
func BenchmarkWalkVideos(b *testing.B) {
	srv, _ := benchEmulator(b, emulator.Options{SeedVideos: 10000})
	c := srv.Client()
	auth := basic("benchkey")
	b.ResetTimer()
	for b.Loop() {
		for page := 1; page <= 100; page++ {
			raw := send(b, c, http.MethodGet, fmt.Sprintf("%s/videos?currentPage=%d&pageSize=100", srv.URL, page), auth, "", http.StatusOK)
			if page == 100 && !strings.Contains(string(raw), "vi0000010000") {
				b.Fatalf("the last page does not hold the last video: %.200s", raw)
			}
		}
	}
}

// BenchmarkSourceChunk posts 5 MiB chunks of one source over loopback, streamed from a
// generator (each iteration one chunk, part N/*, so each is hashed by its own request), and
// reports the emulator's intake in MB/s: the ceiling that a client sending one chunk at a time
// can reach.
func BenchmarkSourceChunk(b *testing.B) {
	srv, _ := benchEmulator(b, emulator.Options{})
	c := srv.Client()
	auth := basic("benchkey")
	created := send(b, c, http.MethodPost, srv.URL+"/videos", auth, `{"title":"bench"}`, http.StatusCreated)
	var v struct {
		VideoID string `json:"videoId"`
	}
	if err := json.Unmarshal(created, &v); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(firstChunk)
	for i := 0; b.Loop(); i++ {
		body, contentType := pipeMultipart([]part{{field: "file", filename: "bench.mp4",
			body: io.LimitReader(&patternReader{off: int64(i) * firstChunk}, firstChunk)}})
		req, err := http.NewRequestWithContext(b.Context(), http.MethodPost, srv.URL+"/videos/"+v.VideoID+"/source", body)
		if err != nil {
			b.Fatal(err)
		}
		req.Header.Set("Content-Type", contentType)
		req.Header.Set("Content-Range", fmt.Sprintf("part %d/*", i+1))
		req.Header.Set("Authorization", auth)
		resp, err := c.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusCreated {
			b.Fatalf("chunk %d: %d", i+1, resp.StatusCode)
		}
	}
}

// BenchmarkRouting measures what the route table costs a request, in process with no network:
// each round sends an unknown path (404 before the credentials), a method that a nested route
// lacks (405 after the credentials and the rate limit) and a read of a missing caption (404 of
// its handler), the three ways a request leaves the router.
func BenchmarkRouting(b *testing.B) {
	_, emu := benchEmulator(b, emulator.Options{})
	auth := basic("benchkey")
	reqs := []struct {
		method, path string
		want         int
	}{
		{"GET", "/videos/vi1/nowhere", http.StatusNotFound},
		{"PUT", "/videos/vi1/captions/en", http.StatusMethodNotAllowed},
		{"GET", "/videos/vi_missing/captions/en", http.StatusNotFound},
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, tc := range reqs {
			req := httptest.NewRequest(tc.method, tc.path, nil)
			req.Header.Set("Authorization", auth)
			rec := httptest.NewRecorder()
			emu.ServeHTTP(rec, req)
			if rec.Code != tc.want {
				b.Fatalf("%s %s: %d %s", tc.method, tc.path, rec.Code, rec.Body)
			}
		}
	}
}
