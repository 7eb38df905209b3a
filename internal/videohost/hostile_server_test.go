package videohost

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// The tests of this file put the client in front of servers that answer what the service never
// would: error pages of a proxy, cut or mislabelled answers, endless bodies and redirects. Each
// must end in an error that says what happened and what to check, and no error may carry the
// key or a token.

const proxyPage = `<!DOCTYPE html>
<html><head><title>502 Bad Gateway</title></head>
<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>`

func TestHostileHTMLErrorPage(t *testing.T) {
	f := newFakeService(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = io.WriteString(w, proxyPage)
	})
	for _, scheme := range []string{AuthBearer, AuthBasic} {
		t.Run(scheme, func(t *testing.T) {
			c := f.client(t, func(cfg *Config) { cfg.AuthScheme, cfg.MaxRetries = scheme, 2 })
			_, err := c.GetWebhook(t.Context(), "wh-1")
			if err == nil {
				t.Fatal("no error")
			}
			// The page is kept as one line, cut, after the status: enough to recognise nginx.
			wantError(t, err, "GET /webhooks/wh-1: 502 Bad Gateway", "retried 2 times", "<!DOCTYPE html> <html><head>")
			var e *Error
			if !errors.As(err, &e) || e.Status != http.StatusBadGateway {
				t.Errorf("err = %#v, want an *Error of status 502", err)
			}
			if len(err.Error()) > 600 {
				t.Errorf("the error is %d bytes long: the page must be cut", len(err.Error()))
			}
		})
	}
}

func TestHostileHTMLErrorPageOnTheTokenCall(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		// A page that echoes what it got must not bring it into the error.
		_, _ = io.WriteString(w, proxyPage+"<!-- apiKey="+testKey+" -->")
	}))
	t.Cleanup(srv.Close)
	c, err := New(Config{BaseURL: srv.URL, APIKey: testKey, HTTPClient: srv.Client(), MaxRetries: NoRetries})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ListWebhooks(t.Context(), "")
	wantError(t, err, "POST /auth/api-key: 502 Bad Gateway")
}

func TestHostileTruncatedJSON(t *testing.T) {
	t.Run("get", func(t *testing.T) {
		f := newFakeService(t, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"webhookId":"wh-1","createdAt":"2024-08-08T14:12:18+00:00","ev`)
		})
		_, err := f.client(t).GetWebhook(t.Context(), "wh-1")
		wantError(t, err, "GET /webhooks/wh-1: decoding the response", "not valid JSON, as if it was cut short",
			`begins "{\"webhookId\"`, "check that base_url", f.srv.URL)
	})
	t.Run("second page of a list", func(t *testing.T) {
		f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			if r.URL.Query().Get("currentPage") == "2" {
				_, _ = io.WriteString(w, `{"data":[{"webhookId":"wh-2","url":"https://e.org/2","events":["video.encoding.quality.com`)
				return
			}
			_, _ = fmt.Fprint(w, `{"data":[{"webhookId":"wh-1","url":"https://e.org/1","events":[]}],
			"pagination":{"currentPage":1,"pageSize":1,"pagesTotal":2,"itemsTotal":2,
			"links":[{"rel":"next","uri":"/webhooks?currentPage=2&pageSize=1"}]}}`)
		})
		list, err := f.client(t, basic).ListWebhooks(t.Context(), "")
		wantError(t, err, "GET /webhooks: decoding the response", "cut short")
		if list != nil {
			t.Errorf("a list that failed part way returned %d items", len(list))
		}
		if n := f.count(http.MethodGet, "/webhooks"); n != 2 {
			t.Errorf("%d reads of the list, want 2 (a cut answer is not a network fault to retry)", n)
		}
	})
	t.Run("create", func(t *testing.T) {
		// The webhook was made, but what it is cannot be read: the outcome is unknown.
		f := newFakeService(t, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusCreated)
			_, _ = io.WriteString(w, `{"webhookId":"wh-9",`)
		})
		_, err := f.client(t).CreateWebhook(t.Context(), CreateWebhookInput{URL: "https://e.org/h", Events: []string{"x"}})
		wantError(t, err, "POST /webhooks", "the outcome is unknown", "cut short")
		if !errors.Is(err, ErrAmbiguous) {
			t.Errorf("err = %v, want ErrAmbiguous", err)
		}
	})
}

