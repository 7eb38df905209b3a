package videohost

import (
	"errors"
	"net"
	"net/http"
	"strings"
	"sync"
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
