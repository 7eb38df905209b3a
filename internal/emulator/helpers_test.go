package emulator_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// Shapes of the service's date-times and webhook ids.
var (
	atomRe      = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$`)
	webhookIDRe = regexp.MustCompile(`^webhook_[0-9A-Za-z]{10,}$`)
)

// env is one emulator served on a loopback port, and its first key.
type env struct {
	t   *testing.T
	emu *emulator.Emulator
	srv *httptest.Server
	key string
}

func newEnv(t *testing.T, opts emulator.Options) *env {
	t.Helper()
	emu, err := emulator.New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	srv := httptest.NewServer(emu)
	t.Cleanup(func() {
		srv.Close()
		if err := emu.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return &env{t: t, emu: emu, srv: srv, key: emu.APIKeys()[0]}
}

// response is a decoded answer.
type response struct {
	status int
	header http.Header
	raw    []byte
	body   map[string]any
	list   []any
}

func basic(key string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(key+":"))
}

// do sends a request with the given Authorization ("" for none) and decodes the answer.
func (e *env) do(method, path, auth string, body any) response {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(e.t.Context(), method, e.srv.URL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	out := response{status: resp.StatusCode, header: resp.Header, raw: raw}
	if len(bytes.TrimSpace(raw)) > 0 && strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			e.t.Fatalf("%s %s: body is not JSON: %v: %s", method, path, err, raw)
		}
		switch x := v.(type) {
		case map[string]any:
			out.body = x
		case []any:
			out.list = x
		}
	}
	return out
}

// api sends with Basic credentials of the first key.
func (e *env) api(method, path string, body any) response {
	e.t.Helper()
	return e.do(method, path, basic(e.key), body)
}

func (r response) str(k string) string {
	s, _ := r.body[k].(string)
	return s
}

func (r response) num(k string) int {
	f, _ := r.body[k].(float64)
	return int(f)
}

func (r response) data() []map[string]any {
	items, _ := r.body["data"].([]any)
	out := make([]map[string]any, 0, len(items))
	for _, it := range items {
		m, _ := it.(map[string]any)
		out = append(out, m)
	}
	return out
}

func (r response) pagination() map[string]any {
	p, _ := r.body["pagination"].(map[string]any)
	return p
}

// links maps rel to uri.
func (r response) links() map[string]string {
	out := map[string]string{}
	ls, _ := r.pagination()["links"].([]any)
	for _, l := range ls {
		m, _ := l.(map[string]any)
		rel, _ := m["rel"].(string)
		uri, _ := m["uri"].(string)
		out[rel] = uri
	}
	return out
}

func (r response) problems() []map[string]any {
	ps, _ := r.body["problems"].([]any)
	out := make([]map[string]any, 0, len(ps))
	for _, p := range ps {
		m, _ := p.(map[string]any)
		out = append(out, m)
	}
	return out
}

func expectStatus(t *testing.T, r response, want int) {
	t.Helper()
	if r.status != want {
		t.Fatalf("status %d, want %d; body %s", r.status, want, r.raw)
	}
}

func (e *env) tokens() response {
	e.t.Helper()
	r := e.do("POST", "/auth/api-key", "", map[string]any{"apiKey": e.key})
	expectStatus(e.t, r, http.StatusOK)
	return r
}

// receiver records the notifications it gets and answers with the statuses of plan in turn
// (200 once plan is used up).
type receiver struct {
	srv  *httptest.Server
	mu   sync.Mutex
	got  []notification
	plan []int
	hits int
}

type notification struct {
	webhookID, signature, contentType string
	body                              []byte
	fields                            map[string]any
}

func newReceiver(t *testing.T, plan ...int) *receiver {
	rc := &receiver{plan: plan}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var fields map[string]any
		_ = json.Unmarshal(b, &fields)
		rc.mu.Lock()
		status := http.StatusOK
		if rc.hits < len(rc.plan) {
			status = rc.plan[rc.hits]
		}
		rc.hits++
		if status < 300 {
			rc.got = append(rc.got, notification{
				webhookID: r.Header.Get("X-Service-WebhookID"), signature: r.Header.Get("X-Service-Signature"),
				contentType: r.Header.Get("Content-Type"), body: b, fields: fields,
			})
		}
		rc.mu.Unlock()
		w.WriteHeader(status)
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *receiver) notifications() []notification {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]notification(nil), rc.got...)
}

func (e *env) ctl(method, path string, body any) response {
	e.t.Helper()
	return e.do(method, "/_emulator"+path, "", body)
}

func (e *env) waitDeliveries() {
	e.t.Helper()
	if err := e.emu.WaitDeliveries(e.t.Context()); err != nil {
		e.t.Fatal(err)
	}
}

func rateHeaders(t *testing.T, r response) (limit, remaining, retry int) {
	t.Helper()
	vals := make([]int, 3)
	for i, h := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Retry-After"} {
		v, err := strconv.Atoi(r.header.Get(h))
		if err != nil {
			t.Fatalf("%s = %q on a %d", h, r.header.Get(h), r.status)
		}
		vals[i] = v
	}
	return vals[0], vals[1], vals[2]
}

func ids(r response, key string) []string {
	var out []string
	for _, it := range r.data() {
		out = append(out, fmt.Sprint(it[key]))
	}
	return out
}

func (e *env) createWebhook(url string, events ...string) response {
	e.t.Helper()
	r := e.api("POST", "/webhooks", map[string]any{"url": url, "events": events})
	expectStatus(e.t, r, http.StatusCreated)
	return r
}

// createLiveStream creates a live stream through the service API and fails the test unless it
// is answered 200.
func (e *env) createLiveStream(body map[string]any) response {
	e.t.Helper()
	r := e.api("POST", "/live-streams", body)
	expectStatus(e.t, r, http.StatusOK)
	return r
}

// createPlayer creates a player theme through the service API and fails the test unless it is
// answered 201.
func (e *env) createPlayer(body map[string]any) response {
	e.t.Helper()
	r := e.api("POST", "/players", body)
	expectStatus(e.t, r, http.StatusCreated)
	return r
}
