package videohost

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// widget stands for a kind that plugs into the shared lists later (a caption of one video): the
// test builds its collection with one line, as such a kind would.
type widget struct {
	ID string `json:"id"`
}

// captionsOf is a list per parent: each video's captions are a path, hence a list, of their own.
func captionsOf(video string) collection[widget] {
	return collection[widget]{path: "/videos/" + video + "/captions", id: func(w widget) string { return w.ID }}
}

// itemStore serves one collection at path whose objects carry their id in key, sorted by id,
// in pages; onPage, when set, runs before a list page is answered (without the store's lock).
type itemStore struct {
	path, key string
	mu        sync.Mutex
	ids       []string
	onPage    func(page int)
}

func newItemStore(path, key string, n int) *itemStore {
	s := &itemStore{path: path, key: key}
	for i := range n {
		s.ids = append(s.ids, fmt.Sprintf("it-%04d", i))
	}
	return s
}

func (s *itemStore) add(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ids = append(s.ids, id)
	slices.Sort(s.ids)
}

func (s *itemStore) remove(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := slices.Index(s.ids, id)
	if i >= 0 {
		s.ids = slices.Delete(s.ids, i, i+1)
	}
	return i >= 0
}

func (s *itemStore) serve(w http.ResponseWriter, r *http.Request) {
	id, one := strings.CutPrefix(r.URL.Path, s.path+"/")
	switch {
	case r.Method == http.MethodGet && r.URL.Path == s.path:
		page, _ := strconv.Atoi(r.URL.Query().Get("currentPage"))
		page = max(page, 1)
		if s.onPage != nil {
			s.onPage(page)
		}
		s.mu.Lock()
		size, _ := strconv.Atoi(r.URL.Query().Get("pageSize"))
		pages := max((len(s.ids)+size-1)/size, 1)
		data := []map[string]any{}
		for _, id := range s.ids[min((page-1)*size, len(s.ids)):min(page*size, len(s.ids))] {
			data = append(data, map[string]any{s.key: id})
		}
		s.mu.Unlock()
		links := []map[string]string{}
		if page < pages {
			links = append(links, map[string]string{"rel": "next", "uri": fmt.Sprintf("%s?currentPage=%d&pageSize=%d", s.path, page+1, size)})
		}
		writeJSON(w, http.StatusOK, map[string]any{"data": data, "pagination": map[string]any{
			"currentPage": page, "pagesTotal": pages, "links": links,
		}})
	case r.Method == http.MethodGet && one:
		s.mu.Lock()
		found := slices.Contains(s.ids, id)
		s.mu.Unlock()
		if !found {
			writeJSON(w, http.StatusNotFound, map[string]any{"title": "The requested resource could not be found.", "status": 404})
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{s.key: id})
	case r.Method == http.MethodPost && r.URL.Path == s.path:
		var in map[string]string
		_ = json.NewDecoder(r.Body).Decode(&in)
		s.add(in["id"])
		writeJSON(w, http.StatusCreated, map[string]any{s.key: in["id"]})
	case r.Method == http.MethodPatch && one:
		writeJSON(w, http.StatusOK, map[string]any{s.key: id})
	case r.Method == http.MethodDelete && one:
		if !s.remove(id) {
			writeJSON(w, http.StatusNotFound, map[string]any{"title": "The requested resource could not be found.", "status": 404})
			return
		}
		w.WriteHeader(http.StatusNoContent)
	default:
		writeJSON(w, http.StatusNotFound, map[string]any{"title": "Unrecognized request URL.", "status": 404})
	}
}

// gets counts the reads of single objects under path.
func gets(f *fakeService, path string) int {
	n := 0
	for _, s := range f.requests() {
		if s.method == http.MethodGet && strings.HasPrefix(s.path, path+"/") {
			n++
		}
	}
	return n
}

