package videohost

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// testKey is the API key of the fake service; tests assert it never leaks.
const testKey = "key-Zq8rT3vW9yB2"

// seen is one request as the fake service recorded it, with the server's own clock.
type seen struct {
	at     time.Time
	method string
	path   string
	query  string
	authz  string
	body   string
}

// fakeService is a small stand-in for the service: it issues and checks tokens, records every
// request with its arrival time, and hands the other paths to api. It is written from the
// specification, independently of the client's wire types.
type fakeService struct {
	t   testing.TB
	srv *httptest.Server

	mu        sync.Mutex
	reqs      []seen
	n         int
	access    map[string]time.Time // access token -> expiry
	refreshOK map[string]bool
	expiresIn int
	// refuseRefresh makes /auth/refresh answer 401; refuseKey makes /auth/api-key answer 401.
	refuseRefresh bool
	refuseKey     bool

	api http.HandlerFunc
}

func newFakeService(t testing.TB, api http.HandlerFunc) *fakeService {
	t.Helper()
	f := &fakeService{
		t: t, access: map[string]time.Time{}, refreshOK: map[string]bool{}, expiresIn: 3600, api: api,
	}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// newBubbleFakeService is newFakeService for a test that runs in a synctest bubble
// (testing/synctest): no server and no socket, the client's requests handed to the fake in
// process, so that the fake's clock and the client's (its limiter's windows and waits) are the
// bubble's one fake clock. Time moves only when every goroutine of the test waits, so a test of
// wall-clock windows gives the same result on a loaded machine as on a quiet one, at once.
func newBubbleFakeService(t testing.TB, api http.HandlerFunc) *fakeService {
	t.Helper()
	return &fakeService{
		t: t, access: map[string]time.Time{}, refreshOK: map[string]bool{}, expiresIn: 3600, api: api,
	}
}

// inProcess is a transport that hands each request to a handler in the caller's goroutine.
type inProcess struct{ h http.Handler }

func (p inProcess) RoundTrip(r *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	p.h.ServeHTTP(rec, r)
	res := rec.Result()
	res.Request = r
	return res, nil
}

func (f *fakeService) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	f.mu.Lock()
	f.reqs = append(f.reqs, seen{
		at: time.Now(), method: r.Method, path: r.URL.Path, query: r.URL.RawQuery,
		authz: r.Header.Get("Authorization"), body: string(body),
	})
	f.mu.Unlock()

	switch r.URL.Path {
	case "/auth/api-key", "/auth/refresh":
		f.serveAuth(w, r, body)
		return
	}
	if !f.authorized(r.Header.Get("Authorization")) {
		writeJSON(w, http.StatusUnauthorized, map[string]any{
			"type": "https://docs.test/unauthorized", "title": "Unauthorized.", "status": 401,
		})
		return
	}
	if f.api == nil {
		http.NotFound(w, r)
		return
	}
	f.api(w, r)
}

func (f *fakeService) serveAuth(w http.ResponseWriter, r *http.Request, body []byte) {
	if r.Method != http.MethodPost || r.Header.Get("Accept") != "application/json" ||
		r.Header.Get("Content-Type") != "application/json" {
		writeJSON(w, http.StatusBadRequest, map[string]any{"title": "bad auth call", "status": 400})
		return
	}
	var in map[string]string
	if err := json.Unmarshal(body, &in); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"title": "The payload is invalid.", "status": 400})
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	refused := map[string]any{"type": "https://docs.test/unauthorized", "title": "Unauthorized.", "status": 401}
	if r.URL.Path == "/auth/api-key" {
		if f.refuseKey || in["apiKey"] != testKey {
			writeJSON(w, http.StatusUnauthorized, refused)
			return
		}
	} else {
		if f.refuseRefresh || !f.refreshOK[in["refreshToken"]] {
			writeJSON(w, http.StatusUnauthorized, refused)
			return
		}
		delete(f.refreshOK, in["refreshToken"])
	}
	f.n++
	access, refresh := fmt.Sprintf("access-tok-%d-Xy7", f.n), fmt.Sprintf("refresh-tok-%d-Qw3", f.n)
	f.access[access] = time.Now().Add(time.Duration(f.expiresIn) * time.Second)
	f.refreshOK[refresh] = true
	writeJSON(w, http.StatusOK, map[string]any{
		"token_type": "Bearer", "expires_in": f.expiresIn, "access_token": access, "refresh_token": refresh,
	})
}

