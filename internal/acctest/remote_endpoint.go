package acctest

// Against a real endpoint (VIDEOHOST_EMULATOR=0), each test sends through a loopback proxy of
// its own: it counts the test's requests, as the emulator does in-process, records what the
// test creates and deletes in the run's ledger (ledger.go), and puts the contract check between
// the provider and the endpoint when the run has the document.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// requestCounter counts the requests that pass it, by method and path.
type requestCounter struct {
	mu       sync.Mutex
	counts   map[string]int
	inFlight inFlight // what the test waits on, for the message of its deadline
}

// wrap counts the requests that next answers, but those it refuses for the rate limit (429):
// against a service that other tests share, a window they spent makes the provider send a
// request again, and a test that counts the requests of a change (one PATCH for an update)
// counts what the service took, as it does against an emulator of its own.
func (c *requestCounter) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		what := r.Method + " " + r.URL.Path
		c.inFlight.begin(what)
		defer c.inFlight.end(what)
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(sw, r)
		if sw.status != http.StatusTooManyRequests {
			c.mu.Lock()
			c.counts[what]++
			c.mu.Unlock()
		}
	})
}

// statusWriter records the status of the answer it writes.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController reach the writer's own Flush and deadlines.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// count is how many requests of method (every method for "") whose path starts with prefix
// passed, as the emulator's RequestCount.
func (c *requestCounter) count(method, prefix string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for k, v := range c.counts {
		m, p, _ := strings.Cut(k, " ")
		if (method == "" || m == method) && strings.HasPrefix(p, prefix) {
			n += v
		}
	}
	return n
}

// RequestCount is how many of this test's requests of method whose path starts with prefix
// reached the service: the emulator's count in-process, the proxy's against a real endpoint
// (without those the shared rate limit refused).
func (e *AccEnv) RequestCount(method, prefix string) int {
	if e.Emu != nil {
		return e.Emu.RequestCount(method, prefix)
	}
	return e.remote.count(method, prefix)
}

// remoteAccEnv is the service of a test against the real endpoint that VIDEOHOST_API_KEY and
// VIDEOHOST_BASE_URL name, through the test's proxy, behind wrap when it is not nil (a test that
// watches the requests, as it would watch the emulator's).
func remoteAccEnv(t *testing.T, wrap func(http.Handler) http.Handler) *AccEnv {
	t.Helper()
	key, base := os.Getenv(framework.EnvAPIKey), os.Getenv(framework.EnvBaseURL)
	if key == "" || base == "" {
		t.Fatalf("VIDEOHOST_EMULATOR=0 needs %s and %s to name the endpoint to test against", framework.EnvAPIKey, framework.EnvBaseURL)
	}
	// Before the test sends anything with the key: the endpoint must be the sandbox or an
	// emulator, unless the user allowed more.
	if err := guardRemote(base); err != nil {
		t.Fatalf("VIDEOHOST_EMULATOR=0: %v", err)
	}
	if err := openLedger(); err != nil {
		t.Fatalf("ledger: %v", err)
	}
	url, counter := remoteEndpoint(t, base, wrap)
	return &AccEnv{BaseURL: url, APIKey: key, remote: counter, test: t.Name()}
}

// remoteEndpoint starts the test's proxy to the endpoint base and returns its address and
// counter; it is stopped when the test ends.
func remoteEndpoint(t *testing.T, base string, wrap func(http.Handler) http.Handler) (string, *requestCounter) {
	t.Helper()
	target, err := url.Parse(base)
	if err != nil {
		t.Fatalf("%s: %v", framework.EnvBaseURL, err)
	}
	// The count and the check see the paths as the service's API writes them, without the
	// base's own path; the proxy puts it back, and sends the endpoint's own host name.
	proxy := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) { r.SetURL(target) }}
	counter := &requestCounter{counts: map[string]int{}}
	prefix := strings.TrimSuffix(target.Path, "/")
	var h http.Handler = proxy
	if wrap != nil {
		h = wrap(proxy)
	}
	srv := httptest.NewServer(http.StripPrefix(prefix, counter.wrap(recordLedger(t, checkContract(t, h)))))
	t.Cleanup(srv.Close)
	return srv.URL + prefix, counter
}

// CreateWebhookOutside makes a webhook as a user would outside Terraform, through the public API
// with the key, and returns it as the service lists it (with its signature secret, which a
// create's answer may leave out). The webhook is deleted when the test ends, if still there.
func CreateWebhookOutside(t *testing.T, env *AccEnv, url string, evs ...string) videohost.Webhook {
	t.Helper()
	c := ServiceClient(t, env)
	w, err := c.CreateWebhook(t.Context(), videohost.CreateWebhookInput{URL: url, Events: evs})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.DeleteWebhook(context.Background(), w.ID); err != nil && !errors.Is(err, videohost.ErrNotFound) {
			t.Errorf("deleting webhook %s made outside Terraform: %v", w.ID, err)
		}
	})
	if w.SignatureSecret == "" {
		if w, err = c.LookupWebhook(t.Context(), w.ID); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

// RequireOwnAccount skips a test that reads every object of a kind on the account and counts
// on finding only its own (why says which): against a real endpoint others share the account.
func (e *AccEnv) RequireOwnAccount(t *testing.T, why string) {
	t.Helper()
	if e.Emu == nil {
		t.Skipf("%s, so it needs an account of its own: it runs against the in-process emulator, not with VIDEOHOST_EMULATOR=0", why)
	}
}

// RunSuffix is a short random word that a test adds to the names it filters by (tags, titles),
// so that what it lists is its own even in a workspace that other tests use at the same time.
func RunSuffix(t *testing.T) string {
	t.Helper()
	b := make([]byte, 4)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}