// lookupAll looks every id up from its own goroutine and fails on a wrong answer.
func lookupAll[T any](t *testing.T, ids []string, lookup func(string) (T, error), idOf func(T) string) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, len(ids))
	for _, id := range ids {
		wg.Go(func() {
			v, err := lookup(id)
			switch {
			case err != nil:
				errs <- err
			case idOf(v) != id:
				errs <- fmt.Errorf("lookup %s = %+v", id, v)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

func storeIDs(n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("it-%04d", i)
	}
	return ids
}

// TestLookupLiveStreamsAndThemesShareOneWalk: 250 concurrent lookups of each kind join one walk
// of 3 pages of that kind and read nothing by id.
func TestLookupLiveStreamsAndThemesShareOneWalk(t *testing.T) {
	streams := newItemStore("/live-streams", "liveStreamId", 250)
	themes := newItemStore("/players", "playerId", 250)
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/players") {
			themes.serve(w, r)
			return
		}
		streams.serve(w, r)
	})
	c := f.client(t, func(cfg *Config) { cfg.ListTTL = time.Minute })
	ctx := t.Context()
	lookupAll(t, storeIDs(250), func(id string) (LiveStream, error) { return c.LookupLiveStream(ctx, id) },
		func(l LiveStream) string { return l.ID })
	lookupAll(t, storeIDs(250), func(id string) (PlayerTheme, error) { return c.LookupPlayerTheme(ctx, id) },
		func(p PlayerTheme) string { return p.ID })
	for _, path := range []string{"/live-streams", "/players"} {
		if n, g := f.count(http.MethodGet, path), gets(f, path); n != 3 || g != 0 {
			t.Fatalf("250 lookups of %s: %d list requests and %d gets, want 3 and 0", path, n, g)
		}
	}
}

// TestGenericListPerParent: a kind listed per parent plugs in with its collection alone; each
// parent's list is walked once for all its lookups, apart from the other parents'.
func TestGenericListPerParent(t *testing.T) {
	v1 := newItemStore("/videos/v1/captions", "id", 120)
	v2 := newItemStore("/videos/v2/captions", "id", 30)
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/videos/v2/") {
			v2.serve(w, r)
			return
		}
		v1.serve(w, r)
	})
	c := f.client(t, func(cfg *Config) { cfg.ListTTL = time.Minute })
	ctx := t.Context()
	lookupAll(t, storeIDs(120), func(id string) (widget, error) { return captionsOf("v1").lookup(ctx, c, id) },
		func(w widget) string { return w.ID })
	lookupAll(t, storeIDs(30), func(id string) (widget, error) { return captionsOf("v2").lookup(ctx, c, id) },
		func(w widget) string { return w.ID })
	if n1, n2, g := f.count(http.MethodGet, v1.path), f.count(http.MethodGet, v2.path), gets(f, v1.path)+gets(f, v2.path); n1 != 2 || n2 != 1 || g != 0 {
		t.Fatalf("list requests %d and %d, gets %d; want 2 (120 captions), 1 (30) and 0", n1, n2, g)
	}
}

// TestGenericListWritesInvalidate: a create, an update and a delete through the collection each
// empty that kind's list (only that one), failed writes included.
func TestGenericListWritesInvalidate(t *testing.T) {
	s := newItemStore("/videos/v1/captions", "id", 150)
	f := newFakeService(t, s.serve)
	c := f.client(t, func(cfg *Config) { cfg.ListTTL = time.Minute })
	ctx := t.Context()
	k, other := captionsOf("v1"), captionsOf("v2")
	if _, err := k.lookup(ctx, c, "it-0001"); err != nil {
		t.Fatal(err)
	}
	writes := []func() error{
		func() error { _, err := k.create(ctx, c, map[string]string{"id": "it-new"}); return err },
		func() error { _, err := k.update(ctx, c, "it-0002", map[string]string{}); return err },
		func() error { return k.delete(ctx, c, "it-0003") },
		func() error {
			if err := k.delete(ctx, c, "it-absent"); !errors.Is(err, ErrNotFound) {
				return fmt.Errorf("delete of an absent caption = %v, want ErrNotFound", err)
			}
			return nil
		},
	}
	for i, write := range writes {
		if err := write(); err != nil {
			t.Fatal(err)
		}
		before := f.count(http.MethodGet, s.path)
		if _, err := k.lookup(ctx, c, "it-0001"); err != nil {
			t.Fatal(err)
		}
		if walked := f.count(http.MethodGet, s.path) - before; walked != 2 {
			t.Fatalf("write %d: the next lookup read %d list pages, want a new walk of 2", i, walked)
		}
	}
	// The create's object is served from the list that followed it, not read by id.
	if w, err := k.lookup(ctx, c, "it-new"); err != nil || w.ID != "it-new" || gets(f, s.path) != 0 {
		t.Fatalf("lookup of the created caption = %+v, %v after %d gets; want it from the list", w, err, gets(f, s.path))
	}
	// A write to another parent's list leaves this one.
	before := f.count(http.MethodGet, s.path)
	_, _ = other.update(ctx, c, "x", map[string]string{})
	if _, err := k.lookup(ctx, c, "it-0001"); err != nil || f.count(http.MethodGet, s.path) != before {
		t.Fatalf("a write to v2's captions made v1's lookup walk again (%v)", err)
	}
}

