package videohost

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// scripted answers the n-th API call with statuses[n] (the last one repeats); a 2xx answers
// with a body fit for the method.
func scripted(statuses ...int) http.HandlerFunc {
	var mu sync.Mutex
	n := 0
	return func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		status := statuses[min(n, len(statuses)-1)]
		n++
		mu.Unlock()
		switch {
		case status == http.StatusNoContent:
			w.WriteHeader(status)
		case status < 300 && r.Method == http.MethodGet && r.URL.Path == "/webhooks":
			okWebhooks(w, r)
		case status < 300:
			writeJSON(w, status, webhookJSON("wh-1", false))
		case status == http.StatusBadGateway:
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(status)
			_, _ = w.Write([]byte("<html><body><h1>502 Bad Gateway</h1></body></html>"))
		case status == http.StatusNotFound:
			writeJSON(w, status, map[string]any{
				"type": "https://docs.test/resource-not-found", "title": "The requested resource could not be found.",
				"name": "webhookId", "status": 404,
			})
		case status == http.StatusTooManyRequests:
			rateHeadersOf(w, 40, 0, 0)
			writeJSON(w, status, tooMany)
		default:
			writeJSON(w, status, map[string]any{"title": http.StatusText(status), "status": status})
		}
	}
}

func TestFaults(t *testing.T) {
	list := func(c *Client) error { _, err := c.ListWebhooks(t.Context(), ""); return err }
	create := func(c *Client) error {
		_, err := c.CreateWebhook(t.Context(), CreateWebhookInput{URL: "https://example.org/h", Events: []string{"x"}})
		return err
	}
	del := func(c *Client) error { return c.DeleteWebhook(t.Context(), "wh-1") }
	tests := []struct {
		name     string
		statuses []int
		call     func(*Client) error
		method   string
		path     string
		attempts int
		// wantStatus is the status of the *Error expected, 0 for success.
		wantStatus int
		ambiguous  bool
		notFound   bool
		// maxRetries, when set, replaces the default of the client.
		maxRetries int
	}{
		{name: "GET 500 then 200 is retried", statuses: []int{500, 200}, call: list, method: "GET", path: "/webhooks", attempts: 2},
		{name: "GET 502 then 503 then 200 is retried", statuses: []int{502, 503, 200}, call: list, method: "GET", path: "/webhooks", attempts: 3},
		{name: "GET 500 every time gives up", statuses: []int{500}, call: list, method: "GET", path: "/webhooks", attempts: 6, wantStatus: 500},
		{name: "GET 501 is not retried", statuses: []int{501}, call: list, method: "GET", path: "/webhooks", attempts: 1, wantStatus: 501},
		{name: "GET 400 is not retried", statuses: []int{400}, call: list, method: "GET", path: "/webhooks", attempts: 1, wantStatus: 400},
		{name: "POST 500 is not re-sent", statuses: []int{500, 201}, call: create, method: "POST", path: "/webhooks", attempts: 1, wantStatus: 500, ambiguous: true},
		{name: "POST 503 is not re-sent", statuses: []int{503, 201}, call: create, method: "POST", path: "/webhooks", attempts: 1, wantStatus: 503, ambiguous: true},
		{name: "POST 429 is retried", statuses: []int{429, 201}, call: create, method: "POST", path: "/webhooks", attempts: 2},
		{name: "POST 400 is final, not ambiguous", statuses: []int{400}, call: create, method: "POST", path: "/webhooks", attempts: 1, wantStatus: 400},
		{name: "DELETE 500 then 404 counts as deleted", statuses: []int{500, 404}, call: del, method: "DELETE", path: "/webhooks/wh-1", attempts: 2},
		{name: "DELETE 500 then 204", statuses: []int{500, 204}, call: del, method: "DELETE", path: "/webhooks/wh-1", attempts: 2},
		{name: "DELETE 404 first is not found", statuses: []int{404}, call: del, method: "DELETE", path: "/webhooks/wh-1", attempts: 1, wantStatus: 404, notFound: true},
		{name: "DELETE 429 then 404 is not found", statuses: []int{429, 404}, call: del, method: "DELETE", path: "/webhooks/wh-1", attempts: 2, wantStatus: 404, notFound: true},
		{name: "GET 500 with NoRetries is sent once", statuses: []int{500, 200}, call: list, method: "GET", path: "/webhooks", attempts: 1, wantStatus: 500, maxRetries: NoRetries},
		{name: "GET 500 with one retry gives up", statuses: []int{500}, call: list, method: "GET", path: "/webhooks", attempts: 2, wantStatus: 500, maxRetries: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeService(t, scripted(tt.statuses...))
			c := f.client(t, func(cfg *Config) { cfg.MaxRetries = tt.maxRetries })
			c.minRateWait = time.Millisecond
			err := tt.call(c)
			if n := f.count(tt.method, tt.path); n != tt.attempts {
				t.Errorf("%s %s sent %d times, want %d", tt.method, tt.path, n, tt.attempts)
			}
			if tt.wantStatus == 0 {
				if err != nil {
					t.Fatalf("err = %v, want nil", err)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) || e.Status != tt.wantStatus {
				t.Fatalf("err = %v, want an *Error with status %d", err, tt.wantStatus)
			}
			if got := errors.Is(err, ErrAmbiguous); got != tt.ambiguous {
				t.Errorf("errors.Is(err, ErrAmbiguous) = %v, want %v (%v)", got, tt.ambiguous, err)
			}
			if got := errors.Is(err, ErrNotFound); got != tt.notFound {
				t.Errorf("errors.Is(err, ErrNotFound) = %v, want %v", got, tt.notFound)
			}
		})
	}
}