func TestHostileWrongContentType(t *testing.T) {
	for _, tc := range []struct {
		contentType, body string
	}{
		{"text/html; charset=utf-8", "<!doctype html><html><body>Welcome to our video platform</body></html>"},
		{"text/plain; charset=utf-8", "Service temporarily unavailable, please try again later."},
		{"", "OK"}, // no Content-Type: Go's server sniffs text/plain
	} {
		t.Run(tc.contentType, func(t *testing.T) {
			f := newFakeService(t, func(w http.ResponseWriter, _ *http.Request) {
				if tc.contentType != "" {
					w.Header().Set("Content-Type", tc.contentType)
				}
				_, _ = io.WriteString(w, tc.body)
			})
			_, err := f.client(t).GetVideo(t.Context(), "vi-1")
			want := "text/plain; charset=utf-8"
			if tc.contentType != "" {
				want = tc.contentType
			}
			wantError(t, err, "GET /videos/vi-1: decoding the response", want+", not JSON", fmt.Sprintf("begins %q", tc.body[:min(len(tc.body), shownBegin)]))
		})
	}
	t.Run("empty 200", func(t *testing.T) {
		f := newFakeService(t, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
		})
		_, err := f.client(t).GetLiveStream(t.Context(), "li-1")
		wantError(t, err, "GET /live-streams/li-1: decoding the response: the response (status 200) is empty")
	})
	t.Run("JSON labelled text/plain", func(t *testing.T) {
		// A proxy that relabels answers does no harm when the body is the API's JSON.
		f := newFakeService(t, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			_, _ = io.WriteString(w, `{"webhookId":"wh-1","url":"https://e.org/1","events":[]}`)
		})
		w, err := f.client(t).GetWebhook(t.Context(), "wh-1")
		if err != nil || w.ID != "wh-1" {
			t.Fatalf("GetWebhook = %+v, %v", w, err)
		}
	})
}

// endless writes chunks of filler after prefix until the reader goes away or limit bytes were
// written, and counts what it wrote.
type endless struct {
	status      int
	contentType string
	prefix      string
	limit       int64
	written     atomic.Int64
}

func (e *endless) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", e.contentType)
	w.WriteHeader(e.status)
	n, _ := io.WriteString(w, e.prefix)
	e.written.Add(int64(n))
	chunk := []byte(strings.Repeat(`{"webhookId":"wh","url":"https://e.org/h","events":[]},`, 1<<10))
	for e.written.Load() < e.limit {
		if r.Context().Err() != nil {
			return
		}
		n, err := w.Write(chunk)
		e.written.Add(int64(n))
		if err != nil {
			return
		}
	}
}