// TestGenericListMissesAreReadByID: an object created by another process after the walk's page
// passed where it sorts is missing from the list but exists: the lookup reads it by id and
// returns it. One deleted elsewhere is missing from the list too, and only its 404 reports it
// gone.
func TestGenericListMissesAreReadByID(t *testing.T) {
	s := newItemStore("/videos/v1/captions", "id", 150)
	var once sync.Once
	s.onPage = func(page int) {
		if page == 2 {
			// Page 1 has been answered: this one sorts into it, so the walk misses it.
			once.Do(func() { s.add("it-0000a") })
		}
	}
	f := newFakeService(t, s.serve)
	c := f.client(t, func(cfg *Config) { cfg.ListTTL = time.Minute })
	ctx := t.Context()
	k := captionsOf("v1")
	if _, err := k.lookup(ctx, c, "it-0001"); err != nil {
		t.Fatal(err)
	}
	if m, err := k.listed(ctx, c); err != nil || len(m) != 150 {
		t.Fatalf("the walk holds %d objects (%v); want 150, it-0000a missed", len(m), err)
	}
	if _, listed := mustListed(t, k, c)["it-0000a"]; listed {
		t.Fatal("the walk was expected to miss it-0000a")
	}
	w, err := k.lookup(ctx, c, "it-0000a")
	if err != nil || w.ID != "it-0000a" {
		t.Fatalf("lookup of the object created during the walk = %+v, %v; want it found by id", w, err)
	}
	s.remove("it-0005")
	s.remove("it-0006")
	if _, err := k.lookup(ctx, c, "it-0005"); err != nil {
		t.Fatalf("the kept list still holds it-0005: %v", err)
	}
	// Gone from the list and the service: certain, so ErrNotFound.
	if _, err := k.lookup(ctx, c, "it-gone"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("lookup of an object deleted elsewhere = %v, want ErrNotFound", err)
	}
	if g := gets(f, s.path); g != 2 {
		t.Fatalf("%d reads by id, want 2 (one per id missing from the list)", g)
	}
}

