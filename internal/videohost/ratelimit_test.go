package videohost

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"
)

// notifyLogger signals once when a line passes match; it also records like captureLogger.
type notifyLogger struct {
	captureLogger
	match func(level, msg string, f map[string]any) bool
	once  sync.Once
	ch    chan struct{}
}

func newNotifyLogger(match func(level, msg string, f map[string]any) bool) *notifyLogger {
	return &notifyLogger{match: match, ch: make(chan struct{})}
}

func (l *notifyLogger) check(level, msg string, f map[string]any) {
	l.add(level, msg, f)
	if l.match(level, msg, f) {
		l.once.Do(func() { close(l.ch) })
	}
}

func (l *notifyLogger) Debug(_ context.Context, msg string, f map[string]any) {
	l.check("debug", msg, f)
}
func (l *notifyLogger) Info(_ context.Context, msg string, f map[string]any) { l.check("info", msg, f) }
func (l *notifyLogger) Warn(_ context.Context, msg string, f map[string]any) { l.check("warn", msg, f) }

func TestRateLimit429WaitsAndHoldsTheClass(t *testing.T) {
	var (
		mu     sync.Mutex
		gets   int
		tooAt  time.Time
		doneAt = map[string]time.Time{}
	)
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			rateHeadersOf(w, 40, 39, 60)
			writeJSON(w, http.StatusCreated, webhookJSON("wh-new", false))
			return
		}
		mu.Lock()
		gets++
		first := gets == 1
		if first {
			tooAt = time.Now()
		}
		mu.Unlock()
		if first {
			rateHeadersOf(w, 100, 0, 1)
			writeJSON(w, http.StatusTooManyRequests, tooMany)
			return
		}
		rateHeadersOf(w, 100, 50, 30)
		okWebhooks(w, r)
	})
	log := newNotifyLogger(func(_, msg string, f map[string]any) bool {
		return msg == logRateWait && f["reason"] == "429"
	})
	c := f.client(t, func(cfg *Config) { cfg.Logger = log })

	var wg sync.WaitGroup
	errs := make(chan error, 10)
	run := func(name string, fn func() error) {
		wg.Go(func() {
			if err := fn(); err != nil {
				errs <- err
			}
			mu.Lock()
			doneAt[name] = time.Now()
			mu.Unlock()
		})
	}
	list := func() error { _, err := c.ListWebhooks(t.Context(), ""); return err }
	run("first", list)
	// Wait until the client has seen the 429 and closed the gate of the reads.
	select {
	case <-log.ch:
	case <-time.After(10 * time.Second):
		t.Fatal("the client never logged its wait after the 429")
	}
	for _, name := range []string{"b", "c", "d"} {
		run(name, list)
	}
	run("write", func() error {
		_, err := c.CreateWebhook(t.Context(), CreateWebhookInput{URL: "https://example.org/h", Events: []string{"x"}})
		return err
	})
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}

	var postAt time.Time
	reads := 0
	for _, s := range f.requests() {
		switch {
		case s.method == http.MethodGet && s.at.After(tooAt):
			reads++
			if s.at.Sub(tooAt) < time.Second {
				t.Errorf("a read arrived %s after the 429, before Retry-After (1 s)", s.at.Sub(tooAt))
			}
		case s.method == http.MethodPost && s.path == "/webhooks":
			postAt = s.at
		}
	}
	if reads != 4 {
		t.Errorf("reads after the 429 = %d, want 4 (the retry and three others)", reads)
	}
	if d := postAt.Sub(tooAt); d >= time.Second {
		t.Errorf("the write waited %s: the reads' 429 must not hold the writes", d)
	}
}

func TestRateLimitRemainingZeroDelaysTheNextCall(t *testing.T) {
	var mu sync.Mutex
	n := 0
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		n++
		first := n == 1
		mu.Unlock()
		if first {
			rateHeadersOf(w, 100, 0, 1)
		} else {
			rateHeadersOf(w, 100, 99, 60)
		}
		okWebhooks(w, r)
	})
	log := &captureLogger{}
	c := f.client(t, func(cfg *Config) { cfg.Logger = log })
	for range 2 {
		if _, err := c.ListWebhooks(t.Context(), ""); err != nil {
			t.Fatal(err)
		}
	}
	var at []time.Time
	for _, s := range f.requests() {
		if s.path == "/webhooks" {
			at = append(at, s.at)
		}
	}
	if len(at) != 2 {
		t.Fatalf("GET /webhooks = %d, want 2", len(at))
	}
	if d := at[1].Sub(at[0]); d < time.Second {
		t.Fatalf("the second call came %s after a Remaining: 0 answer, want >= 1s", d)
	}
	waits := 0
	for _, l := range log.all() {
		if l.msg == logRateWait && l.level == "info" && l.fields["class"] == ClassReads && l.fields["duration_ms"] != nil {
			waits++
		}
	}
	if waits == 0 {
		t.Fatal("the wait was not logged at Info with its class and duration")
	}
}