func TestHostileHugeBody(t *testing.T) {
	const gib = 1 << 30
	for _, tc := range []struct {
		name   string
		status int
		want   []string
	}{
		{"200", http.StatusOK, []string{"GET /webhooks: the response (status 200, application/json) is larger than 8 MiB", "stopped reading", "base_url"}},
		// An error answer keeps its status; its body is cut like any other.
		{"502", http.StatusBadGateway, []string{"GET /webhooks: 502 Bad Gateway", `: {"data":[{"webhookId":"wh"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &endless{status: tc.status, contentType: "application/json", prefix: `{"data":[`, limit: gib}
			srv := httptest.NewServer(e)
			t.Cleanup(srv.Close)
			c, err := New(Config{BaseURL: srv.URL, APIKey: testKey, AuthScheme: AuthBasic, HTTPClient: srv.Client(), MaxRetries: NoRetries})
			if err != nil {
				t.Fatal(err)
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err = c.ListWebhooks(t.Context(), "")
			runtime.ReadMemStats(&after)
			wantError(t, err, tc.want...)
			if err != nil && len(err.Error()) > 1000 {
				t.Errorf("the error is %d bytes long", len(err.Error()))
			}
			srv.CloseClientConnections()
			// The allocations of the whole process while the call ran, server included: reading
			// the answer to its end would be above a GiB, the bound costs a few times 8 MiB.
			alloc := after.TotalAlloc - before.TotalAlloc
			t.Logf("the server wrote %d MiB before the client hung up; %d MiB allocated during the call",
				e.written.Load()>>20, alloc>>20)
			if alloc > 256<<20 {
				t.Errorf("%d MiB allocated while reading one answer, want the bound of %d MiB to hold", alloc>>20, maxBody>>20)
			}
			if e.written.Load() >= gib {
				t.Errorf("the server wrote all of its %d bytes: the client read the answer to its end", e.written.Load())
			}
		})
	}
}

// redirectTo answers a redirect as a proxy does: Location and a page that does not repeat it.
func redirectTo(w http.ResponseWriter, location string, status int) {
	w.Header().Set("Location", location)
	w.Header().Set("Content-Type", "text/html")
	w.WriteHeader(status)
	_, _ = fmt.Fprintf(w, "<html><head><title>%d %s</title></head><body><h1>%[2]s</h1></body></html>", status, http.StatusText(status))
}

// redirectTarget is the other address a redirect points to; it records whatever reaches it.
type redirectTarget struct {
	srv  *httptest.Server
	mu   sync.Mutex
	seen []string // method, path, Authorization and body of every request
}

func newRedirectTarget(t *testing.T) *redirectTarget {
	rt := &redirectTarget{}
	rt.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rt.mu.Lock()
		rt.seen = append(rt.seen, fmt.Sprintf("%s %s authorization=%q body=%q", r.Method, r.URL.Path, r.Header.Get("Authorization"), body))
		rt.mu.Unlock()
		writeJSON(w, http.StatusOK, map[string]any{"data": []any{}, "access_token": "x", "webhookId": "wh-1"})
	}))
	t.Cleanup(rt.srv.Close)
	return rt
}

// requests returns what reached the target.
func (rt *redirectTarget) requests() []string {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return append([]string(nil), rt.seen...)
}

func TestHostileRedirectToAnotherHost(t *testing.T) {
	calls := map[string]struct {
		path string
		call func(*Client) error
	}{
		"get":  {"/webhooks/wh-1", func(c *Client) error { _, err := c.GetWebhook(t.Context(), "wh-1"); return err }},
		"list": {"/webhooks", func(c *Client) error { _, err := c.ListWebhooks(t.Context(), ""); return err }},
		"create": {"/webhooks", func(c *Client) error {
			_, err := c.CreateWebhook(t.Context(), CreateWebhookInput{URL: "https://e.org/h"})
			return err
		}},
		"delete": {"/webhooks/wh-1", func(c *Client) error { return c.DeleteWebhook(t.Context(), "wh-1") }},
	}
	for _, status := range []int{http.StatusMovedPermanently, http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		for _, scheme := range []string{AuthBasic, AuthBearer} {
			for name, cl := range calls {
				t.Run(fmt.Sprintf("%d/%s/%s", status, scheme, name), func(t *testing.T) {
					target := newRedirectTarget(t)
					f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
						// The query must not reach the error: a server could put anything there.
						redirectTo(w, target.srv.URL+"/v2"+r.URL.Path+"?sig=QUERY-MUST-NOT-SHOW", status)
					})
					c := f.client(t, func(cfg *Config) { cfg.AuthScheme = scheme })
					err := cl.call(c)
					wantError(t, err, fmt.Sprintf("%s: %d %s", cl.path, status, http.StatusText(status)),
						fmt.Sprintf("a redirect to %s/v2%s;", target.srv.URL, cl.path),
						"does not follow redirects", "set base_url to "+target.srv.URL+"/v2")
					var e *Error
					if !errors.As(err, &e) || e.Status != status {
						t.Errorf("err = %#v, want an *Error of status %d", err, status)
					}
					if err != nil && strings.Contains(err.Error(), "QUERY-MUST-NOT-SHOW") {
						t.Errorf("the error shows the query of the Location: %v", err)
					}
					if errors.Is(err, ErrAmbiguous) {
						t.Errorf("a redirect is a refusal, not an unknown outcome: %v", err)
					}
					if got := target.requests(); len(got) != 0 {
						t.Errorf("the other host received %d requests: %q", len(got), got)
					}
					var api int
					for _, s := range f.requests() {
						if !strings.HasPrefix(s.path, "/auth/") {
							api++
						}
					}
					if api != 1 {
						t.Errorf("the service saw %d API requests, want 1 (a redirect is not retried)", api)
					}
				})
			}
		}
	}
}

func TestHostileRedirectOfTheTokenCall(t *testing.T) {
	// A 307 or 308 repeats the body: followed, it would send {"apiKey": ...} to the other host.
	for _, status := range []int{http.StatusTemporaryRedirect, http.StatusPermanentRedirect, http.StatusFound} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			target := newRedirectTarget(t)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				redirectTo(w, target.srv.URL+r.URL.Path, status)
			}))
			t.Cleanup(srv.Close)
			c, err := New(Config{BaseURL: srv.URL, APIKey: testKey, HTTPClient: srv.Client()})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.GetWebhook(t.Context(), "wh-1")
			wantError(t, err, "POST /auth/api-key", fmt.Sprintf("a redirect to %s/auth/api-key", target.srv.URL), "set base_url to "+target.srv.URL)
			if got := target.requests(); len(got) != 0 {
				t.Errorf("the other host received %q", got)
			}
		})
	}
}

func TestHostileRedirectOnTheSameHost(t *testing.T) {
	// Even on the same host a redirect is not followed: the configured address is wrong, and
	// the error says which one is right.
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		redirectTo(w, "/api"+r.URL.Path, http.StatusMovedPermanently)
	})
	_, err := f.client(t, basic).GetWebhook(t.Context(), "wh-1")
	wantError(t, err, "301 Moved Permanently", "a redirect to "+f.srv.URL+"/api/webhooks/wh-1", "set base_url to "+f.srv.URL+"/api")
	if n := len(f.requests()); n != 1 {
		t.Errorf("the service saw %d requests, want 1", n)
	}

	t.Run("without Location", func(t *testing.T) {
		f := newFakeService(t, func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusFound) })
		_, err := f.client(t, basic).GetWebhook(t.Context(), "wh-1")
		wantError(t, err, "302 Found", "a redirect without a Location", "check that base_url")
	})
	t.Run("unrelated path", func(t *testing.T) {
		f := newFakeService(t, func(w http.ResponseWriter, _ *http.Request) {
			redirectTo(w, "https://login.example.test/sso?next=%2Fwebhooks", http.StatusFound)
		})
		_, err := f.client(t, basic).GetWebhook(t.Context(), "wh-1")
		wantError(t, err, "a redirect to https://login.example.test/sso", "set base_url to the address the API is served at")
	})
}

func TestPathTraversalIsRefused(t *testing.T) {
	f := newFakeService(t, func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, webhookJSON("wh-1", false))
	})
	c := f.client(t, basic)
	for _, id := range []string{"..", ".", "../videos", `..\videos`, "a/../../live-streams", "x/./y"} {
		t.Run(id, func(t *testing.T) {
			_, err := c.GetWebhook(t.Context(), id)
			wantError(t, err, fmt.Sprintf("the id %q holds the path step", id), "use the id exactly as the service gives it")
			if !errors.Is(err, ErrInvalidID) {
				t.Errorf("err = %v, want ErrInvalidID", err)
			}
			_, err = c.GetVideo(t.Context(), id)
			if !errors.Is(err, ErrInvalidID) {
				t.Errorf("GetVideo: err = %v, want ErrInvalidID", err)
			}
			_, err = c.GetLiveStream(t.Context(), id)
			if !errors.Is(err, ErrInvalidID) {
				t.Errorf("GetLiveStream: err = %v, want ErrInvalidID", err)
			}
			if err := c.DeleteWebhook(t.Context(), id); !errors.Is(err, ErrInvalidID) {
				t.Errorf("DeleteWebhook: err = %v, want ErrInvalidID", err)
			}
		})
	}
	if n := len(f.requests()); n != 0 {
		t.Errorf("the service saw %d requests, want none", n)
	}

	// Other ids are escaped into one segment: Unicode, spaces, and a slash without a dot step.
	for id, want := range map[string]string{
		"wébhook ü":  "/webhooks/w%C3%A9bhook%20%C3%BC",
		"a/b":        "/webhooks/a%2Fb",
		"..a":        "/webhooks/..a",
		"%2e%2e":     "/webhooks/%252e%252e",
		"wh?x=1#top": "/webhooks/wh%3Fx=1%23top",
	} {
		var raw string
		g := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
			raw = r.URL.EscapedPath()
			writeJSON(w, http.StatusOK, webhookJSON("wh-1", false))
		})
		if _, err := g.client(t, basic).GetWebhook(t.Context(), id); err != nil {
			t.Errorf("GetWebhook(%q): %v", id, err)
		}
		if raw != want {
			t.Errorf("GetWebhook(%q) sent the path %s, want %s", id, raw, want)
		}
	}
}