func mustListed(t *testing.T, k collection[widget], c *Client) map[string]widget {
	t.Helper()
	m, err := k.listed(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestGenericListWalkBeforeWriteNeverServesAfter: a walk that started before a create of this
// client ended may have passed the new object; a lookup made after the create joins the next
// walk, which holds it, and many such lookups share that one walk.
func TestGenericListWalkBeforeWriteNeverServesAfter(t *testing.T) {
	s := newItemStore("/videos/v1/captions", "id", 50)
	release := make(chan struct{})
	var walks sync.WaitGroup
	walks.Add(1)
	var first sync.Once
	s.onPage = func(int) {
		first.Do(func() {
			walks.Done()
			<-release
		})
	}
	f := newFakeService(t, s.serve)
	c := f.client(t, func(cfg *Config) { cfg.ListTTL = time.Minute })
	ctx := t.Context()
	k := captionsOf("v1")

	early := make(chan error, 1)
	go func() { _, err := k.lookup(ctx, c, "it-0001"); early <- err }()
	walks.Wait() // the first walk is answering its page, before the create
	if _, err := k.create(ctx, c, map[string]string{"id": "it-mine"}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for range 20 {
		wg.Go(func() {
			if w, err := k.lookup(ctx, c, "it-mine"); err != nil || w.ID != "it-mine" {
				errs <- fmt.Errorf("lookup after the create = %+v, %v", w, err)
			}
		})
	}
	// Most lookups queue behind the running walk; any that came after it ended start the next
	// walk instead, which the rest join: two walks in all either way.
	time.Sleep(20 * time.Millisecond)
	close(release)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if err := <-early; err != nil {
		t.Fatal(err)
	}
	if n, g := f.count(http.MethodGet, s.path), gets(f, s.path); n != 2 || g != 0 {
		t.Fatalf("%d list requests and %d gets; want 2 (the early walk, one shared after the create) and 0", n, g)
	}
}

// TestLookupEveryKindSharesOneWalk: the kinds of the videos issue plug into the shared lists: 250
// concurrent lookups of videos, watermarks and upload tokens, and 120 of one video's captions
// and chapters, each cost one walk of their list (ceil(N/100) pages) and no read by id.
func TestLookupEveryKindSharesOneWalk(t *testing.T) {
	stores := []*itemStore{
		newItemStore("/videos/v1/captions", "srclang", 120),
		newItemStore("/videos/v1/chapters", "language", 120),
		newItemStore("/videos", "videoId", 250),
		newItemStore("/watermarks", "watermarkId", 250),
		newItemStore("/upload-tokens", "token", 250),
	}
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		for _, s := range stores {
			if r.URL.Path == s.path || strings.HasPrefix(r.URL.Path, s.path+"/") {
				s.serve(w, r)
				return
			}
		}
		t.Errorf("unexpected request %s %s", r.Method, r.URL.Path)
	})
	c := f.client(t, func(cfg *Config) { cfg.ListTTL = time.Minute })
	ctx := t.Context()
	lookupAll(t, storeIDs(120), func(l string) (Caption, error) { return c.LookupCaption(ctx, "v1", l) },
		func(v Caption) string { return v.SrcLang })
	lookupAll(t, storeIDs(120), func(l string) (Chapter, error) { return c.LookupChapter(ctx, "v1", l) },
		func(v Chapter) string { return v.Language })
	lookupAll(t, storeIDs(250), func(id string) (Video, error) { return c.LookupVideo(ctx, id) },
		func(v Video) string { return v.ID })
	lookupAll(t, storeIDs(250), func(id string) (Watermark, error) { return c.LookupWatermark(ctx, id) },
		func(v Watermark) string { return v.ID })
	lookupAll(t, storeIDs(250), func(id string) (UploadToken, error) { return c.LookupUploadToken(ctx, id) },
		func(v UploadToken) string { return v.Token })
	want := map[string]int{"/videos/v1/captions": 2, "/videos/v1/chapters": 2, "/videos": 3, "/watermarks": 3, "/upload-tokens": 3}
	for path, pages := range want {
		if n := f.count(http.MethodGet, path); n != pages {
			t.Errorf("lookups of %s: %d list requests, want %d", path, n, pages)
		}
	}
	for _, s := range f.requests() {
		if s.method == http.MethodGet && !slices.ContainsFunc(stores, func(st *itemStore) bool { return s.path == st.path }) {
			t.Errorf("a read by id (%s) where the list had every object", s.path)
		}
	}
}

// TestLookupWatermarkMissIsWalkedAgain: the service cannot read a watermark by id, so one that
// the shared list lacks is looked for in a walk of its own: found there when the first walk
// missed it (created elsewhere during the walk), ErrNotFound when that walk lacks it too.
func TestLookupWatermarkMissIsWalkedAgain(t *testing.T) {
	s := newItemStore("/watermarks", "watermarkId", 150)
	var once sync.Once
	s.onPage = func(page int) {
		if page == 2 {
			once.Do(func() { s.add("it-0000a") }) // sorts into page 1, already answered
		}
	}
	f := newFakeService(t, s.serve)
	c := f.client(t, func(cfg *Config) { cfg.ListTTL = time.Minute })
	ctx := t.Context()
	if _, err := c.LookupWatermark(ctx, "it-0001"); err != nil {
		t.Fatal(err)
	}
	if n := f.count(http.MethodGet, s.path); n != 2 {
		t.Fatalf("first lookup: %d list requests, want 2", n)
	}
	if w, err := c.LookupWatermark(ctx, "it-0000a"); err != nil || w.ID != "it-0000a" {
		t.Fatalf("lookup of the watermark the walk missed = %+v, %v; want it found by a second walk", w, err)
	}
	if n := f.count(http.MethodGet, s.path); n != 3 {
		t.Fatalf("after a miss: %d list requests, want 3 (a walk of its own, which stops at the page that has it)", n)
	}
	_, err := c.LookupWatermark(ctx, "it-gone")
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("lookup of a watermark in neither walk = %v, want ErrNotFound", err)
	}
	if n := f.count(http.MethodGet, s.path); n != 5 {
		t.Fatalf("after a watermark gone: %d list requests, want 5 (a whole walk of its own)", n)
	}
	if g := gets(f, s.path); g != 0 {
		t.Fatalf("%d reads by id of watermarks, which the service cannot answer", g)
	}
}

