package emulator

import (
	"cmp"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
)

// recordKind is what the shared handlers know of one collection of the store: the reads, the
// creates and the updates of every collection follow the same steps, which these handlers take
// once, and a collection gives only what is its own.
type recordKind[R, W any] struct {
	// path is the collection's path, which the links of its pages repeat.
	path string
	// idName names the record's id in a not-found error.
	idName string
	id     func(*R) string
	items  func(*store) *[]*R
	wire   func(*Emulator, *R) W
	// fresh is set on a collection whose records expire: it is read by withFreshStore.
	fresh bool
	// sortKeys are the values of sortBy of the list, if it has one.
	sortKeys []sortKey[R]
}

// read runs fn, a read of the collection, with the store locked.
func (k recordKind[R, W]) read(e *Emulator, fn func()) {
	if k.fresh {
		e.withFreshStore(fn)
		return
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	fn()
}

// The store's collections, whose routes are in serviceRoutes (service_routes.go). Videos expire, so every read
// of them is fresh.
var (
	webhooks = recordKind[Webhook, webhookWire]{
		path:   "/webhooks",
		idName: "webhookId",
		id:     func(w *Webhook) string { return w.WebhookID },
		items:  func(s *store) *[]*Webhook { return &s.Webhooks },
		// A list always shows the signature secret; a read by id does as the options say, so
		// GET /webhooks/{id} must not be served by serveGet, which would send it regardless
		// of SecretInResponses: handleGetWebhook serves it.
		wire: func(_ *Emulator, w *Webhook) webhookWire { return toWebhookWire(cloneWebhook(w), true) },
	}
	liveStreams = recordKind[liveStream, liveStreamWire]{
		path:   "/live-streams",
		idName: "liveStreamId",
		id:     func(l *liveStream) string { return l.ID },
		items:  func(s *store) *[]*liveStream { return &s.LiveStreams },
		wire:   func(_ *Emulator, l *liveStream) liveStreamWire { return toLiveStreamWire(l) },
		sortKeys: []sortKey[liveStream]{
			{"name", func(a, b *liveStream) int { return cmp.Compare(a.Name, b.Name) }},
			{"createdAt", func(a, b *liveStream) int { return a.CreatedAt.Compare(b.CreatedAt) }},
			{"updatedAt", func(a, b *liveStream) int { return a.UpdatedAt.Compare(b.UpdatedAt) }},
		},
	}
	players = recordKind[playerTheme, playerWire]{
		path:   "/players",
		idName: "playerId",
		id:     func(p *playerTheme) string { return p.ID },
		items:  func(s *store) *[]*playerTheme { return &s.Players },
		wire:   func(_ *Emulator, p *playerTheme) playerWire { return toPlayerWire(p) },
		sortKeys: []sortKey[playerTheme]{
			{"name", func(a, b *playerTheme) int { return cmp.Compare(a.Name, b.Name) }},
			{"createdAt", func(a, b *playerTheme) int { return a.CreatedAt.Compare(b.CreatedAt) }},
			{"updatedAt", func(a, b *playerTheme) int { return a.UpdatedAt.Compare(b.UpdatedAt) }},
		},
	}
	videos = recordKind[video, videoWire]{
		path:   "/videos",
		idName: "videoId",
		id:     func(v *video) string { return v.ID },
		items:  func(s *store) *[]*video { return &s.Videos },
		wire:   (*Emulator).toVideoWire,
		fresh:  true,
		sortKeys: []sortKey[video]{
			{"title", func(a, b *video) int { return cmp.Compare(a.Title, b.Title) }},
			{"createdAt", func(a, b *video) int { return a.CreatedAt.Compare(b.CreatedAt) }},
			{"publishedAt", func(a, b *video) int { return a.PublishedAt.Compare(b.PublishedAt) }},
			{"updatedAt", func(a, b *video) int { return a.UpdatedAt.Compare(b.UpdatedAt) }},
		},
	}
)

// find is the index of the record id, or -1; the caller holds e.mu.
func (k recordKind[R, W]) find(st *store, id string) int {
	return slices.IndexFunc(*k.items(st), func(r *R) bool { return k.id(r) == id })
}

// serveGet serves GET of one record: its wire form, or 404.
func (k recordKind[R, W]) serveGet(e *Emulator, w http.ResponseWriter, _ *http.Request, id string) {
	var out W
	found := false
	k.read(e, func() {
		if i := k.find(&e.st, id); i >= 0 {
			out, found = k.wire(e, (*k.items(&e.st))[i]), true
		}
	})
	if !found {
		writeError(w, e.notFound(k.idName))
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// serveCreate serves POST of the collection. The body must be an object; build turns it into a
// new record under the write lock, or answers the error that refuses it. The new record is
// stored, then answered with status.
func (k recordKind[R, W]) serveCreate(e *Emulator, w http.ResponseWriter, r *http.Request, status int, build func(map[string]json.RawMessage) (*R, *apiError)) {
	body, ok := readObject(r)
	if !ok {
		writeError(w, e.invalidPayload())
		return
	}
	e.mu.Lock()
	rec, refused := build(body)
	if refused != nil {
		e.mu.Unlock()
		writeError(w, *refused)
		return
	}
	items := k.items(&e.st)
	*items = append(*items, rec)
	out := k.wire(e, rec)
	e.mu.Unlock()
	e.saveStateLogged()
	e.answerWrite(w, status, out)
}

// serveUpdate serves PATCH of one record. The body must be an object and the record must exist;
// change makes the body's change to a copy of the record under the write lock, moving its
// updatedAt, or answers the error that refuses the body. The copy replaces the record only when
// change accepted the whole body, so that a refused update leaves nothing half made.
func (k recordKind[R, W]) serveUpdate(e *Emulator, w http.ResponseWriter, r *http.Request, id string, change func(*R, map[string]json.RawMessage) *apiError) {
	body, ok := readObject(r)
	if !ok {
		writeError(w, e.invalidPayload())
		return
	}
	e.mu.Lock()
	i := k.find(&e.st, id)
	if i < 0 {
		e.mu.Unlock()
		writeError(w, e.notFound(k.idName))
		return
	}
	items := *k.items(&e.st)
	rec := *items[i]
	if refused := change(&rec, body); refused != nil {
		e.mu.Unlock()
		writeError(w, *refused)
		return
	}
	items[i] = &rec
	out := k.wire(e, &rec)
	e.mu.Unlock()
	e.saveStateLogged()
	e.answerWrite(w, http.StatusOK, out)
}

// serveList serves GET of the collection: parse reads the query, in the order in which the
// endpoint lists its problems; with none, the page is answered. The page is cut and converted
// under the lock, so that only its items are copied.
func (k recordKind[R, W]) serveList(e *Emulator, w http.ResponseWriter, r *http.Request, parse func(url.Values) (listQuery[R], []problem)) {
	q, probs := parse(r.URL.Query())
	if len(probs) > 0 {
		writeError(w, e.attributeError(probs...))
		return
	}
	var page listResponse[W]
	k.read(e, func() {
		matched := slices.Clone(*k.items(&e.st))
		if q.keep != nil {
			matched = slices.DeleteFunc(matched, func(r *R) bool { return !q.keep(r) })
		}
		if q.order != nil {
			slices.SortStableFunc(matched, q.order)
		}
		page = paginate(matched, q.page, k.path, q.filters, func(r *R) W { return k.wire(e, r) })
	})
	writeJSON(w, http.StatusOK, page)
}

// answerDelete answers a DELETE of the service or the control API: 204 when the record was
// deleted, else 404 naming the record's id.
func (k recordKind[R, W]) answerDelete(e *Emulator, w http.ResponseWriter, deleted bool) {
	if !deleted {
		writeError(w, e.notFound(k.idName))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
