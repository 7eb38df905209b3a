package lifecycle

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/provider"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// TestMain lets a test start this test binary as the cleaner, as the provider starts its own
// executable, and gives the tests that build the provider one build to share.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == CleanerRole {
		os.Exit(RunCleaner(os.Stdin, provider.Leftovers{}))
	}
	os.Exit(acctest.RunWithOwnCLIConfig(m))
}

// spentTokens serves an emulator whose writes budget is 2 a window of window, spends it on 2
// upload tokens, and returns the client that made them and the tokens.
func spentTokens(t *testing.T, window time.Duration) (*videohost.Client, []string) {
	t.Helper()
	emu, base := acctest.ServeEmulator(t, emulator.Options{Limits: emulator.Limits{Writes: 2}, RateWindow: window}, nil)
	c, err := videohost.New(videohost.Config{BaseURL: base, APIKey: emu.APIKeys()[0], AuthScheme: videohost.AuthBasic,
		MaxRetries: videohost.NoRetries})
	if err != nil {
		t.Fatal(err)
	}
	var tokens []string
	for range 2 {
		tok, err := c.CreateUploadToken(t.Context(), 900)
		if err != nil {
			t.Fatal(err)
		}
		tokens = append(tokens, tok.Token)
	}
	return c, tokens
}

// liveTokens counts the upload tokens on the service of c.
func liveTokens(t *testing.T, c *videohost.Client) int {
	t.Helper()
	left, err := c.ListUploadTokens(t.Context(), videohost.UploadTokenFilter{})
	if err != nil {
		t.Fatal(err)
	}
	return len(left)
}

// TestRunCleanerWaitsOutTheWritesBudget: the cleaner deletes the tokens it is given though the
// writes budget is spent and its client sends every call once: its first deletes are answered
// 429, and it tries again once the window has passed.
func TestRunCleanerWaitsOutTheWritesBudget(t *testing.T) {
	c, tokens := spentTokens(t, 2*time.Second)
	work, err := json.Marshal(cleanerWork{Clients: []cleanerClient{{Settings: c.Settings(), Tokens: tokens}}})
	if err != nil {
		t.Fatal(err)
	}
	if code := RunCleaner(bytes.NewReader(work), provider.Leftovers{}); code != 0 {
		t.Fatalf("the cleaner exited %d, want 0", code)
	}
	if n := liveTokens(t, c); n != 0 {
		t.Errorf("%d tokens live after the cleaner, want none", n)
	}
}

// TestRunCleanerKeepsItsBudgetWhenTheServiceStopsAnswering: the cleaner's first delete is
// answered 429 "retry after 1 s" (110 s on the service, scaled to a budget of 5 s rather than 2
// minutes), and the service then stops answering. The retry, sent once the window has passed,
// is cut at the cleaner's deadline (the service sees it hang up), not held until the client's
// request timeout (here 10 minutes), and the cleaner exits 1 with the token left.
func TestRunCleanerKeepsItsBudgetWhenTheServiceStopsAnswering(t *testing.T) {
	const budget = 5 * time.Second
	var deletes atomic.Int32
	hungUp := make(chan struct{}, 10)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodDelete || !strings.HasPrefix(r.URL.Path, "/upload-tokens/") {
			http.NotFound(w, r)
			return
		}
		if deletes.Add(1) == 1 {
			w.Header().Set("X-RateLimit-Limit", "2")
			w.Header().Set("X-RateLimit-Remaining", "0")
			w.Header().Set("X-RateLimit-Retry-After", "1")
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = w.Write([]byte(`{"type":"https://docs.api.video/reference/too-many-requests","title":"Too many requests.","status":429}`))
			return
		}
		select {
		case <-r.Context().Done(): // no answer, until the client hangs up
			hungUp <- struct{}{}
		case <-release: // the test has failed and ends
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) }) // before srv.Close, which waits for the handlers
	settings := videohost.Config{BaseURL: srv.URL, APIKey: "cleaner-test-key", AuthScheme: videohost.AuthBasic,
		Timeout: 10 * time.Minute}
	work, err := json.Marshal(cleanerWork{Clients: []cleanerClient{{Settings: settings, Tokens: []string{"to-delete"}}}})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	done := make(chan int, 1)
	go func() { done <- runCleaner(bytes.NewReader(work), provider.Leftovers{}, budget) }()
	var code int
	select {
	case code = <-done:
	case <-time.After(budget + time.Minute):
		// Not a measure of speed: a cleaner that keeps its budget has long returned.
		t.Fatalf("the cleaner still runs a minute after its %s budget", budget)
	}
	if code != 1 {
		t.Errorf("the cleaner exited %d, want 1: its token was not deleted", code)
	}
	if elapsed := time.Since(start); elapsed < budget {
		t.Errorf("the cleaner gave up after %s, before its %s budget", elapsed, budget)
	}
	if n := deletes.Load(); n < 2 {
		t.Fatalf("the service saw %d deletes, want the 429'd one and its retry", n)
	}
	<-hungUp // the retry in flight was cut, not answered
	_ = provider.Leftovers{}.Take()
}

// TestRunCleanerRefusesGarbage: work that is not the provider's ends the cleaner at once, with
// a code of its own.
func TestRunCleanerRefusesGarbage(t *testing.T) {
	for _, in := range []string{"", "not json", `{"clients": 7}`} {
		if code := RunCleaner(strings.NewReader(in), provider.Leftovers{}); code != 2 {
			t.Errorf("runCleaner(%q) exited %d, want 2", in, code)
		}
	}
}

// TestHandOffWithNothingLeftStartsNothing: no token, no process.
func TestHandOffWithNothingLeftStartsNothing(t *testing.T) {
	pid, n, err := handOffUnclosedTokens(map[*videohost.Client][]string{})
	if pid != 0 || n != 0 || err != nil {
		t.Errorf("handOffUnclosedTokens(nothing) = %d, %d, %v; want no process", pid, n, err)
	}
}
