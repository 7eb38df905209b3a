package contract

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// testDocument is a small document in the published one's manner, with both of its defects: a
// header pattern written with JavaScript's delimiters, and x-optional-nullable.
const testDocument = `
openapi: 3.0.3
info: {title: test, version: "1"}
servers: [{url: "https://ws.example.test"}]
paths:
  /things/{thingId}:
    parameters:
      - {name: thingId, in: path, required: true, schema: {type: string}}
    patch:
      operationId: PATCH-thing
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                name: {type: string}
                playerId: {type: string, x-optional-nullable: true}
      responses:
        "200":
          description: the thing
          content:
            application/json:
              schema: {$ref: "#/components/schemas/thing"}
  /things/{thingId}/source:
    parameters:
      - {name: thingId, in: path, required: true, schema: {type: string}}
    post:
      operationId: POST-thing-source
      parameters:
        - name: Content-Range
          in: header
          schema:
            type: string
            pattern: '/(?:bytes (?<from>\d+)-(?<to>\d+)|part (?<part>\d+))\/(?<total>\d+|\*)/'
      responses:
        "201":
          description: the thing
          content:
            application/json:
              schema: {$ref: "#/components/schemas/thing"}
components:
  schemas:
    thing:
      type: object
      required: [thingId]
      properties:
        thingId: {type: string}
        language: {type: string}
`