func (f *fakeService) authorized(h string) bool {
	if h == "Basic "+base64.StdEncoding.EncodeToString([]byte(testKey+":")) {
		return true
	}
	tok, ok := strings.CutPrefix(h, "Bearer ")
	if !ok {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	exp, ok := f.access[tok]
	return ok && time.Now().Before(exp)
}

// revoke makes the service refuse an access token from now on.
func (f *fakeService) revoke(access string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.access, access)
}

// count is how many requests matched method and path.
func (f *fakeService) count(method, path string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, s := range f.reqs {
		if s.method == method && s.path == path {
			n++
		}
	}
	return n
}

// requests returns a copy of what the service saw.
func (f *fakeService) requests() []seen {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]seen(nil), f.reqs...)
}

// client builds a client of the fake service with fast backoff; mods adjust the config.
func (f *fakeService) client(t *testing.T, mods ...func(*Config)) *Client {
	t.Helper()
	cfg := Config{APIKey: testKey, Version: "test"}
	if f.srv != nil {
		cfg.BaseURL, cfg.HTTPClient = f.srv.URL, f.srv.Client()
	} else {
		// A bubble's fake (newBubbleFakeService): the address is never dialled.
		cfg.BaseURL, cfg.HTTPClient = "http://127.0.0.1:1", &http.Client{Transport: inProcess{http.HandlerFunc(f.serve)}}
	}
	for _, m := range mods {
		m(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	c.backoffBase, c.backoffMax = time.Millisecond, 5*time.Millisecond
	return c
}

func basic(cfg *Config) { cfg.AuthScheme = AuthBasic }

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func rateHeadersOf(w http.ResponseWriter, limit, remaining, retryAfter int) {
	w.Header().Set(headerLimit, fmt.Sprint(limit))
	w.Header().Set(headerRemaining, fmt.Sprint(remaining))
	w.Header().Set(headerRetryAfter, fmt.Sprint(retryAfter))
}

// webhookJSON is a webhook as the specification's samples write it.
func webhookJSON(id string, withSecret bool) map[string]any {
	m := map[string]any{
		"webhookId": id, "createdAt": "2024-08-08T14:12:18+00:00",
		"events": []string{"video.encoding.quality.completed"}, "url": "https://example.org/hook/" + id,
	}
	if withSecret {
		m["signatureSecret"] = "secret-" + id
	}
	return m
}

// captureLogger records every line, rendered, so that a test can search it for secrets.
type captureLogger struct {
	mu    sync.Mutex
	lines []logLine
}

type logLine struct {
	level, msg string
	fields     map[string]any
}

func (l *captureLogger) add(level, msg string, fields map[string]any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	cp := make(map[string]any, len(fields))
	for k, v := range fields {
		cp[k] = v
	}
	l.lines = append(l.lines, logLine{level: level, msg: msg, fields: cp})
}

func (l *captureLogger) Debug(_ context.Context, msg string, f map[string]any) {
	l.add("debug", msg, f)
}
func (l *captureLogger) Info(_ context.Context, msg string, f map[string]any) { l.add("info", msg, f) }
func (l *captureLogger) Warn(_ context.Context, msg string, f map[string]any) { l.add("warn", msg, f) }

func (l *captureLogger) all() []logLine {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]logLine(nil), l.lines...)
}

func (l *captureLogger) text() string {
	var b strings.Builder
	for _, line := range l.all() {
		fmt.Fprintf(&b, "%s %s %v\n", line.level, line.msg, line.fields)
	}
	return b.String()
}

// okWebhooks answers every API call with one empty page of webhooks.
func okWebhooks(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"data": []any{}, "pagination": map[string]any{"currentPage": 1, "pagesTotal": 1, "links": []any{}},
	})
}

const docs = "https://docs.test"

// allKinds are the sentinels of the error kinds, for tests that check an error answers to one
// kind and no other.
var allKinds = []error{ErrNotFound, ErrUnknownEndpoint, ErrUnauthorized, ErrRateLimited, ErrRedirect, ErrWebhookLimit,
	ErrInvalidInput, ErrServer, ErrAmbiguous, ErrUndecodable, ErrInvalidID, ErrInterrupted}

