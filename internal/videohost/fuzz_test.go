package videohost

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// The fuzz targets of the client. Each one drives the real code (decodeError, the do loop, the
// token source, Paginate, Verify) and checks properties that hold for every input, so that a
// finding is a broken promise and not only a panic. Their seeds live in testdata/fuzz/<Name>/
// (the samples of the specification and of the emulator) and run with every go test.
//
// The service is an in-memory http.RoundTripper handed to the client through Config.HTTPClient:
// no listener, so that one execution costs microseconds and nothing leaves the process.

// fuzzKey is the API key of the fuzzed clients; fuzzKeyOther is a second key, to show that the
// key does not shape any error text.
const (
	fuzzKey      = "key-Fz4kQ9wX2mB7"
	fuzzKeyOther = "key-Lp3nV8cR5tY1"
)

// fuzzBase is the address of the fuzzed clients; the transport answers for this host only.
const fuzzBase = "http://svc.test"

// roundTripFunc is an in-memory service.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// cannedAnswer is an answer of the in-memory service: status, a JSON content type and body.
func cannedAnswer(r *http.Request, status int, body []byte) *http.Response {
	return &http.Response{
		StatusCode: status, Status: strconv.Itoa(status), Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:        http.Header{"Content-Type": {"application/json"}},
		Body:          io.NopCloser(bytes.NewReader(body)),
		ContentLength: int64(len(body)), Request: r,
	}
}

// fuzzClient builds a client of the in-memory service rt that sends every call once.
func fuzzClient(t *testing.T, key, scheme, base string, rt roundTripFunc, log Logger) *Client {
	t.Helper()
	c, err := New(Config{
		BaseURL: base, APIKey: key, AuthScheme: scheme, Version: "fuzz", MaxRetries: NoRetries,
		HTTPClient: &http.Client{Transport: rt}, Logger: log,
	})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}