// hangUp reads the request and drops the connection without answering: the request reached
// the service, the answer never came.
func hangUp(w http.ResponseWriter, _ *http.Request) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err == nil {
		_ = conn.Close()
	}
}

func TestNetworkFaults(t *testing.T) {
	t.Run("POST dropped after it was sent is ambiguous", func(t *testing.T) {
		f := newFakeService(t, hangUp)
		c := f.client(t)
		_, err := c.CreateWebhook(t.Context(), CreateWebhookInput{URL: "https://example.org/h", Events: []string{"x"}})
		var ae *AmbiguousError
		if !errors.As(err, &ae) || !errors.Is(err, ErrAmbiguous) {
			t.Fatalf("err = %v, want *AmbiguousError", err)
		}
		if ae.Method != http.MethodPost || ae.Path != "/webhooks" || ae.Err == nil {
			t.Fatalf("AmbiguousError = %+v", ae)
		}
		if !strings.HasPrefix(err.Error(), "POST /webhooks: the outcome is unknown") {
			t.Errorf("message = %q", err.Error())
		}
		if n := f.count(http.MethodPost, "/webhooks"); n != 1 {
			t.Fatalf("POST sent %d times, want 1", n)
		}
	})
	t.Run("POST timed out is ambiguous", func(t *testing.T) {
		f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(2 * time.Second):
			}
			writeJSON(w, http.StatusCreated, webhookJSON("wh-1", false))
		})
		c := f.client(t, func(cfg *Config) { cfg.Timeout = 100 * time.Millisecond })
		// The token call must not be the one that times out.
		if _, err := c.AccessToken(t.Context()); err != nil {
			t.Fatal(err)
		}
		_, err := c.CreateWebhook(t.Context(), CreateWebhookInput{URL: "https://example.org/h", Events: []string{"x"}})
		if !errors.Is(err, ErrAmbiguous) {
			t.Fatalf("err = %v, want ErrAmbiguous", err)
		}
		if n := f.count(http.MethodPost, "/webhooks"); n != 1 {
			t.Fatalf("POST sent %d times, want 1", n)
		}
	})
	t.Run("GET dropped is retried", func(t *testing.T) {
		var mu sync.Mutex
		n := 0
		f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			n++
			first := n == 1
			mu.Unlock()
			if first {
				hangUp(w, r)
				return
			}
			okWebhooks(w, r)
		})
		c := f.client(t)
		if _, err := c.ListWebhooks(t.Context(), ""); err != nil {
			t.Fatal(err)
		}
		if n := f.count(http.MethodGet, "/webhooks"); n != 2 {
			t.Fatalf("GET sent %d times, want 2", n)
		}
	})
	t.Run("POST that never left is not ambiguous", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := l.Addr().String()
		_ = l.Close()
		c, err := New(Config{BaseURL: "http://" + addr, APIKey: testKey, AuthScheme: AuthBasic, MaxRetries: 2})
		if err != nil {
			t.Fatal(err)
		}
		c.backoffBase, c.backoffMax = time.Millisecond, time.Millisecond
		_, err = c.CreateWebhook(t.Context(), CreateWebhookInput{URL: "https://example.org/h", Events: []string{"x"}})
		if err == nil || errors.Is(err, ErrAmbiguous) {
			t.Fatalf("err = %v, want a plain network error", err)
		}
		if !strings.Contains(err.Error(), "retried 2 times") || strings.Contains(err.Error(), "http://") {
			t.Errorf("message = %q, want the retries and no address", err.Error())
		}
	})
}

