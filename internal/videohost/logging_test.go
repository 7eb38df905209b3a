package videohost

import (
	"encoding/base64"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestLogsOfABearerSession runs a session with every kind of event the client logs (token
// fetch, 401 and replay, refused refresh, 429 wait, retried fault, shared list) and checks the
// fields of the lines and that no secret ever reaches them.
func TestLogsOfABearerSession(t *testing.T) {
	store := newWebhookStore(120)
	var mu sync.Mutex
	calls := 0
	f := newFakeService(t, nil)
	f.api = func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls++
		n := calls
		mu.Unlock()
		switch n {
		case 2:
			rateHeadersOf(w, 100, 0, 0)
			writeJSON(w, http.StatusTooManyRequests, tooMany)
			return
		case 3:
			writeJSON(w, http.StatusInternalServerError, map[string]any{"title": "Server error", "status": 500})
			return
		}
		rateHeadersOf(w, 100, 90, 30)
		store.serve(w, r)
	}
	log := &captureLogger{}
	c := f.client(t, func(cfg *Config) { cfg.Logger = log; cfg.ListTTL = time.Minute })
	c.minRateWait = time.Millisecond
	ctx := t.Context()

	if _, err := c.ListWebhooks(ctx, ""); err != nil { // 1: ok; 2: 429; 3: 500; then pages
		t.Fatal(err)
	}
	tok, err := c.AccessToken(ctx)
	if err != nil {
		t.Fatal(err)
	}
	f.revoke(tok.AccessToken)
	if _, err := c.GetWebhook(ctx, "wh-0001"); err != nil { // 401, refresh, replay
		t.Fatal(err)
	}
	tok2, _ := c.AccessToken(ctx)
	f.revoke(tok2.AccessToken)
	f.refuseRefresh = true
	if _, err := c.CreateWebhook(ctx, CreateWebhookInput{URL: "https://e.org/h", Events: []string{"x"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.LookupWebhook(ctx, "wh-0002"); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteWebhook(ctx, "wh-0003"); err != nil {
		t.Fatal(err)
	}

	text := log.text()
	secrets := []string{testKey, base64.StdEncoding.EncodeToString([]byte(testKey + ":")), "access-tok-", "refresh-tok-",
		"Bearer", "Basic", "secret-wh-", "apiKey", "refreshToken"}
	for _, s := range secrets {
		if strings.Contains(text, s) {
			t.Errorf("the log holds %q:\n%s", s, text)
		}
	}
	if f.count(http.MethodPost, "/auth/refresh") != 2 || f.count(http.MethodPost, "/auth/api-key") != 2 {
		t.Fatalf("the session did not go through refresh and fallback: refresh %d, api-key %d",
			f.count(http.MethodPost, "/auth/refresh"), f.count(http.MethodPost, "/auth/api-key"))
	}

	var requests, rateWaits, retries int
	for _, l := range log.all() {
		switch l.msg {
		case logRequest:
			requests++
			if l.level != "debug" {
				t.Errorf("request logged at %s", l.level)
			}
			for _, k := range []string{"method", "path", "status", "duration_ms", "attempt", "class"} {
				if _, ok := l.fields[k]; !ok {
					t.Errorf("request line lacks %s: %v", k, l.fields)
				}
			}
		case logRateWait:
			rateWaits++
			if l.level != "info" || l.fields["class"] == nil || l.fields["duration_ms"] == nil {
				t.Errorf("rate wait line: %s %v", l.level, l.fields)
			}
		case logRetry:
			retries++
		}
	}
	if want := len(f.requests()); requests != want {
		t.Errorf("request lines = %d, service saw %d requests", requests, want)
	}
	if rateWaits == 0 || retries < 2 {
		t.Errorf("rate waits %d, retries %d; want both logged", rateWaits, retries)
	}
}
