package videohost

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestWebhookWireDecoding(t *testing.T) {
	want := time.Date(2024, 8, 8, 14, 12, 18, 0, time.UTC)
	tests := []struct {
		body    string
		want    Webhook
		wantErr bool
	}{
		{`{"webhookId":"a","createdAt":"2024-08-08T14:12:18+00:00","events":["e"],"url":"https://x","signatureSecret":"s","other":{"x":1}}`,
			Webhook{ID: "a", CreatedAt: want, Events: []string{"e"}, URL: "https://x", SignatureSecret: "s"}, false},
		{`{"webhookId":"a","createdAt":"2024-08-08T14:12:18Z"}`, Webhook{ID: "a", CreatedAt: want}, false},
		{`{"webhookId":"a","createdAt":"2024-08-08T16:12:18.000+0200"}`, Webhook{ID: "a", CreatedAt: want}, false},
		{`{"webhookId":"a","createdAt":null}`, Webhook{ID: "a"}, false},
		{`{"webhookId":"a","createdAt":""}`, Webhook{ID: "a"}, false},
		{`{"webhookId":"a","createdAt":"yesterday"}`, Webhook{}, true},
		{`{"webhookId":"a","createdAt":1723126338}`, Webhook{}, true},
		{`{"webhookId":7}`, Webhook{}, true},
	}
	for _, tt := range tests {
		var got Webhook
		err := json.Unmarshal([]byte(tt.body), &got)
		if (err != nil) != tt.wantErr {
			t.Errorf("%s: err = %v", tt.body, err)
			continue
		}
		if tt.wantErr {
			continue
		}
		if got.ID != tt.want.ID || !got.CreatedAt.Equal(tt.want.CreatedAt) || got.URL != tt.want.URL ||
			got.SignatureSecret != tt.want.SignatureSecret || !slices.Equal(got.Events, tt.want.Events) {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.body, got, tt.want)
		}
	}
}

func TestWebhookEndpoints(t *testing.T) {
	store := newWebhookStore(3)
	f := newFakeService(t, store.serve)
	c := f.client(t)
	ctx := t.Context()

	list, err := c.ListWebhooks(ctx, "video.source.recorded")
	if err != nil || len(list) != 3 || list[0].SignatureSecret != "secret-wh-0000" {
		t.Fatalf("ListWebhooks = %+v, %v", list, err)
	}
	reqs := f.requests()
	if q := reqs[len(reqs)-1].query; q != "events=video.source.recorded&pageSize=100" {
		t.Errorf("query = %q", q)
	}

	got, err := c.GetWebhook(ctx, "wh-0001")
	if err != nil || got.ID != "wh-0001" || got.URL != "https://example.org/hook/wh-0001" || got.SignatureSecret != "" {
		t.Fatalf("GetWebhook = %+v, %v (a get answer without the secret leaves it empty)", got, err)
	}

	created, err := c.CreateWebhook(ctx, CreateWebhookInput{URL: "https://example.org/new", Events: []string{"a", "b"}})
	if err != nil || created.ID != "wh-new-3" {
		t.Fatalf("CreateWebhook = %+v, %v", created, err)
	}
	reqs = f.requests()
	if b := reqs[len(reqs)-1].body; b != `{"url":"https://example.org/new","events":["a","b"]}` {
		t.Errorf("create body = %s", b)
	}

	if _, err := c.LookupWebhook(ctx, ""); !errors.Is(err, errEmptyID) {
		t.Errorf("lookup with an empty id: %v", err)
	}
}