func TestRateLimitExhausted(t *testing.T) {
	tests := []struct {
		name    string
		call    func(c *Client) error
		want    string
		class   string
		wantHit [2]string
	}{
		{"reads", func(c *Client) error { _, err := c.ListWebhooks(t.Context(), ""); return err },
			"GET /webhooks: 429 Too many requests. (reads limit: 100 per window; retried 2 times)",
			ClassReads, [2]string{http.MethodGet, "/webhooks"}},
		{"writes", func(c *Client) error {
			_, err := c.CreateWebhook(t.Context(), CreateWebhookInput{URL: "https://e.org", Events: []string{"x"}})
			return err
		},
			"POST /webhooks: 429 Too many requests. (writes limit: 100 per window; retried 2 times)",
			ClassWrites, [2]string{http.MethodPost, "/webhooks"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeService(t, func(w http.ResponseWriter, _ *http.Request) {
				rateHeadersOf(w, 100, 0, 0)
				writeJSON(w, http.StatusTooManyRequests, tooMany)
			})
			c := f.client(t, func(cfg *Config) { cfg.MaxRetries = 2 })
			c.minRateWait = 5 * time.Millisecond
			err := tt.call(c)
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, ErrRateLimited) {
				t.Fatalf("err = %v, want a rate-limited *Error", err)
			}
			if e.Status != 429 || e.Class != tt.class || e.Error() != tt.want {
				t.Fatalf("err = %q (status %d, class %q), want %q", e.Error(), e.Status, e.Class, tt.want)
			}
			if errors.Is(err, ErrAmbiguous) {
				t.Fatal("a 429 is not ambiguous: the service refused the request")
			}
			if n := f.count(tt.wantHit[0], tt.wantHit[1]); n != 3 {
				t.Fatalf("attempts = %d, want 3", n)
			}
		})
	}
}

func TestRateLimitWaitsHonourCancellation(t *testing.T) {
	tests := []struct {
		name  string
		api   http.HandlerFunc
		setup func(c *Client)
		// first is a call made before the cancelled one, to put the client in its state.
		first bool
	}{
		{"window spent", func(w http.ResponseWriter, r *http.Request) {
			rateHeadersOf(w, 100, 0, 30)
			okWebhooks(w, r)
		}, nil, true},
		{"429", func(w http.ResponseWriter, _ *http.Request) {
			rateHeadersOf(w, 100, 0, 30)
			writeJSON(w, http.StatusTooManyRequests, tooMany)
		}, nil, false},
		{"backoff", func(w http.ResponseWriter, _ *http.Request) {
			writeJSON(w, http.StatusInternalServerError, map[string]any{"title": "Server error", "status": 500})
		}, func(c *Client) { c.backoffBase, c.backoffMax = 30*time.Second, 30*time.Second }, false},
		{"budget spent", func(w http.ResponseWriter, r *http.Request) {
			// One request a minute: the probe learns the limit, the second call spends the
			// window's budget, so the third call waits for the reset a minute away.
			rateHeadersOf(w, 1, 1, 60)
			okWebhooks(w, r)
		}, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeService(t, tt.api)
			c := f.client(t)
			if tt.setup != nil {
				tt.setup(c)
			}
			if tt.first {
				if _, err := c.ListWebhooks(t.Context(), ""); err != nil {
					t.Fatal(err)
				}
				if tt.name == "budget spent" {
					if _, err := c.ListWebhooks(t.Context(), ""); err != nil {
						t.Fatal(err)
					}
				}
			}
			ctx, cancel := context.WithCancel(t.Context())
			time.AfterFunc(50*time.Millisecond, cancel)
			start := time.Now()
			_, err := c.ListWebhooks(ctx, "")
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want context.Canceled", err)
			}
			// The waits are 30 s or more; returning well before shows the wait was cut.
			if d := time.Since(start); d > 10*time.Second {
				t.Fatalf("returned after %s", d)
			}
		})
	}
}

func TestReadRateHeaders(t *testing.T) {
	tests := []struct {
		h     map[string]string
		want  rateHeaders
		after time.Duration
	}{
		{map[string]string{headerLimit: "100", headerRemaining: "0", headerRetryAfter: "7"},
			rateHeaders{limit: 100, hasLimit: true, hasRemaining: true, retryAfter: 7, hasRetryAfter: true}, 7 * time.Second},
		{map[string]string{headerLimit: "x", headerRemaining: "-1"}, rateHeaders{}, time.Second},
		{map[string]string{}, rateHeaders{}, time.Second},
	}
	for _, tt := range tests {
		h := http.Header{}
		for k, v := range tt.h {
			h.Set(k, v)
		}
		got := readRateHeaders(h)
		if got != tt.want || got.retryAfterOr(time.Second) != tt.after {
			t.Errorf("%v: got %+v, want %+v", tt.h, got, tt.want)
		}
	}
}