// TestLookupUploadTokenMissKeepsTheTokenSecret: a token missing from the list is read by id,
// and the 404 that reports it gone does not quote it.
func TestLookupUploadTokenMissKeepsTheTokenSecret(t *testing.T) {
	s := newItemStore("/upload-tokens", "token", 3)
	f := newFakeService(t, s.serve)
	c := f.client(t, func(cfg *Config) { cfg.ListTTL = time.Minute })
	const secret = "to1SecretTokenValue"
	_, err := c.LookupUploadToken(t.Context(), secret)
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("lookup of a deleted token = %v, want ErrNotFound", err)
	}
	if strings.Contains(err.Error(), secret) || strings.Contains(fmt.Sprintf("%+v", err), secret) {
		t.Fatalf("the error quotes the token: %v", err)
	}
	if g := gets(f, s.path); g != 1 {
		t.Fatalf("%d reads by id, want 1", g)
	}
}

// TestUploadsInvalidateTheirLists: the multipart writes (a caption, chapters, a watermark, a
// logo, a thumbnail) empty the list of the kind they change, whatever their outcome, so that the
// next lookup walks again.
func TestUploadsInvalidateTheirLists(t *testing.T) {
	keys := map[string]string{"/videos/v1/captions": "srclang", "/videos/v1/chapters": "language",
		"/watermarks": "watermarkId", "/players": "playerId", "/videos": "videoId"}
	paths := slices.Sorted(maps.Keys(keys))
	stores := map[string]*itemStore{}
	for _, p := range paths {
		stores[p] = newItemStore(p, keys[p], 5)
	}
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			// Every upload fails: a failed write invalidates as surely as one that succeeds.
			writeJSON(w, http.StatusBadRequest, map[string]any{"title": "refused", "status": 400})
			return
		}
		for _, p := range paths {
			if r.URL.Path == p {
				stores[p].serve(w, r)
				return
			}
		}
		writeJSON(w, http.StatusNotFound, map[string]any{"title": "The requested resource could not be found.", "status": 404})
	})
	c := f.client(t, func(cfg *Config) { cfg.ListTTL = time.Minute })
	ctx := t.Context()
	src := func() UploadSource {
		return UploadSource{Name: "f.vtt", Reader: strings.NewReader("WEBVTT\n"), Size: 7}
	}
	cases := []struct {
		path   string
		lookup func() error
		write  func() error
	}{
		{"/videos/v1/captions", func() error { _, err := c.LookupCaption(ctx, "v1", "it-0001"); return err },
			func() error { _, err := c.UploadCaption(ctx, "v1", "fr", src()); return err }},
		{"/videos/v1/chapters", func() error { _, err := c.LookupChapter(ctx, "v1", "it-0001"); return err },
			func() error { _, err := c.UploadChapter(ctx, "v1", "fr", src()); return err }},
		{"/watermarks", func() error { _, err := c.LookupWatermark(ctx, "it-0001"); return err },
			func() error { _, err := c.CreateWatermark(ctx, src()); return err }},
		{"/players", func() error { _, err := c.LookupPlayerTheme(ctx, "it-0001"); return err },
			func() error { _, err := c.UploadPlayerLogo(ctx, "it-0001", "", src()); return err }},
		{"/videos", func() error { _, err := c.LookupVideo(ctx, "it-0001"); return err },
			func() error { _, err := c.UploadVideoThumbnail(ctx, "it-0001", src()); return err }},
	}
	for _, tc := range cases {
		if err := tc.lookup(); err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
		before := f.count(http.MethodGet, tc.path)
		if err := tc.write(); err == nil {
			t.Fatalf("%s: the upload was expected to be refused", tc.path)
		}
		if err := tc.lookup(); err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
		if walked := f.count(http.MethodGet, tc.path) - before; walked != 1 {
			t.Errorf("%s: the lookup after an upload read %d list pages, want a new walk of 1", tc.path, walked)
		}
	}
}
