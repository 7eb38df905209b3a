// Command benchdeliveries drives `make bench-deliveries` against an emulator that the script
// started as a process: it serves a receiver on a loopback port that answers every delivery
// at once, subscribes W webhooks to video.encoding.quality.completed through the control API,
// creates V videos and uploads a small source to each (every source is encoded in 8
// qualities, so W x V x 8 deliveries are offered), and meanwhile reads one video every 20 ms
// and the emulator's resident memory every 100 ms. It ends when every delivery offered is
// accounted for, or at -timeout, and prints a table: the deliveries offered, delivered, failed
// and dropped, what the receiver got, the p50, p99 and max latency of the GETs and the peak
// RSS. The exit status is non-zero only when a must fails: a GET not answered 200, deliveries
// not accounted for (delivered + failed + dropped != offered), or the receiver's count not the
// emulator's.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// config is the command line.
type config struct {
	base, key        string
	pid              int
	webhooks, videos int
	timeout          time.Duration
}

func main() {
	var c config
	flag.StringVar(&c.base, "emulator", "", "the emulator's base URL")
	flag.StringVar(&c.key, "api-key", "", "an API key of the emulator")
	flag.IntVar(&c.pid, "pid", 0, "the emulator's process id, for its resident memory")
	flag.IntVar(&c.webhooks, "webhooks", 1000, "webhooks subscribed to video.encoding.quality.completed")
	flag.IntVar(&c.videos, "videos", 100, "videos uploaded and encoded")
	flag.DurationVar(&c.timeout, "timeout", 5*time.Minute, "time allowed for every delivery to be accounted for")
	flag.Parse()
	if err := run(c); err != nil {
		fmt.Fprintln(os.Stderr, "benchdeliveries:", err)
		os.Exit(1)
	}
}

// deliveryStats is the "deliveries" member of GET /_emulator/stats.
type deliveryStats struct {
	Offered, Delivered, Failed, Dropped, Pending int64
	Queue, Workers                               int
}

func run(c config) error {
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	var received atomic.Int64
	recvURL, stopRecv, err := serveReceiver(&received)
	if err != nil {
		return err
	}
	defer stopRecv()
	cl := &client{base: c.base, key: c.key, http: &http.Client{Timeout: 30 * time.Second}}
	for i := range c.webhooks {
		body := map[string]any{"url": fmt.Sprintf("%s/hook/%d", recvURL, i), "events": []string{"video.encoding.quality.completed"}}
		if _, err := cl.json(ctx, "POST", "/_emulator/webhooks", body, http.StatusCreated); err != nil {
			return fmt.Errorf("webhook %d: %w", i+1, err)
		}
	}
	rss := &rssSampler{pid: c.pid}
	go rss.run(ctx)
	start := time.Now()
	lat := &latencies{}
	first, err := cl.upload(ctx, 0)
	if err != nil {
		return err
	}
	probeCtx, stopProbe := context.WithCancel(ctx)
	probeDone := make(chan struct{})
	go func() { defer close(probeDone); lat.probe(probeCtx, cl, "/videos/"+first) }()
	for i := 1; i < c.videos; i++ {
		if _, err := cl.upload(ctx, i); err != nil {
			stopProbe()
			return err
		}
	}
	uploaded := time.Since(start)
	want := int64(c.webhooks) * int64(c.videos) * 8
	st, waitErr := waitAccounted(ctx, cl, want)
	elapsed := time.Since(start)
	stopProbe()
	<-probeDone
	report(c, st, received.Load(), lat, rss, uploaded, elapsed)
	return verdict(st, want, received.Load(), lat, waitErr)
}

// waitAccounted polls the statistics until want deliveries were offered and none is pending.
func waitAccounted(ctx context.Context, cl *client, want int64) (deliveryStats, error) {
	var st deliveryStats
	for {
		var s struct{ Deliveries deliveryStats }
		b, err := cl.json(ctx, "GET", "/_emulator/stats", nil, http.StatusOK)
		if err == nil {
			err = json.Unmarshal(b, &s)
		}
		if err != nil {
			return st, err
		}
		st = s.Deliveries
		if st.Offered >= want && st.Pending == 0 {
			return st, nil
		}
		select {
		case <-ctx.Done():
			return st, fmt.Errorf("not every delivery was accounted for in time: %+v", st)
		case <-time.After(500 * time.Millisecond):
		}
	}
}

func report(c config, st deliveryStats, received int64, lat *latencies, rss *rssSampler, uploaded, elapsed time.Duration) {
	p50, p99, most, n, failed := lat.summary()
	fmt.Printf("\n%d webhooks x %d videos x 8 qualities; %d workers, a queue of %d\n\n", c.webhooks, c.videos, st.Workers, st.Queue)
	fmt.Println("| measure | value |")
	fmt.Println("|---|---|")
	rows := [][2]string{
		{"deliveries offered", strconv.FormatInt(st.Offered, 10)},
		{"delivered", strconv.FormatInt(st.Delivered, 10)},
		{"failed", strconv.FormatInt(st.Failed, 10)},
		{"dropped (queue full)", strconv.FormatInt(st.Dropped, 10)},
		{"delivered + failed + dropped", strconv.FormatInt(st.Delivered+st.Failed+st.Dropped, 10)},
		{"received by the receiver", strconv.FormatInt(received, 10)},
		{"deliveries per second", fmt.Sprintf("%.0f", float64(st.Delivered)/elapsed.Seconds())},
		{"uploads of the videos, wall time", uploaded.Round(time.Millisecond).String()},
		{"until every delivery was accounted for", elapsed.Round(time.Millisecond).String()},
		{fmt.Sprintf("GET /videos/{id} meanwhile (%d, %d not 200): p50", n, failed), p50.String()},
		{"GET p99", p99.String()},
		{"GET max", most.String()},
		{"emulator RSS, peak (VmHWM)", mib(rss.peak())},
		{"emulator RSS, highest sample / at the end", mib(rss.most.Load()) + " / " + mib(rss.last.Load())},
	}
	for _, r := range rows {
		fmt.Printf("| %s | %s |\n", r[0], r[1])
	}
}

