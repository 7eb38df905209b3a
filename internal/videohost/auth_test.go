package videohost

import (
	"context"
	"encoding/base64"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestBasicAuthHeader(t *testing.T) {
	var got []string
	var mu sync.Mutex
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Header.Get("Authorization"))
		mu.Unlock()
		okWebhooks(w, r)
	})
	c := f.client(t, basic)
	if _, err := c.ListWebhooks(t.Context(), ""); err != nil {
		t.Fatal(err)
	}
	want := "Basic " + base64.StdEncoding.EncodeToString([]byte(testKey+":"))
	if len(got) != 1 || got[0] != want {
		t.Fatalf("Authorization = %q, want [%q]", got, want)
	}
	if n := f.count(http.MethodPost, "/auth/api-key"); n != 0 {
		t.Fatalf("basic scheme called /auth/api-key %d times", n)
	}
}

func TestBearerOneFetchForManyGoroutines(t *testing.T) {
	f := newFakeService(t, okWebhooks)
	c := f.client(t)
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for range 50 {
		wg.Go(func() {
			if _, err := c.ListWebhooks(t.Context(), ""); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if n := f.count(http.MethodPost, "/auth/api-key"); n != 1 {
		t.Fatalf("/auth/api-key called %d times by 50 goroutines, want 1", n)
	}
	if n := f.count(http.MethodGet, "/webhooks"); n != 50 {
		t.Fatalf("GET /webhooks = %d, want 50", n)
	}
}

// TestBearerRefreshesAheadOfExpiry: a token of 2 s is kept until its margin (a tenth of its
// lifetime) before expiry, then refreshed, inside its lifetime. The client's clock is the
// test's, so that a call that a loaded machine delays past the expiry changes nothing.
func TestBearerRefreshesAheadOfExpiry(t *testing.T) {
	f := newFakeService(t, okWebhooks)
	f.expiresIn = 2
	c := f.client(t)
	clk := &fakeClock{t: time.Now()}
	c.tokens.now = clk.now
	list := func() {
		t.Helper()
		if _, err := c.ListWebhooks(t.Context(), ""); err != nil {
			t.Fatal(err)
		}
	}
	list()
	clk.advance(1799 * time.Millisecond)
	list()
	if n := f.count(http.MethodPost, "/auth/refresh"); n != 0 {
		t.Fatalf("%d refreshes 1.799 s into a 2 s token, want none before its margin of 200 ms", n)
	}
	clk.advance(time.Millisecond)
	list()
	if n := f.count(http.MethodPost, "/auth/refresh"); n != 1 {
		t.Fatalf("%d refreshes 1.8 s into a 2 s token, want 1 at its margin, before it expires", n)
	}
	if n := f.count(http.MethodPost, "/auth/api-key"); n != 1 {
		t.Fatalf("/auth/api-key called %d times, want 1 (the refresh should be used)", n)
	}
}

func TestRefreshMargin(t *testing.T) {
	tests := []struct {
		expiresIn int
		margin    time.Duration
	}{
		{3600, 60 * time.Second},
		{600, 60 * time.Second},
		{100, 10 * time.Second},
		{2, 200 * time.Millisecond},
	}
	for _, tt := range tests {
		f := newFakeService(t, okWebhooks)
		f.expiresIn = tt.expiresIn
		c := f.client(t)
		if _, err := c.AccessToken(t.Context()); err != nil {
			t.Fatal(err)
		}
		c.tokens.mu.Lock()
		p := *c.tokens.pair
		c.tokens.mu.Unlock()
		if got := p.expiresAt.Sub(p.refreshAt); got != tt.margin {
			t.Errorf("expires_in %d: margin %s, want %s", tt.expiresIn, got, tt.margin)
		}
	}
}

func TestBearer401RefreshesAndReplaysOnce(t *testing.T) {
	f := newFakeService(t, okWebhooks)
	c := f.client(t)
	tok, err := c.AccessToken(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	f.revoke(tok.AccessToken)
	if _, err := c.ListWebhooks(t.Context(), ""); err != nil {
		t.Fatalf("after revocation: %v", err)
	}
	if got := [3]int{
		f.count(http.MethodGet, "/webhooks"), f.count(http.MethodPost, "/auth/refresh"),
		f.count(http.MethodPost, "/auth/api-key"),
	}; got != [3]int{2, 1, 1} {
		t.Fatalf("GET /webhooks, refresh, api-key = %v, want [2 1 1]", got)
	}
	reqs := f.requests()
	last := reqs[len(reqs)-1]
	if last.authz == "Bearer "+tok.AccessToken {
		t.Fatal("the replay carried the refused token")
	}
}

func TestBearerRefusedRefreshFallsBackToKey(t *testing.T) {
	f := newFakeService(t, okWebhooks)
	c := f.client(t)
	tok, err := c.AccessToken(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	f.revoke(tok.AccessToken)
	f.refuseRefresh = true
	if _, err := c.ListWebhooks(t.Context(), ""); err != nil {
		t.Fatalf("after refused refresh: %v", err)
	}
	if got := [2]int{f.count(http.MethodPost, "/auth/refresh"), f.count(http.MethodPost, "/auth/api-key")}; got != [2]int{1, 2} {
		t.Fatalf("refresh, api-key = %v, want [1 2]", got)
	}
}

func TestUnauthorizedErrors(t *testing.T) {
	tests := []struct {
		name string
		// setup prepares the service and returns the client.
		setup func(f *fakeService) *Client
		// wantGets is how many API calls the service must have seen.
		wantGets int
	}{
		{"refused key", func(f *fakeService) *Client {
			f.refuseKey = true
			return f.client(t)
		}, 0},
		{"wrong key under basic", func(f *fakeService) *Client {
			return f.client(t, basic, func(c *Config) { c.APIKey = "key-of-production" })
		}, 1},
		{"replay refused too", func(f *fakeService) *Client {
			f.api = func(w http.ResponseWriter, _ *http.Request) {
				writeJSON(w, http.StatusUnauthorized, map[string]any{"title": "Unauthorized.", "status": 401})
			}
			return f.client(t)
		}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeService(t, okWebhooks)
			c := tt.setup(f)
			_, err := c.ListWebhooks(t.Context(), "")
			if !errors.Is(err, ErrUnauthorized) {
				t.Fatalf("err = %v, want ErrUnauthorized", err)
			}
			msg := err.Error()
			if !strings.Contains(msg, "sandbox and production keys differ") || !strings.Contains(msg, "sandbox environment") {
				t.Errorf("message lacks the environment reminder: %s", msg)
			}
			if strings.Contains(msg, testKey) || strings.Contains(msg, "access-tok") || strings.Contains(msg, "refresh-tok") {
				t.Errorf("message leaks a secret: %s", msg)
			}
			if n := f.count(http.MethodGet, "/webhooks"); n != tt.wantGets {
				t.Errorf("GET /webhooks = %d, want %d", n, tt.wantGets)
			}
		})
	}
}

func TestAccessTokenUnderBasic(t *testing.T) {
	f := newFakeService(t, okWebhooks)
	c := f.client(t, basic)
	tok, err := c.AccessToken(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(tok.AccessToken, "access-tok-") || time.Until(tok.ExpiresAt) < 59*time.Minute {
		t.Fatalf("token = %+v", tok)
	}
	again, err := c.AccessToken(t.Context())
	if err != nil || again != tok {
		t.Fatalf("second call = %+v, %v; want the shared token", again, err)
	}
	if n := f.count(http.MethodPost, "/auth/api-key"); n != 1 {
		t.Fatalf("/auth/api-key = %d, want 1", n)
	}
}

// TestTokenWaitHonoursCancellation: a caller that gives up while the token is being fetched
// returns at once, and the fetch it started still serves the callers that stay.
func TestTokenWaitHonoursCancellation(t *testing.T) {
	release := make(chan struct{})
	var mu sync.Mutex
	fetches := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/auth/api-key" {
			okWebhooks(w, r)
			return
		}
		mu.Lock()
		fetches++
		mu.Unlock()
		select {
		case <-release:
		case <-time.After(5 * time.Second):
		}
		writeJSON(w, http.StatusOK, map[string]any{"token_type": "Bearer", "expires_in": 3600,
			"access_token": "access-tok-1", "refresh_token": "refresh-tok-1"})
	}))
	t.Cleanup(srv.Close)
	c, err := New(Config{BaseURL: srv.URL, APIKey: testKey, HTTPClient: srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(50*time.Millisecond, cancel)
	if _, err := c.ListWebhooks(ctx, ""); !errors.Is(err, context.Canceled) || !errors.Is(err, ErrInterrupted) {
		t.Fatalf("err = %v, want context.Canceled and ErrInterrupted (cancelled while waiting for a token)", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := c.AccessToken(t.Context())
		done <- err
	}()
	close(release)
	if err := <-done; err != nil {
		t.Fatalf("the caller that stayed: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if fetches != 1 {
		t.Fatalf("fetches = %d, want 1 (the flight outlives the caller that started it)", fetches)
	}
}

// TestAuthErrorsKeepNoEchoedSecret: an /auth/ answer may echo what it was sent (the key or a
// refresh token) in any member; only the error object's type, title and status reach the
// message.
func TestAuthErrorsKeepNoEchoedSecret(t *testing.T) {
	const echoed = "echoed-secret-value"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusBadRequest, map[string]any{
			"type": "https://docs.test/invalid", "title": "The payload is invalid.", "status": 400,
			"detail": "apiKey " + echoed, "name": echoed, "apiKey": echoed, "refresh_token": echoed,
			"problems": []map[string]string{{"title": "bad key " + echoed, "name": "apiKey"}},
		})
	}))
	t.Cleanup(srv.Close)
	c, err := New(Config{BaseURL: srv.URL, APIKey: testKey, HTTPClient: srv.Client(), Version: "test", MaxRetries: NoRetries})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ListWebhooks(t.Context(), "")
	if err == nil {
		t.Fatal("a refused token call gave no error")
	}
	msg := err.Error()
	if !strings.Contains(msg, "The payload is invalid.") {
		t.Errorf("the message lost the error's title: %s", msg)
	}
	if strings.Contains(msg, echoed) || strings.Contains(msg, testKey) {
		t.Errorf("the message repeats what the token call echoed: %s", msg)
	}
	var e *Error
	if errors.As(err, &e) && (e.Detail != "" || e.Name != "" || len(e.Problems) != 0 || len(e.Extra) != 0 || e.Body != "") {
		t.Errorf("the error keeps members of a token answer: %+v", e)
	}
}