// wantKinds fails the test unless err answers errors.Is to exactly the kinds in want.
func wantKinds(t *testing.T, err error, want ...error) {
	t.Helper()
	for _, kind := range allKinds {
		if got := errors.Is(err, kind); got != slices.Contains(want, kind) {
			t.Errorf("errors.Is(%v, %v) = %v, want %v", err, kind, got, !got)
		}
	}
}

func mustAPIError(t *testing.T, err error) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v (%T), want an *Error", err, err)
	}
	return e
}

// assertNoSecret fails when msg holds the API key, its Basic credential or a token of the fake
// service (they all share the prefixes access-tok- and refresh-tok-).
func assertNoSecret(t *testing.T, msg string) {
	t.Helper()
	basicCred := base64.StdEncoding.EncodeToString([]byte(testKey + ":"))
	for _, s := range []string{testKey, basicCred, "access-tok-", "refresh-tok-"} {
		if strings.Contains(msg, s) {
			t.Errorf("the error holds a secret (%q): %s", s, msg)
		}
	}
}

// wantError fails unless err is set, holds every part, and holds no secret.
func wantError(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Errorf("no error, want one holding %q", parts)
		return
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("the error does not hold %q: %v", p, err)
		}
	}
	assertNoSecret(t, err.Error())
}

var tooMany = map[string]any{
	"type": "https://docs.test/too-many-requests", "title": "Too many requests.", "status": 429,
}

// webhookStore serves the webhook endpoints over a map, written from the specification: the
// list carries signatureSecret, the get and create answers do not (as the samples show).
type webhookStore struct {
	mu  sync.Mutex
	ids []string
}

func newWebhookStore(n int) *webhookStore {
	s := &webhookStore{}
	for i := range n {
		s.ids = append(s.ids, fmt.Sprintf("wh-%04d", i))
	}
	return s
}

func (s *webhookStore) add(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ids = append(s.ids, id)
}

func (s *webhookStore) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, one := strings.CutPrefix(r.URL.Path, "/webhooks/")
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/webhooks":
		page, _ := strconv.Atoi(r.URL.Query().Get("currentPage"))
		page = max(page, 1)
		size, _ := strconv.Atoi(r.URL.Query().Get("pageSize"))
		pages := (len(s.ids) + size - 1) / size
		data := []map[string]any{}
		for _, id := range s.ids[min((page-1)*size, len(s.ids)):min(page*size, len(s.ids))] {
			data = append(data, webhookJSON(id, true))
		}
		links := []map[string]string{}
		if page < pages {
			links = append(links, map[string]string{"rel": "next", "uri": fmt.Sprintf("/webhooks?currentPage=%d&pageSize=%d", page+1, size)})
		}
		writeJSON(w, http.StatusOK, map[string]any{"data": data, "pagination": map[string]any{
			"currentPage": page, "pagesTotal": pages, "links": links,
		}})
	case r.Method == http.MethodGet && one:
		if !slices.Contains(s.ids, id) {
			writeJSON(w, http.StatusNotFound, map[string]any{"title": "The requested resource could not be found.", "name": "webhookId", "status": 404})
			return
		}
		writeJSON(w, http.StatusOK, webhookJSON(id, false))
	case r.Method == http.MethodPost && r.URL.Path == "/webhooks":
		var in map[string]any
		_ = json.NewDecoder(r.Body).Decode(&in)
		if in["url"] == "" {
			writeJSON(w, http.StatusBadRequest, map[string]any{"title": "Invalid attributes.", "status": 400})
			return
		}
		id := fmt.Sprintf("wh-new-%d", len(s.ids))
		s.ids = append(s.ids, id)
		writeJSON(w, http.StatusCreated, webhookJSON(id, false))
	case r.Method == http.MethodDelete && one:
		i := slices.Index(s.ids, id)
		if i < 0 {
			writeJSON(w, http.StatusNotFound, map[string]any{"title": "The requested resource could not be found.", "name": "webhookId", "status": 404})
			return
		}
		s.ids = slices.Delete(s.ids, i, i+1)
		w.WriteHeader(http.StatusNoContent)
	default:
		writeJSON(w, http.StatusNotFound, map[string]any{"title": "Unrecognized request URL.", "status": 404})
	}
}