func TestLookupWebhookSharesOneList(t *testing.T) {
	store := newWebhookStore(250)
	f := newFakeService(t, store.serve)
	c := f.client(t, func(cfg *Config) { cfg.ListTTL = time.Minute })
	ctx := t.Context()

	var wg sync.WaitGroup
	errs := make(chan error, 250)
	for i := range 250 {
		wg.Go(func() {
			id := fmt.Sprintf("wh-%04d", i)
			w, err := c.LookupWebhook(ctx, id)
			switch {
			case err != nil:
				errs <- err
			case w.ID != id || w.SignatureSecret != "secret-"+id:
				errs <- fmt.Errorf("lookup %s = %+v", id, w)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	gets := func() int {
		n := 0
		for _, s := range f.requests() {
			if s.method == http.MethodGet && strings.HasPrefix(s.path, "/webhooks/") {
				n++
			}
		}
		return n
	}
	if n, g := f.count(http.MethodGet, "/webhooks"), gets(); n != 3 || g != 0 {
		t.Fatalf("250 lookups: %d list requests and %d gets, want 3 and 0", n, g)
	}

	// Created elsewhere after the list was read: found with one get.
	store.add("wh-elsewhere")
	if w, err := c.LookupWebhook(ctx, "wh-elsewhere"); err != nil || w.ID != "wh-elsewhere" {
		t.Fatalf("lookup of a webhook created elsewhere = %+v, %v", w, err)
	}
	// Really missing: one get, then ErrNotFound.
	if _, err := c.LookupWebhook(ctx, "wh-missing"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("lookup of a missing webhook = %v, want ErrNotFound", err)
	}
	if n, g := f.count(http.MethodGet, "/webhooks"), gets(); n != 3 || g != 2 {
		t.Fatalf("after two misses: %d list requests and %d gets, want 3 and 2", n, g)
	}

	// Every write empties the list, failed writes included.
	writes := []func() error{
		func() error {
			_, err := c.CreateWebhook(ctx, CreateWebhookInput{URL: "https://e.org", Events: []string{"x"}})
			return err
		},
		func() error {
			_, err := c.CreateWebhook(ctx, CreateWebhookInput{Events: []string{"x"}})
			if err == nil {
				return errors.New("a create without url succeeded")
			}
			return nil
		},
		func() error { return c.DeleteWebhook(ctx, "wh-0007") },
	}
	for i, write := range writes {
		if err := write(); err != nil {
			t.Fatal(err)
		}
		before := f.count(http.MethodGet, "/webhooks")
		if _, err := c.LookupWebhook(ctx, "wh-0001"); err != nil {
			t.Fatal(err)
		}
		if walked := f.count(http.MethodGet, "/webhooks") - before; walked != 3 {
			t.Fatalf("write %d: the next lookup read %d list pages, want a new walk of 3", i, walked)
		}
	}
}

// TestLookupWebhookListExpires: the list is kept for the TTL, on the client's clock, which the
// test moves: a walk that takes longer than the TTL on a loaded machine changes nothing.
func TestLookupWebhookListExpires(t *testing.T) {
	store := newWebhookStore(5)
	f := newFakeService(t, store.serve)
	c := f.client(t, func(cfg *Config) { cfg.ListTTL = 50 * time.Millisecond })
	clk := &fakeClock{t: time.Now()}
	c.listNow = clk.now
	for range 2 {
		if _, err := c.LookupWebhook(t.Context(), "wh-0001"); err != nil {
			t.Fatal(err)
		}
	}
	if n := f.count(http.MethodGet, "/webhooks"); n != 1 {
		t.Fatalf("two lookups inside the TTL walked the list %d times, want 1", n)
	}
	clk.advance(49 * time.Millisecond)
	if _, err := c.LookupWebhook(t.Context(), "wh-0001"); err != nil {
		t.Fatal(err)
	}
	if n := f.count(http.MethodGet, "/webhooks"); n != 1 {
		t.Fatalf("a lookup 49 ms into a TTL of 50 ms walked the list %d times in all, want 1", n)
	}
	clk.advance(time.Millisecond)
	if _, err := c.LookupWebhook(t.Context(), "wh-0001"); err != nil {
		t.Fatal(err)
	}
	if n := f.count(http.MethodGet, "/webhooks"); n != 2 {
		t.Fatalf("a lookup after the TTL walked the list %d times in all, want 2", n)
	}
}

// TestLookupWebhookByDefault: a client configured without a TTL keeps the list for the
// default TTL, and a lookup carries the list's secret.
func TestLookupWebhookByDefault(t *testing.T) {
	store := newWebhookStore(5)
	f := newFakeService(t, store.serve)
	c := f.client(t)
	for range 2 {
		w, err := c.LookupWebhook(t.Context(), "wh-0002")
		if err != nil || w.SignatureSecret != "secret-wh-0002" || w.URL == "" {
			t.Fatalf("lookup = %+v, %v; want the webhook with the list's secret", w, err)
		}
	}
	if g, n := f.count(http.MethodGet, "/webhooks/wh-0002"), f.count(http.MethodGet, "/webhooks"); g != 0 || n != 1 {
		t.Fatalf("gets %d, list walks %d; want 0 and 1 (the list kept for %s)", g, n, DefaultListTTL)
	}
	if _, err := c.LookupWebhook(t.Context(), "wh-nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing = %v", err)
	}
	if g := f.count(http.MethodGet, "/webhooks/wh-nope"); g != 1 {
		t.Fatalf("a lookup of an id missing from the list made %d gets, want 1", g)
	}
}

// TestLookupAfterWritesSharesTheNextWalk: lookups made after creates while a walk is already
// running must not use that walk (it may have been read before their webhooks existed), and
// must not each start one of their own: they share the next walk.
func TestLookupAfterWritesSharesTheNextWalk(t *testing.T) {
	store := newWebhookStore(5)
	var (
		mu      sync.Mutex
		lists   int
		started = make(chan struct{})
		release = make(chan struct{})
	)
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.Path != "/webhooks" {
			store.serve(w, r)
			return
		}
		// The answer is read now, then held on the first walk: a webhook created meanwhile
		// is not in it, as on a real service.
		rec := httptest.NewRecorder()
		store.serve(rec, r)
		mu.Lock()
		lists++
		first := lists == 1
		mu.Unlock()
		if first {
			close(started)
			<-release
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	})
	c := f.client(t, func(cfg *Config) { cfg.ListTTL = time.Minute })
	ctx := t.Context()

	create := func() string {
		w, err := c.CreateWebhook(ctx, CreateWebhookInput{URL: "https://e.org", Events: []string{"x"}})
		if err != nil {
			t.Fatal(err)
		}
		return w.ID
	}
	type result struct {
		id  string
		w   Webhook
		err error
	}
	results := make(chan result, 9)
	lookup := func(id string) {
		w, err := c.LookupWebhook(ctx, id)
		results <- result{id, w, err}
	}
	go lookup(create())
	<-started
	// Each create ends after the running walk started, and each lookup follows its create, as
	// in a parallel apply.
	for range 8 {
		go lookup(create())
	}
	close(release)
	for range 9 {
		r := <-results
		if r.err != nil || r.w.ID != r.id || r.w.SignatureSecret != "secret-"+r.id {
			t.Fatalf("lookup of %s after its create = %+v, %v; want it with its secret", r.id, r.w, r.err)
		}
	}
	gets := 0
	for _, s := range f.requests() {
		if s.method == http.MethodGet && strings.HasPrefix(s.path, "/webhooks/") {
			gets++
		}
	}
	if gets != 0 {
		t.Errorf("%d gets of one webhook: a lookup was served a walk older than its create", gets)
	}
	mu.Lock()
	defer mu.Unlock()
	if lists != 2 {
		t.Errorf("9 lookups after 9 creates walked the list %d times, want 2 (the running walk and one shared next)", lists)
	}
}

// TestWalkWebhooksReadsOnlyThePagesItYields: a caller that stops after the first page's items
// costs one read, and one that walks to the end reads each page once.
func TestWalkWebhooksReadsOnlyThePagesItYields(t *testing.T) {
	store := newWebhookStore(250)
	f := newFakeService(t, store.serve)
	c := f.client(t)

	n := 0
	for w, err := range c.WalkWebhooks(t.Context(), "") {
		if err != nil {
			t.Fatal(err)
		}
		if w.SignatureSecret == "" {
			t.Fatalf("webhook %s listed without its secret", w.ID)
		}
		n++
		if n == maxPageSize {
			break
		}
	}
	if got := f.count(http.MethodGet, "/webhooks"); got != 1 {
		t.Errorf("stopping after %d webhooks read %d pages, want 1", n, got)
	}

	n = 0
	for _, err := range c.WalkWebhooks(t.Context(), "") {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if got := f.count(http.MethodGet, "/webhooks"); n != 250 || got != 1+3 {
		t.Errorf("walking every webhook yielded %d and read %d pages in all, want 250 and 1+3", n, got)
	}
}