func verdict(st deliveryStats, want, received int64, lat *latencies, waitErr error) error {
	var errs []error
	if waitErr != nil {
		errs = append(errs, waitErr)
	}
	if st.Offered != want {
		errs = append(errs, fmt.Errorf("%d deliveries offered, want %d", st.Offered, want))
	}
	if st.Delivered+st.Failed+st.Dropped != st.Offered {
		errs = append(errs, fmt.Errorf("delivered %d + failed %d + dropped %d != offered %d", st.Delivered, st.Failed, st.Dropped, st.Offered))
	}
	if received != st.Delivered {
		errs = append(errs, fmt.Errorf("the receiver got %d deliveries, the emulator counts %d delivered", received, st.Delivered))
	}
	if _, _, _, n, failed := lat.summary(); failed > 0 || n == 0 {
		errs = append(errs, fmt.Errorf("%d of %d GETs were not answered 200", failed, n))
	}
	return errors.Join(errs...)
}

func mib(kib int64) string { return fmt.Sprintf("%.0f MiB", float64(kib)/1024) }

// serveReceiver answers every POST 200 at once and counts them.
func serveReceiver(n *atomic.Int64) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		n.Add(1)
	})}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String(), func() { _ = srv.Close() }, nil
}

// client calls the emulator with the API key (Basic) or, under /_emulator/, with nothing.
type client struct {
	base, key string
	http      *http.Client
}

func (c *client) do(ctx context.Context, method, path, ctype string, body io.Reader, want int) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return nil, err
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if !strings.HasPrefix(path, "/_emulator/") {
		req.SetBasicAuth(c.key, "")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != want {
		err = fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, b)
	}
	return b, err
}

func (c *client) json(ctx context.Context, method, path string, in any, want int) ([]byte, error) {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return nil, err
		}
		body = bytes.NewReader(b)
	}
	return c.do(ctx, method, path, "application/json", body, want)
}

// upload creates video i and uploads a 4 KiB source to it in one request; the emulator then
// ingests and encodes it in 8 qualities, each one an event.
func (c *client) upload(ctx context.Context, i int) (string, error) {
	b, err := c.json(ctx, "POST", "/videos", map[string]any{"title": fmt.Sprintf("bench %d", i)}, http.StatusCreated)
	if err != nil {
		return "", err
	}
	var v struct{ VideoID string }
	if err := json.Unmarshal(b, &v); err != nil {
		return "", err
	}
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, err := mw.CreateFormFile("file", fmt.Sprintf("bench-%d.mp4", i))
	if err != nil {
		return "", err
	}
	_, _ = fw.Write(bytes.Repeat([]byte{byte(i)}, 4096))
	if err := mw.Close(); err != nil {
		return "", err
	}
	_, err = c.do(ctx, "POST", "/videos/"+v.VideoID+"/source", mw.FormDataContentType(), &buf, http.StatusCreated)
	return v.VideoID, err
}

// latencies keeps the duration of every probe GET and counts the ones not answered 200.
type latencies struct {
	mu     sync.Mutex
	all    []time.Duration
	failed int
}

// probe reads path every 20 ms until ctx ends.
func (l *latencies) probe(ctx context.Context, c *client, path string) {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		t0 := time.Now()
		_, err := c.do(ctx, "GET", path, "", nil, http.StatusOK)
		d := time.Since(t0)
		if ctx.Err() != nil {
			return // Cancelled mid-request: neither a sample nor a failure.
		}
		l.mu.Lock()
		l.all = append(l.all, d)
		if err != nil {
			l.failed++
		}
		l.mu.Unlock()
	}
}

func (l *latencies) summary() (p50, p99, most time.Duration, n, failed int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := slices.Clone(l.all)
	slices.Sort(s)
	if len(s) == 0 {
		return 0, 0, 0, 0, l.failed
	}
	at := func(q float64) time.Duration {
		return s[min(len(s)-1, int(q*float64(len(s))))].Round(10 * time.Microsecond)
	}
	return at(0.50), at(0.99), s[len(s)-1].Round(10 * time.Microsecond), len(s), l.failed
}

// rssSampler reads the emulator's resident memory (KiB) from /proc every 100 ms.
type rssSampler struct {
	pid        int
	most, last atomic.Int64
}

func (r *rssSampler) run(ctx context.Context) {
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		if v := procStatus(r.pid, "VmRSS:"); v > 0 {
			r.last.Store(v)
			if v > r.most.Load() {
				r.most.Store(v)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// peak is the kernel's high-water mark of the emulator's resident memory.
func (r *rssSampler) peak() int64 { return procStatus(r.pid, "VmHWM:") }

// procStatus reads a "kB" field of /proc/<pid>/status; 0 when it cannot.
func procStatus(pid int, field string) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, field); ok {
			f := strings.Fields(rest)
			if len(f) > 0 {
				v, _ := strconv.ParseInt(f[0], 10, 64)
				return v
			}
		}
	}
	return 0
}