func TestDecodeFailureOfASuccess(t *testing.T) {
	f := newFakeService(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"webhookId": 12}`))
	})
	c := f.client(t)
	_, err := c.GetWebhook(t.Context(), "wh-1")
	if err == nil || !strings.Contains(err.Error(), "GET /webhooks/wh-1: decoding the response") || errors.Is(err, ErrAmbiguous) {
		t.Fatalf("err = %v", err)
	}
	// A write that succeeded but cannot be read made something unknown.
	_, err = c.CreateWebhook(t.Context(), CreateWebhookInput{URL: "https://e.org"})
	if !errors.Is(err, ErrAmbiguous) || !strings.Contains(err.Error(), "decoding the response") {
		t.Fatalf("create: err = %v, want ErrAmbiguous", err)
	}
}

func TestUserAgentAndHeaders(t *testing.T) {
	var got http.Header
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
		writeJSON(w, http.StatusCreated, webhookJSON("wh-1", false))
	})
	c := f.client(t, basic, func(cfg *Config) { cfg.Version = "1.2.3" })
	if _, err := c.CreateWebhook(t.Context(), CreateWebhookInput{URL: "https://e.org"}); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"User-Agent": "terraform-provider-videohost/1.2.3", "Accept": "application/json",
		"Content-Type": "application/json",
	}
	for k, v := range want {
		if got.Get(k) != v {
			t.Errorf("%s = %q, want %q", k, got.Get(k), v)
		}
	}
	reqs := f.requests()
	if body := reqs[len(reqs)-1].body; body != `{"url":"https://e.org","events":[]}` {
		t.Errorf("body = %s; a missing events list must be sent as []", body)
	}
}

// These tests cancel a call at each phase of the request path against a server that the test
// controls, and check what was sent and what the caller gets: a request not yet sent never is,
// and a write that may have reached the service finishes and returns its result.

// cancelWhen serves create, delete and list calls; hold, when not nil, runs inside the handler
// after the request was read and before the response is written, and gets the request.
func cancelWhen(t *testing.T, hold func(w http.ResponseWriter, r *http.Request)) *fakeService {
	t.Helper()
	return newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		if hold != nil {
			hold(w, r)
		}
		switch r.Method {
		case http.MethodPost:
			writeJSON(w, http.StatusCreated, webhookJSON("wh-new", false))
		case http.MethodDelete:
			w.WriteHeader(http.StatusNoContent)
		default:
			writeJSON(w, http.StatusOK, webhookJSON("wh-1", false))
		}
	})
}

var newHook = CreateWebhookInput{URL: "https://example.org/h", Events: []string{"video.encoding.quality.completed"}}

func TestCancelWhileWaitingForTheLimiterSendsNothing(t *testing.T) {
	f := cancelWhen(t, nil)
	c := f.client(t, basic)
	c.limiters[ClassWrites].block(time.Hour, time.Hour)
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(20*time.Millisecond, cancel)
	_, err := c.CreateWebhook(ctx, newHook)
	if !errors.Is(err, ErrInterrupted) || !errors.Is(err, context.Canceled) || errors.Is(err, ErrAmbiguous) {
		t.Fatalf("err = %v, want ErrInterrupted and context.Canceled", err)
	}
	if n := len(f.requests()); n != 0 {
		t.Fatalf("the service saw %d requests, want none", n)
	}
}

func TestCancelledBeforeTheCallSendsNothing(t *testing.T) {
	f := cancelWhen(t, nil)
	c := f.client(t, basic)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := c.CreateWebhook(ctx, newHook); !errors.Is(err, ErrInterrupted) {
		t.Fatalf("create: err = %v, want ErrInterrupted", err)
	}
	if err := c.DeleteWebhook(ctx, "wh-1"); !errors.Is(err, ErrInterrupted) {
		t.Fatalf("delete: err = %v, want ErrInterrupted", err)
	}
	if n := len(f.requests()); n != 0 {
		t.Fatalf("the service saw %d requests, want none", n)
	}
}

// TestCancelWhileAWriteIsInFlightFinishesIt: the service has the request when the caller
// cancels; the create completes and the caller gets the webhook, so that it can record it.
func TestCancelWhileAWriteIsInFlightFinishesIt(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	var served atomic.Int32
	f := cancelWhen(t, func(_ http.ResponseWriter, r *http.Request) {
		cancel()
		time.Sleep(100 * time.Millisecond) // the service is slow to respond
		served.Add(1)
	})
	c := f.client(t, basic)
	w, err := c.CreateWebhook(ctx, newHook)
	if err != nil || w.ID != "wh-new" {
		t.Fatalf("create = %+v, %v; want the webhook the service made", w, err)
	}
	if ctx.Err() == nil || served.Load() != 1 {
		t.Fatalf("ctx err %v, served %d; want a cancelled context and one create served", ctx.Err(), served.Load())
	}

	// A delete is a write too: it finishes. The hold cancels ctx again, already cancelled.
	if err := c.DeleteWebhook(t.Context(), "wh-new"); err != nil {
		t.Fatalf("delete after cancellation in flight: %v", err)
	}
}

// TestCancelWhileTheResponseIsReadFinishesTheWrite: the service has sent the status and part
// of the body when the caller cancels; the rest is still read.
func TestCancelWhileTheResponseIsReadFinishesTheWrite(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	f := newFakeService(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(`{"webhookId":"wh-new","url":"https://example.org/h",`))
		_ = http.NewResponseController(w).Flush()
		cancel()
		time.Sleep(100 * time.Millisecond)
		_, _ = w.Write([]byte(`"events":["video.encoding.quality.completed"],"createdAt":"2024-08-08T14:12:18+00:00"}`))
	})
	w, err := f.client(t, basic).CreateWebhook(ctx, newHook)
	if err != nil || w.ID != "wh-new" || len(w.Events) != 1 {
		t.Fatalf("create = %+v, %v; want the whole webhook", w, err)
	}
}

// TestCancelledWriteIsBoundedByTheTimeout: a write that has started is not abandoned, but a
// service that never responds holds it no longer than the configured timeout; its outcome is
// then unknown.
func TestCancelledWriteIsBoundedByTheTimeout(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	f := cancelWhen(t, func(_ http.ResponseWriter, r *http.Request) {
		cancel()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	c := f.client(t, basic, func(cfg *Config) { cfg.Timeout = 300 * time.Millisecond })
	start := time.Now()
	_, err := c.CreateWebhook(ctx, newHook)
	if !errors.Is(err, ErrAmbiguous) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want an ambiguous write ended by the request timeout", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("the create returned after %s, want about the 300ms timeout", d)
	}
}

// lateService answers every call 5 s after it arrives, as a slow service does, unless its client
// hangs up first; it reports on ended whether the client hung up (true) or had its answer
// (false).
func lateService(t *testing.T) (*fakeService, chan bool) {
	t.Helper()
	ended := make(chan bool, 10)
	f := cancelWhen(t, func(_ http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(5 * time.Second):
			ended <- false
		case <-r.Context().Done():
			ended <- true
		}
	})
	return f, ended
}

// TestDeadlineCutsADeleteInFlight: a delete, which may be sent again, is cut when its caller's
// deadline passes with the request on its connection, however late the service answers, so
// that a caller bound by time (the provider in the 2 s Terraform gives it once stopped, the
// cleaner in its 2 minutes) keeps its bound. It is not sent again; the service sees its client
// hang up.
func TestDeadlineCutsADeleteInFlight(t *testing.T) {
	f, ended := lateService(t)
	c := f.client(t, basic) // the default 30 s request timeout
	ctx, cancel := context.WithTimeout(t.Context(), 1500*time.Millisecond)
	defer cancel()
	err := c.DeleteWebhook(ctx, "wh-1")
	if !errors.Is(err, ErrInterrupted) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want ErrInterrupted and context.DeadlineExceeded", err)
	}
	select {
	case hungUp := <-ended:
		if !hungUp {
			t.Fatal("the service answered the delete: the client waited past its caller's deadline")
		}
	case <-time.After(30 * time.Second):
		// Not a measure of speed: the service holds a call 5 s at most.
		t.Fatal("the service never saw the delete: it was not sent within its 1.5 s")
	}
	if n := f.count(http.MethodDelete, "/webhooks/wh-1"); n != 1 {
		t.Fatalf("deletes sent = %d, want 1", n)
	}
}

// TestDeadlineFinishesACreateInFlight: a create that may have reached the service is finished
// though its caller's deadline passed, as when it is cancelled: sent again it would make a
// second object, abandoned it would orphan the first.
func TestDeadlineFinishesACreateInFlight(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 1500*time.Millisecond)
	defer cancel()
	f := cancelWhen(t, func(_ http.ResponseWriter, _ *http.Request) { <-ctx.Done() }) // answers once it has passed
	w, err := f.client(t, basic).CreateWebhook(ctx, newHook)
	if err != nil || w.ID != "wh-new" {
		t.Fatalf("create = %+v, %v; want the webhook the service made", w, err)
	}
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("ctx err %v, want the deadline passed while the create was in flight", ctx.Err())
	}
}

// TestCancelledWriteIsNotSentAgain: a create that the service refused with a 429 after the
// caller cancelled is not retried: nothing more is sent.
func TestCancelledWriteIsNotSentAgain(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	f := newFakeService(t, func(w http.ResponseWriter, _ *http.Request) {
		cancel()
		rateHeadersOf(w, 40, 0, 0)
		writeJSON(w, http.StatusTooManyRequests, tooMany)
	})
	c := f.client(t, basic)
	c.minRateWait = time.Millisecond
	_, err := c.CreateWebhook(ctx, newHook)
	if !errors.Is(err, ErrInterrupted) || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want ErrInterrupted", err)
	}
	if n := f.count(http.MethodPost, "/webhooks"); n != 1 {
		t.Fatalf("creates sent = %d, want 1", n)
	}
}

// TestCancelAbandonsARead: a read in flight is abandoned at once; it changes nothing.
func TestCancelAbandonsARead(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	f := cancelWhen(t, func(_ http.ResponseWriter, r *http.Request) {
		cancel()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	start := time.Now()
	_, err := f.client(t, basic).GetWebhook(ctx, "wh-1")
	if !errors.Is(err, ErrInterrupted) || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want ErrInterrupted and context.Canceled", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("the read returned after %s, want at once", d)
	}
}

// TestCancelDuringAListWalk: the walk stops at the page in flight and asks for no other.
func TestCancelDuringAListWalk(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	store := newWebhookStore(250)
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("currentPage") == "2" {
			cancel()
			<-r.Context().Done()
			return
		}
		store.serve(w, r)
	})
	var items int
	var err error
	for _, e := range Paginate[Webhook](ctx, f.client(t, basic), "/webhooks", nil) {
		if e != nil {
			err = e
			break
		}
		items++
	}
	if items != 100 || !errors.Is(err, ErrInterrupted) || !errors.Is(err, context.Canceled) {
		t.Fatalf("items %d, err %v; want page 1's 100 items, then ErrInterrupted", items, err)
	}
	if n := f.count(http.MethodGet, "/webhooks"); n != 2 {
		t.Fatalf("pages requested = %d, want 2", n)
	}
}

// TestDetachedReconcilesAfterCancellation: after a cancellation, a lookup on Detached's context
// still runs, bounded by the request timeout.
func TestDetachedReconcilesAfterCancellation(t *testing.T) {
	store := newWebhookStore(3)
	f := newFakeService(t, store.serve)
	c := f.client(t, basic, func(cfg *Config) { cfg.Timeout = 2 * time.Second })
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := c.ListWebhooks(ctx, ""); !errors.Is(err, ErrInterrupted) {
		t.Fatalf("list on the cancelled context: %v, want ErrInterrupted", err)
	}
	dctx, release := c.Detached(ctx)
	defer release()
	deadline, ok := dctx.Deadline()
	if !ok || time.Until(deadline) > 2*time.Second || dctx.Err() != nil {
		t.Fatalf("detached: deadline %v (%t), err %v; want a live context bounded by the 2s timeout", deadline, ok, dctx.Err())
	}
	w, err := c.LookupWebhook(dctx, "wh-0001")
	if err != nil || w.SignatureSecret != "secret-wh-0001" {
		t.Fatalf("lookup on the detached context = %+v, %v", w, err)
	}
}

// TestDetachedOutlastsASpentWindow: a follow-up on Detached's context that finds its class's
// window spent waits for the next one, though the window is longer than the request timeout:
// the delete of an ephemeral token at the end of a run that spent its writes is sent, not
// given up.
func TestDetachedOutlastsASpentWindow(t *testing.T) {
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		// Every write spends the window of one write, which reopens in 2 s.
		w.Header().Set(headerLimit, "1")
		w.Header().Set(headerRemaining, "0")
		w.Header().Set(headerRetryAfter, "2")
		switch r.Method {
		case http.MethodPost:
			writeJSON(w, http.StatusCreated, map[string]any{"webhookId": "wh-1", "url": "https://a.example/h", "events": []string{"video.encoding.quality.completed"}})
		case http.MethodDelete:
			w.WriteHeader(http.StatusNoContent)
		}
	})
	c := f.client(t, basic, func(cfg *Config) { cfg.Timeout = time.Second })
	ctx, cancel := context.WithCancel(t.Context())
	if _, err := c.CreateWebhook(ctx, CreateWebhookInput{URL: "https://a.example/h", Events: []string{"video.encoding.quality.completed"}}); err != nil {
		t.Fatalf("create: %v", err)
	}
	cancel()
	dctx, release := c.Detached(ctx)
	defer release()
	if err := c.DeleteWebhook(dctx, "wh-1"); err != nil {
		t.Fatalf("delete on the detached context, after a window of 2 s with a timeout of 1 s: %v", err)
	}
	if n := f.count(http.MethodDelete, "/webhooks/wh-1"); n != 1 {
		t.Fatalf("deletes sent = %d, want 1", n)
	}
}

// TestCancelDuringABackoff: a retry that waits is not sent once the caller cancels. For a read
// that is a plain interruption; a delete whose first attempt got a 500 may have been applied,
// so its outcome is unknown.
func TestCancelDuringABackoff(t *testing.T) {
	for _, tc := range []struct {
		name      string
		call      func(ctx context.Context, c *Client) error
		method    string
		path      string
		ambiguous bool
	}{
		{name: "read", method: http.MethodGet, path: "/webhooks/wh-1",
			call: func(ctx context.Context, c *Client) error { _, err := c.GetWebhook(ctx, "wh-1"); return err }},
		{name: "delete", method: http.MethodDelete, path: "/webhooks/wh-1", ambiguous: true,
			call: func(ctx context.Context, c *Client) error { return c.DeleteWebhook(ctx, "wh-1") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			f := newFakeService(t, func(w http.ResponseWriter, _ *http.Request) {
				time.AfterFunc(20*time.Millisecond, cancel)
				writeJSON(w, http.StatusInternalServerError, map[string]any{"title": "Server error", "status": 500})
			})
			c := f.client(t, basic)
			c.backoffBase, c.backoffMax = time.Hour, time.Hour
			err := tc.call(ctx, c)
			if !errors.Is(err, ErrInterrupted) || !errors.Is(err, context.Canceled) || errors.Is(err, ErrAmbiguous) != tc.ambiguous {
				t.Fatalf("err = %v; want ErrInterrupted, and ErrAmbiguous %t", err, tc.ambiguous)
			}
			if n := f.count(tc.method, tc.path); n != 1 {
				t.Fatalf("sent %d times, want 1", n)
			}
		})
	}
}

// TestCancelWhileAWriteDialsSendsNothing: the caller cancels while the write's connection is
// still being made; nothing has left, so the dial is abandoned and nothing is sent.
func TestCancelWhileAWriteDialsSendsNothing(t *testing.T) {
	f := cancelWhen(t, nil)
	dialing := make(chan struct{})
	base, ok := f.srv.Client().Transport.(*http.Transport)
	if !ok {
		t.Fatalf("the test server's transport is a %T", f.srv.Client().Transport)
	}
	tr := base.Clone()
	tr.DialContext = func(ctx context.Context, _, _ string) (net.Conn, error) {
		close(dialing)
		<-ctx.Done() // the dial ends only when the request's context does
		return nil, ctx.Err()
	}
	// A request timeout far beyond the test's: only the cancellation can end the dial.
	c := f.client(t, basic, func(cfg *Config) { cfg.HTTPClient, cfg.Timeout = &http.Client{Transport: tr}, time.Hour })
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := c.CreateWebhook(ctx, newHook)
		done <- err
	}()
	var err error
	select {
	case <-dialing:
		cancel()
	case err = <-done:
		t.Fatalf("the create ended before it dialled: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("the create never dialled")
	}
	select {
	case err = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the cancelled create is still dialling: its dial was not abandoned")
	}
	if !errors.Is(err, ErrInterrupted) || errors.Is(err, ErrAmbiguous) {
		t.Fatalf("err = %v, want ErrInterrupted and not ErrAmbiguous", err)
	}
	if n := len(f.requests()); n != 0 {
		t.Fatalf("the service saw %d requests, want none", n)
	}
}