// serveChecked starts a loopback server that answers every request with status and body,
// behind c's middleware.
func serveChecked(t *testing.T, c *Checker, status int, body string) (string, func() []Deviation) {
	t.Helper()
	var mu sync.Mutex
	var found []Deviation
	answer := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	})
	srv := httptest.NewServer(c.Middleware(answer, func(d Deviation) {
		mu.Lock()
		defer mu.Unlock()
		found = append(found, d)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func() []Deviation {
		mu.Lock()
		defer mu.Unlock()
		return append([]Deviation(nil), found...)
	}
}

func newTestChecker(t *testing.T) *Checker {
	t.Helper()
	doc, err := ParseDocument([]byte(testDocument))
	if err != nil {
		t.Fatal(err)
	}
	return NewChecker(doc)
}

func send(t *testing.T, method, url, body string, header map[string]string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
}

func TestDeviatingRequestAndAnswerAreCaught(t *testing.T) {
	c := newTestChecker(t)
	url, found := serveChecked(t, c, http.StatusOK, `{"thingId":"t1","language":null}`)
	send(t, http.MethodPatch, url+"/things/t1", `{"name":null}`, nil)
	got := found()
	want := map[Side]string{Request: "body /name", Answer: "body /language"}
	if len(got) != len(want) {
		t.Fatalf("deviations %v, want one request and one answer", got)
	}
	for _, d := range got {
		if d.Member != want[d.Side] || !strings.HasPrefix(d.Rule, "nullable") {
			t.Errorf("deviation %s: want member %q and a nullable rule", d, want[d.Side])
		}
		if d.Operation != (Operation{ID: "PATCH-thing", Method: http.MethodPatch, Path: "/things/{thingId}"}) {
			t.Errorf("deviation %s names the wrong operation", d)
		}
	}
}

func TestMissingRequiredAnswerMemberIsCaught(t *testing.T) {
	c := newTestChecker(t)
	url, found := serveChecked(t, c, http.StatusOK, `{"language":"en"}`)
	send(t, http.MethodPatch, url+"/things/t1", `{}`, nil)
	got := found()
	if len(got) != 1 || got[0].Side != Answer || got[0].Member != "body /thingId" || !strings.HasPrefix(got[0].Rule, "required") {
		t.Fatalf("deviations %v, want the answer's missing thingId under the rule required", got)
	}
}

func TestCleanPairPasses(t *testing.T) {
	c := newTestChecker(t)
	url, found := serveChecked(t, c, http.StatusOK, `{"thingId":"t1","language":"en"}`)
	// x-optional-nullable is read as nullable: a null playerId is allowed.
	send(t, http.MethodPatch, url+"/things/t1", `{"name":"a","playerId":null}`, nil)
	if got := found(); len(got) != 0 {
		t.Fatalf("a clean pair deviates: %v", got)
	}
	s := c.Summary()
	if s.Requests != 1 || len(s.Operations) != 1 || s.Total != 2 {
		t.Errorf("summary %+v, want 1 request of 1 operation out of 2", s)
	}
}

func TestDelimitedPatternIsWorkedAround(t *testing.T) {
	c := newTestChecker(t)
	url, found := serveChecked(t, c, http.StatusCreated, `{"thingId":"t1"}`)
	for _, cr := range []string{"bytes 0-9/10", "part 2/*"} {
		send(t, http.MethodPost, url+"/things/t1/source", "", map[string]string{"Content-Range": cr})
	}
	if got := found(); len(got) != 0 {
		t.Fatalf("real Content-Range headers deviate: %v", got)
	}
	send(t, http.MethodPost, url+"/things/t1/source", "", map[string]string{"Content-Range": "items 0-9"})
	got := found()
	if len(got) != 1 || got[0].Side != Request || got[0].Member != "header Content-Range /" || !strings.HasPrefix(got[0].Rule, "pattern") {
		t.Fatalf("deviations %v, want the header under the rule pattern", got)
	}
}

func TestUndocumentedStatusGoesToTheTable(t *testing.T) {
	c := newTestChecker(t)
	url, found := serveChecked(t, c, http.StatusNotFound, `{"status":404}`)
	send(t, http.MethodPatch, url+"/things/t1", `{}`, nil)
	if got := found(); len(got) != 0 {
		t.Fatalf("an undocumented status failed: %v", got)
	}
	var out bytes.Buffer
	if _, err := c.Summary().WriteTo(&out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "does not list") || !hasRow(out.String(), "PATCH-thing", "404") {
		t.Fatalf("the summary has no row for the 404:\n%s", out.String())
	}
}

func hasRow(table string, words ...string) bool {
	for _, line := range strings.Split(table, "\n") {
		ok := true
		for _, w := range words {
			ok = ok && strings.Contains(line, w)
		}
		if ok {
			return true
		}
	}
	return false
}

func TestUnknownPathAndControlAPI(t *testing.T) {
	c := newTestChecker(t)
	url, found := serveChecked(t, c, http.StatusOK, `{}`)
	send(t, http.MethodGet, url+ControlPrefix+"state", "", nil)
	if got := found(); len(got) != 0 || c.Summary().Requests != 0 {
		t.Fatalf("the control API was checked: %v", got)
	}
	send(t, http.MethodGet, url+"/nowhere", "", nil)
	if got := found(); len(got) != 1 || got[0].Member != "method and path" {
		t.Fatalf("deviations %v, want the unknown path that was served", got)
	}
	// A path that neither the document nor the server knows (a wrong base address) goes to the
	// table.
	url404, found404 := serveChecked(t, c, http.StatusNotFound, `{}`)
	send(t, http.MethodGet, url404+"/v1/things/t1", "", nil)
	if got := found404(); len(got) != 0 || c.Summary().Undocumented[undocumentedKey{Operation{NoOperation, http.MethodGet, "/v1/things/t1"}, 404}] != 1 {
		t.Fatalf("an unknown path answered 404: deviations %v, summary %+v", got, c.Summary())
	}
}

func TestLoadWithoutAPathSaysHowToGetTheDocument(t *testing.T) {
	if _, err := Load(""); err == nil || !strings.Contains(err.Error(), EnvDocument) || !strings.Contains(err.Error(), "oas_apivideo.yaml") {
		t.Fatalf("Load(\"\") = %v, want a message naming %s and the document", err, EnvDocument)
	}
}

// TestPublishedDocumentLoads loads the document that VIDEOHOST_OPENAPI names: its 59
// operations, with the defects worked around.
func TestPublishedDocumentLoads(t *testing.T) {
	path := os.Getenv(EnvDocument)
	if path == "" {
		t.Skip(HowToGet)
	}
	doc, err := LoadDocument(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(doc.Operations()); n != 59 {
		t.Errorf("%d operations, want the 59 of the published document", n)
	}
}

func TestCutConnectionHasNoAnswerToCheck(t *testing.T) {
	c := newTestChecker(t)
	cut := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
			_ = conn.Close()
		}
	})
	var found []Deviation
	var mu sync.Mutex
	srv := httptest.NewServer(c.Middleware(cut, func(d Deviation) { mu.Lock(); found = append(found, d); mu.Unlock() }))
	t.Cleanup(srv.Close)
	req, _ := http.NewRequest(http.MethodPatch, srv.URL+"/things/t1", strings.NewReader(`{}`))
	req.Header.Set("Content-Type", "application/json")
	if resp, err := http.DefaultClient.Do(req); err == nil {
		_ = resp.Body.Close()
		t.Fatal("the connection was not cut")
	}
	// The check runs once the handler has returned, which may be after the client saw the cut.
	for i := 0; i < 200 && c.Summary().Requests == 0; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	op := Operation{ID: "PATCH-thing", Method: http.MethodPatch, Path: "/things/{thingId}"}
	if len(found) != 0 || c.Summary().Undocumented[undocumentedKey{op, 0}] != 1 {
		t.Fatalf("a cut connection: deviations %v, summary %+v", found, c.Summary())
	}
}