// checkSecretFree fails when text shows the API key or its Basic header and the service's own
// answer did not carry them (a service may echo anything; the client must add nothing).
func checkSecretFree(t *testing.T, what, text string, answer []byte) {
	t.Helper()
	// A backslash may hide the key behind JSON escapes; such answers are not checked.
	if bytes.Contains(answer, []byte(`\`)) {
		return
	}
	for _, secret := range []string{fuzzKey, base64.StdEncoding.EncodeToString([]byte(fuzzKey + ":"))} {
		if strings.Contains(text, secret) && !bytes.Contains(answer, []byte(secret)) {
			t.Fatalf("%s shows a credential the answer did not carry: %q", what, text)
		}
	}
}

// checkOneLine fails when an error message is not one line of valid UTF-8: messages end up in
// Terraform diagnostics and logs, one per line.
func checkOneLine(t *testing.T, msg string) {
	t.Helper()
	if !utf8.ValidString(msg) {
		t.Fatalf("message is not valid UTF-8: %q", msg)
	}
	if strings.ContainsAny(msg, "\r\n") {
		t.Fatalf("message spans lines: %q", msg)
	}
}

// errorMembers are the members of the error object that Error has fields for.
var errorMembers = map[string]bool{"type": true, "title": true, "name": true, "detail": true, "problems": true}

// FuzzDecodeError decodes arbitrary error answers, directly and through the client's request
// loop. Properties:
//   - the status line is the truth: Status is the given status whatever the body says, and
//     errors.Is matches exactly the sentinel of that status;
//   - a JSON object fills the fields of the members that decode, and every other member (a
//     member of the wrong type included, but never "status") is kept in Extra, as decoded:
//     a member is in its field or in Extra, never in both;
//   - any other body is kept as a cut of valid UTF-8 of at most bodyCut bytes plus the ellipsis,
//     and verbatim when it is short valid UTF-8;
//   - the message is one line of valid UTF-8 that starts with method, path and status, the
//     same on every call;
//   - through the client, a GET gets that same *Error, a POST that failed with 5xx gets an
//     *AmbiguousError around it, a 401 under the basic scheme carries the hint about the key,
//     and the message is the same whichever the API key and never shows the key.
func FuzzDecodeError(f *testing.F) {
	f.Add(400, []byte(`{"type":"https://docs.test/invalid-attribute","title":"Invalid attributes.","name":"events","status":400,"events":"This attribute must be an array.","problems":[{"type":"https://docs.test/invalid-attribute","title":"This attribute must be an array.","name":"events"}]}`))
	f.Add(502, []byte("<html>\n<head><title>502 Bad Gateway</title></head>\n<body>nginx</body>\n</html>\n"))
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		if status < 100 || status > 999 {
			// net/http refuses other status codes before the client sees them.
			return
		}
		e := decodeError(http.MethodGet, "/webhooks/wh-1", status, body)
		checkDecodedError(t, e, http.MethodGet, "/webhooks/wh-1", status, body)
		if status >= 200 && status < 300 {
			return
		}
		checkClientError(t, status, body)
	})
}

// checkDecodedError checks the properties of one decoded error against an independent reading
// of the body.
func checkDecodedError(t *testing.T, e *Error, method, path string, status int, body []byte) {
	t.Helper()
	if e == nil {
		t.Fatal("decodeError returned nil")
	}
	if e.Method != method || e.Path != path || e.Status != status {
		t.Fatalf("method, path, status = %q %q %d, want %q %q %d", e.Method, e.Path, e.Status, method, path, status)
	}
	// A 403 is refused credentials too: the service names no other meaning for it. A 404 is
	// either no such endpoint, by the seed's slug or title, or no such object.
	endpoint := status == http.StatusNotFound && unrecognizedURLBody(body)
	for sentinel, want := range map[error]bool{
		ErrNotFound: status == http.StatusNotFound && !endpoint, ErrUnknownEndpoint: endpoint,
		ErrUnauthorized: status == 401 || status == 403, ErrRateLimited: status == 429,
	} {
		if errors.Is(e, sentinel) != want {
			t.Fatalf("errors.Is(%d, %v) = %v", status, sentinel, !want)
		}
	}
	if errors.Is(e, ErrAmbiguous) {
		t.Fatal("a decoded error is ambiguous")
	}

	var members map[string]any
	isObject := json.Unmarshal(body, &members) == nil && members != nil
	if isObject {
		if e.Body != "" {
			t.Fatalf("Body = %q for a JSON object", e.Body)
		}
		checkMembers(t, e, members)
	} else {
		if !utf8.ValidString(e.Body) || len(e.Body) > bodyCut+len("…") {
			t.Fatalf("Body is not a valid cut: %q", e.Body)
		}
		if utf8.Valid(body) && len(body) <= bodyCut && e.Body != string(body) {
			t.Fatalf("Body = %q, want the short body %q as it is", e.Body, body)
		}
		if e.Type != "" || e.Title != "" || e.Name != "" || e.Detail != "" || e.Problems != nil || e.Extra != nil {
			t.Fatalf("fields set from a body that is not a JSON object: %#v", e)
		}
	}

	msg := e.Error()
	checkOneLine(t, msg)
	if prefix := fmt.Sprintf("%s %s: %d ", method, path, status); !strings.HasPrefix(msg, prefix) {
		t.Fatalf("message %q does not start with %q", msg, prefix)
	}
	if again := e.Error(); again != msg {
		t.Fatalf("message changes between calls:\n %q\n %q", msg, again)
	}
	if title := oneLine(e.Title); title != "" && !strings.Contains(msg, title) {
		t.Fatalf("message %q does not show the title %q", msg, title)
	}
}

// checkMembers checks that each member of an error object is in its field or in Extra.
func checkMembers(t *testing.T, e *Error, members map[string]any) {
	t.Helper()
	fields := map[string]string{"type": e.Type, "title": e.Title, "name": e.Name, "detail": e.Detail}
	for k, v := range members {
		_, inExtra := e.Extra[k]
		switch {
		case k == "status":
			if inExtra {
				t.Fatal("status is in Extra: the status line is the truth")
			}
		case k == "problems":
			raw, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			var ps []Problem
			if json.Unmarshal(raw, &ps) == nil {
				if inExtra || !reflect.DeepEqual(e.Problems, ps) {
					t.Fatalf("problems %s decoded as %#v (in Extra: %v)", raw, e.Problems, inExtra)
				}
			} else if !inExtra || e.Problems != nil {
				t.Fatalf("undecodable problems %s: Problems = %#v, in Extra: %v", raw, e.Problems, inExtra)
			}
		case errorMembers[k]:
			s, isString := v.(string)
			switch {
			case v == nil:
				// JSON null leaves the field empty.
				if inExtra || fields[k] != "" {
					t.Fatalf("null %s: field %q, in Extra %v", k, fields[k], inExtra)
				}
			case isString:
				if inExtra || fields[k] != s {
					t.Fatalf("%s = %q, want %q (in Extra: %v)", k, fields[k], s, inExtra)
				}
			default:
				if !inExtra || fields[k] != "" {
					t.Fatalf("%s of type %T: field %q, in Extra %v", k, v, fields[k], inExtra)
				}
			}
		}
		if inExtra && !reflect.DeepEqual(e.Extra[k], v) {
			t.Fatalf("Extra[%q] = %#v, want %#v", k, e.Extra[k], v)
		}
		if !errorMembers[k] && k != "status" && !inExtra {
			t.Fatalf("member %q is lost: neither a field nor in Extra", k)
		}
	}
	for k := range e.Extra {
		if _, ok := members[k]; !ok {
			t.Fatalf("Extra holds %q, which the body does not", k)
		}
	}
}

// checkClientError sends one GET and one POST to a service that answers status and body, under
// two API keys, and checks what the caller gets.
func checkClientError(t *testing.T, status int, body []byte) {
	t.Helper()
	rt := func(r *http.Request) (*http.Response, error) { return cannedAnswer(r, status, body), nil }
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		var msgs []string
		for _, key := range []string{fuzzKey, fuzzKeyOther} {
			c := fuzzClient(t, key, AuthBasic, fuzzBase, rt, nil)
			err := c.do(context.Background(), request{method: method, path: "/webhooks"}, nil)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("%s %d: err = %v (%T), want an *Error", method, status, err, err)
			}
			var amb *AmbiguousError
			if wantAmb := method == http.MethodPost && status >= 500; errors.As(err, &amb) != wantAmb {
				t.Fatalf("%s %d: ambiguous = %v, want %v", method, status, !wantAmb, wantAmb)
			}
			want := decodeError(method, "/webhooks", status, body)
			if e.Method != want.Method || e.Path != want.Path || e.Status != want.Status || e.Type != want.Type ||
				e.Title != want.Title || e.Name != want.Name || e.Detail != want.Detail || e.Body != want.Body ||
				!reflect.DeepEqual(e.Problems, want.Problems) || !reflect.DeepEqual(e.Extra, want.Extra) {
				t.Fatalf("client error %#v differs from decodeError %#v", e, want)
			}
			if status == http.StatusUnauthorized && !strings.Contains(e.Error(), "refused the credentials") {
				t.Fatalf("401 without the hint about the key: %q", e.Error())
			}
			msg := err.Error()
			checkOneLine(t, msg)
			checkSecretFree(t, "error", msg, body)
			msgs = append(msgs, msg)
		}
		if msgs[0] != msgs[1] {
			t.Fatalf("the message depends on the API key:\n %q\n %q", msgs[0], msgs[1])
		}
	}
}

// wantToken is the token answer as the specification writes it, decoded independently of the
// client's own type.
type wantToken struct {
	TokenType    string `json:"token_type"`
	ExpiresIn    int    `json:"expires_in"`
	AccessToken  string `json:"access_token"`
	RefreshToken string `json:"refresh_token"`
}

// maxLifetimeSeconds is the longest lifetime a time.Duration holds.
const maxLifetimeSeconds = math.MaxInt64 / int64(time.Second)

// FuzzTokenResponse answers POST /auth/api-key of a bearer client with an arbitrary status and
// body, and checks what AccessToken makes of it. Properties:
//   - the call carries the API key in its JSON body and no Authorization header;
//   - a non-2xx answer is an *Error of POST /auth/api-key with that status and no body cut
//     (the one place a token could be echoed); 401 and 403 say to check the key;
//   - a 2xx answer that does not decode is an error that is not an *Error, one without an
//     access_token says exactly so;
//   - a decoded answer gives its access token, expiring expires_in seconds after the call (the
//     specification's 3600 when absent or not positive, at most what a time.Duration holds),
//     the next API call carries it as Bearer, and the next AccessToken reuses it while it is
//     fresh instead of calling again;
//   - no error and no log line shows the API key or a token of the answer.
func FuzzTokenResponse(f *testing.F) {
	f.Add(200, []byte(`{"token_type":"Bearer","expires_in":3600,"access_token":"eyJhbGciOiJIUzI1NiJ9.e30.sig-Qw3rTy","refresh_token":"rt-Zx9cVb8nM7"}`))
	f.Add(401, []byte(`{"type":"https://docs.test/unauthorized","title":"Unauthorized.","status":401}`))
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		if status < 100 || status > 999 {
			return
		}
		var (
			mu                 sync.Mutex
			authCalls, apiCall int
			apiAuthz           string
		)
		rt := func(r *http.Request) (*http.Response, error) {
			mu.Lock()
			defer mu.Unlock()
			switch r.URL.Path {
			case pathAPIKey:
				authCalls++
				var in map[string]string
				raw, _ := io.ReadAll(r.Body)
				if r.Method != http.MethodPost || r.Header.Get("Authorization") != "" ||
					json.Unmarshal(raw, &in) != nil || in["apiKey"] != fuzzKey || len(in) != 1 {
					t.Errorf("token call %s %s, Authorization %q, body %s", r.Method, r.URL.Path, r.Header.Get("Authorization"), raw)
				}
				return cannedAnswer(r, status, body), nil
			case "/webhooks":
				apiCall++
				apiAuthz = r.Header.Get("Authorization")
				return cannedAnswer(r, http.StatusNoContent, nil), nil
			}
			t.Errorf("unexpected request %s %s", r.Method, r.URL)
			return cannedAnswer(r, http.StatusNotFound, nil), nil
		}
		log := &captureLogger{}
		c := fuzzClient(t, fuzzKey, AuthBearer, fuzzBase, rt, log)
		before := time.Now()
		tok, err := c.AccessToken(context.Background())
		after := time.Now()

		// Tokens of a 2xx answer, read leniently so that they are known even when the strict
		// decoding fails; short ones are skipped, since they may be a word of any message. The
		// members of an error answer are the service's words, shown as such (Extra), whatever
		// their names.
		var lenient map[string]any
		if status >= 200 && status <= 299 {
			_ = json.Unmarshal(body, &lenient)
		}
		var secrets []string
		for _, k := range []string{"access_token", "refresh_token"} {
			if s, ok := lenient[k].(string); ok && len(s) >= 16 {
				secrets = append(secrets, s)
			}
		}
		logs := log.text()
		for _, s := range secrets {
			if err != nil && strings.Contains(err.Error(), s) && !bytes.Contains(body, []byte(`\`)) {
				t.Fatalf("error shows a token: %q", err)
			}
			for _, line := range log.all() {
				for k, v := range line.fields {
					if strings.Contains(fmt.Sprint(v), s) {
						t.Fatalf("log field %s shows a token: %v", k, v)
					}
				}
			}
		}
		checkSecretFree(t, "log", logs, body)
		if authCalls != 1 {
			t.Fatalf("token calls = %d, want 1", authCalls)
		}

		// An empty answer is not a token answer; whether the client calls it undecodable or
		// says it carries no access_token, it is an error of its own, not an *Error.
		var want wantToken
		decoded := len(bytes.TrimSpace(body)) != 0 && json.Unmarshal(body, &want) == nil
		switch {
		case status < 200 || status > 299:
			var e *Error
			if !errors.As(err, &e) || e.Status != status || e.Method != http.MethodPost || e.Path != pathAPIKey {
				t.Fatalf("status %d: err = %v (%T), want an *Error of POST %s", status, err, err, pathAPIKey)
			}
			if e.Body != "" {
				t.Fatalf("the error of a token call keeps the body: %q", e.Body)
			}
			if (status == 401 || status == 403) && !strings.Contains(err.Error(), "refused the API key") {
				t.Fatalf("%d without the hint about the key: %q", status, err)
			}
			checkOneLine(t, err.Error())
			checkSecretFree(t, "error", err.Error(), body)
			return
		case !decoded:
			var e *Error
			if err == nil || errors.As(err, &e) || !strings.HasPrefix(err.Error(), "POST /auth/api-key: ") {
				t.Fatalf("undecodable answer: err = %v (%T)", err, err)
			}
			checkSecretFree(t, "error", err.Error(), body)
			return
		case want.AccessToken == "":
			if err == nil || err.Error() != "POST /auth/api-key: the response carries no access_token" {
				t.Fatalf("answer without access_token: err = %v", err)
			}
			return
		case err != nil:
			t.Fatalf("decoded answer: %v", err)
		}

		if tok.AccessToken != want.AccessToken {
			t.Fatalf("access token %q, want %q", tok.AccessToken, want.AccessToken)
		}
		lifetime := 3600 * time.Second
		if want.ExpiresIn > 0 {
			lifetime = time.Duration(min(int64(want.ExpiresIn), maxLifetimeSeconds)) * time.Second
		}
		if tok.ExpiresAt.Before(before.Add(lifetime)) || tok.ExpiresAt.After(after.Add(lifetime)) {
			t.Fatalf("expires_in %d: token expires %v after the call, want %v", want.ExpiresIn,
				tok.ExpiresAt.Sub(before), lifetime)
		}
		if err := c.do(context.Background(), request{method: http.MethodGet, path: "/webhooks"}, nil); err != nil {
			t.Fatalf("API call with the token: %v", err)
		}
		if apiAuthz != "Bearer "+want.AccessToken {
			t.Fatalf("API call carried %q, want the bearer token", apiAuthz)
		}
		if lifetime >= 2*time.Minute {
			// Far from its refresh point: the token is reused.
			if again, err := c.AccessToken(context.Background()); err != nil || again != tok || authCalls != 1 {
				t.Fatalf("second AccessToken: %v, %v after %d token calls, want the same token", again, err, authCalls)
			}
		}
	})
}

// maxFuzzPages bounds how many page answers one input describes.
const maxFuzzPages = 6

// pageSep separates the page answers of one FuzzPageDecode input.
const pageSep = "\n--page--\n"

// fuzzPage is a page as the specification writes it, decoded independently of page[T].
type fuzzPage struct {
	Data       []json.RawMessage `json:"data"`
	Pagination struct {
		CurrentPage      int `json:"currentPage"`
		CurrentPageItems int `json:"currentPageItems"`
		PageSize         int `json:"pageSize"`
		PagesTotal       int `json:"pagesTotal"`
		ItemsTotal       int `json:"itemsTotal"`
		Links            []struct {
			Rel string `json:"rel"`
			URI string `json:"uri"`
		} `json:"links"`
	} `json:"pagination"`
}

// nextOf is the uri of the first next link of the page, "" when there is none.
func (p fuzzPage) nextOf() string {
	for _, l := range p.Pagination.Links {
		if l.Rel == "next" {
			return l.URI
		}
	}
	return ""
}

// FuzzPageDecode walks a list through Paginate against a service that answers the pages of the
// input in turn (split on pageSep, at most maxFuzzPages) and then the last one forever, under a
// base address with or without a path prefix. Properties:
//   - the walk ends, having sent at most one request more than the input has pages, though the
//     service repeats its last page forever;
//   - every request goes to the base address's scheme and host, without a fragment, with the
//     Basic credentials, and no address is requested twice;
//   - the first request is the list path with the filter and pageSize=100;
//   - the walk never invents a page: each request after the first follows a page that was
//     read and has a next link;
//   - it ends without error only where the list ends as the specification tells it: at a page
//     without a next link, or one whose currentPage reaches the pagesTotal it states (so a page
//     that states no count and has a next link never ends a walk quietly);
//   - the items are exactly those of the pages read, in order: every page's items but maybe
//     those of the last page, which the walk may refuse (a repeated page);
//   - an error is one line and shows no credential.
func FuzzPageDecode(f *testing.F) {
	f.Add(`{"data":[{"n":1}],"pagination":{"currentPage":1,"pagesTotal":2,"links":[{"rel":"next","uri":"/items?currentPage=2&pageSize=100"}]}}`+
		pageSep+`{"data":[{"n":2}],"pagination":{"currentPage":2,"pagesTotal":2,"links":[]}}`, false)
	f.Fuzz(func(t *testing.T, input string, underPrefix bool) {
		pages := strings.Split(input, pageSep)
		if len(pages) > maxFuzzPages {
			pages = pages[:maxFuzzPages]
		}
		base := fuzzBase
		if underPrefix {
			base += "/v1"
		}
		basicAuth := "Basic " + base64.StdEncoding.EncodeToString([]byte(fuzzKey+":"))
		limit := len(pages) + 1

		var (
			reqs   []*url.URL
			served []string
			seen   = map[string]bool{}
		)
		rt := func(r *http.Request) (*http.Response, error) {
			if len(reqs) >= limit {
				t.Errorf("request %d to %s: the walk goes on past %d pages", len(reqs)+1, r.URL, len(pages))
				return nil, errors.New("fuzz: the walk does not end")
			}
			u := r.URL
			if u.Scheme != "http" || !strings.EqualFold(u.Host, "svc.test") || u.Fragment != "" {
				t.Errorf("request to %s: credentials leave the base address %s", u, base)
			}
			if r.Header.Get("Authorization") != basicAuth {
				t.Errorf("request to %s carries %q", u, r.Header.Get("Authorization"))
			}
			if seen[u.String()] {
				t.Errorf("%s requested twice", u)
			}
			seen[u.String()] = true
			reqs = append(reqs, u)
			b := pages[min(len(served), len(pages)-1)]
			served = append(served, b)
			return cannedAnswer(r, http.StatusOK, []byte(b)), nil
		}
		c := fuzzClient(t, fuzzKey, AuthBasic, base, rt, nil)

		var got []json.RawMessage
		var walkErr error
		for it, err := range Paginate[json.RawMessage](context.Background(), c, "/items", url.Values{"events": {"e"}}) {
			if err != nil {
				walkErr = err
				break
			}
			got = append(got, it)
		}
		if t.Failed() {
			return
		}

		if len(reqs) == 0 {
			t.Fatal("no request")
		}
		if first := reqs[0]; first.Path != strings.TrimPrefix(base, fuzzBase)+"/items" || first.RawQuery != "events=e&pageSize=100" {
			t.Fatalf("first request %s, want the list with the filter and pageSize=100", first)
		}

		// Read the served pages independently: what each one allows, and its items.
		var items [][]json.RawMessage
		for i, b := range served {
			var p fuzzPage
			ok := len(strings.TrimSpace(b)) == 0 || json.Unmarshal([]byte(b), &p) == nil
			hasNext := ok && p.nextOf() != ""
			statesLast := p.Pagination.PagesTotal > 0 && p.Pagination.CurrentPage >= p.Pagination.PagesTotal
			last := i == len(served)-1
			if !last && !hasNext {
				t.Fatalf("request %d followed page %d, which has no next link: %q", i+2, i+1, b)
			}
			if last && walkErr == nil && (!ok || (hasNext && !statesLast)) {
				t.Fatalf("the walk ended without error on page %d, which does not end the list: %q", i+1, b)
			}
			items = append(items, p.Data)
		}

		var all, allButLast []json.RawMessage
		for i, page := range items {
			if i < len(items)-1 {
				allButLast = append(allButLast, page...)
			}
			all = append(all, page...)
		}
		if !sameItems(got, all) && (walkErr == nil || !sameItems(got, allButLast)) {
			t.Fatalf("items %s, want those of the %d pages read (error: %v)", got, len(served), walkErr)
		}
		if walkErr != nil {
			checkOneLine(t, walkErr.Error())
			checkSecretFree(t, "error", walkErr.Error(), []byte(input))
		}
	})
}

func sameItems(a, b []json.RawMessage) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// hmacSHA256 is RFC 2104 written out, independently of crypto/hmac, as the oracle of Sign.
func hmacSHA256(key, msg []byte) []byte {
	const block = 64
	if len(key) > block {
		sum := sha256.Sum256(key)
		key = sum[:]
	}
	k := make([]byte, block)
	copy(k, key)
	inner, outer := sha256.New(), sha256.New()
	for i := range k {
		inner.Write([]byte{k[i] ^ 0x36})
		outer.Write([]byte{k[i] ^ 0x5c})
	}
	inner.Write(msg)
	outer.Write(inner.Sum(nil))
	return outer.Sum(nil)
}

// FuzzVerifySignature checks Sign and Verify on arbitrary secrets, bodies and headers.
// Properties:
//   - Sign is the lowercase hex of RFC 2104 HMAC-SHA256 (computed here without crypto/hmac);
//   - with a non-empty secret, Verify accepts Sign's value, its upper-case form and the value
//     with white space around it (the documented "either hex case"), and refuses it for other
//     bytes, another secret or one hex digit changed;
//   - an empty secret never verifies;
//   - on any header, Verify never panics and accepts exactly the headers that are, trimmed of
//     white space, the signature in either case.
func FuzzVerifySignature(f *testing.F) {
	for _, v := range signatureVectors {
		f.Add(v.secret, []byte(v.body), v.want)
	}
	f.Fuzz(func(t *testing.T, secret string, body []byte, header string) {
		sig := Sign(secret, body)
		if want := hex.EncodeToString(hmacSHA256([]byte(secret), body)); sig != want {
			t.Fatalf("Sign = %s, want %s", sig, want)
		}
		got := Verify(secret, body, header)
		want := secret != "" && strings.EqualFold(strings.TrimSpace(header), sig)
		if got != want {
			t.Fatalf("Verify(%q, %q, %q) = %v, want %v (signature %s)", secret, body, header, got, want, sig)
		}
		if secret == "" {
			if Verify(secret, body, sig) {
				t.Fatal("an empty secret verifies")
			}
			return
		}
		for _, h := range []string{sig, strings.ToUpper(sig), " " + sig + "\n"} {
			if !Verify(secret, body, h) {
				t.Fatalf("Verify refuses %q", h)
			}
		}
		if Verify(secret, append(bytes.Clone(body), 0), sig) {
			t.Fatal("the signature verifies other bytes")
		}
		if Verify(secret+"x", body, sig) {
			t.Fatal("the signature verifies under another secret")
		}
		// One hex digit changed, at a place the inputs pick.
		i := len(header) % len(sig)
		flipped := []byte(sig)
		flipped[i] = "1032547698badcfe"[strings.IndexByte("0123456789abcdef", sig[i])]
		if Verify(secret, body, string(flipped)) {
			t.Fatalf("a signature with digit %d changed verifies", i)
		}
	})
}

// unrecognizedURLBody reads, apart from the client, whether an error body is the seed's 404 for
// no such endpoint: a type whose last step is unrecognized-request-url, or the title
// "Unrecognized request URL." in any case and spacing.
func unrecognizedURLBody(body []byte) bool {
	var m map[string]any
	if json.Unmarshal(body, &m) != nil {
		return false
	}
	if typ, ok := m["type"].(string); ok && typ != "" {
		steps := strings.Split(strings.TrimRight(typ, "/"), "/")
		if steps[len(steps)-1] == "unrecognized-request-url" {
			return true
		}
	}
	title, _ := m["title"].(string)
	return strings.ToLower(strings.Join(strings.Fields(title), " ")) == "unrecognized request url."
}
