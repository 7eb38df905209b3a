package videohost

import (
	"context"
	"net/http"
	"sync"
	"time"
)

// listCache is the one list of a kind's objects, by id, that the lookups of that kind share: a
// refresh of N objects costs one walk of ceil(N/100) pages instead of N reads, which keeps a
// large plan under the read limit. Each collection path has its own (see collection.list), so a
// kind plugs in by giving its collection an id function; a list per parent (the captions of one
// video) is one more path.
//
// A caller after a write needs a walk that started after it. So at most one walk runs, and
// callers that need a newer one join the one queued to start when it ends: creates that finish
// together share one or two walks.
type listCache[T any] struct {
	mu sync.Mutex
	// gen counts the starts and ends of writes: a walk is kept only when gen did not move while
	// it ran. ended counts the ends: a walk that started at ended e saw every write ended by then.
	gen, ended uint64
	byID       map[string]T
	expires    time.Time

	running *listWalk[T] // the walk in flight
	queued  *listWalk[T] // the walk that starts when running ends
}

// listWalk is one walk of the list, shared by every caller that joined it.
type listWalk[T any] struct {
	ctx        context.Context // the first joiner's, without its cancellation: a walk serves many
	startGen   uint64          // gen when the walk started
	startEnded uint64          // ended when the walk started
	done       chan struct{}   // closed when byID and err are set
	byID       map[string]T
	err        error
}

// writeStarts and writeEnds drop the list around a write, whatever its outcome.
func (lc *listCache[T]) writeStarts() {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	lc.gen++
	lc.byID = nil
}

func (lc *listCache[T]) writeEnds() {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	lc.gen++
	lc.ended++
	lc.byID = nil
}

// list returns the cache of k's path in c, made on first use. Two collections of different
// types on one path would be a programming error; the second then gets a cache of its own
// that nothing shares, so it stays correct, only uncached.
func (k collection[T]) list(c *Client) *listCache[T] {
	v, _ := c.lists.LoadOrStore(k.path, &listCache[T]{})
	if lc, ok := v.(*listCache[T]); ok {
		return lc
	}
	return &listCache[T]{}
}

// listed returns the kept list while it is fresh, else that of a walk that started after every
// write this client had finished.
func (k collection[T]) listed(ctx context.Context, c *Client) (map[string]T, error) {
	lc := k.list(c)
	lc.mu.Lock()
	if lc.byID != nil && c.listNow().Before(lc.expires) {
		m := lc.byID
		lc.mu.Unlock()
		return m, nil
	}
	var w *listWalk[T]
	switch {
	case lc.running == nil:
		w = &listWalk[T]{ctx: context.WithoutCancel(ctx), done: make(chan struct{})}
		k.startWalkLocked(c, lc, w)
	case lc.running.startEnded >= lc.ended:
		// It sees every write that has ended; those in flight are no one's to wait for yet.
		w = lc.running
	default:
		if lc.queued == nil {
			lc.queued = &listWalk[T]{ctx: context.WithoutCancel(ctx), done: make(chan struct{})}
		}
		w = lc.queued
	}
	lc.mu.Unlock()

	select {
	case <-ctx.Done():
		return nil, &interruptedError{http.MethodGet, k.path, "while waiting for the shared list of " + k.path, ctx.Err()}
	case <-w.done:
		return w.byID, w.err
	}
}

// startWalkLocked starts w; the caller holds lc.mu.
func (k collection[T]) startWalkLocked(c *Client, lc *listCache[T], w *listWalk[T]) {
	w.startGen, w.startEnded = lc.gen, lc.ended
	lc.running = w
	go k.walkList(c, lc, w)
}

// walkList reads the whole list for w, keeps it when no write happened meanwhile, and starts the
// queued walk.
func (k collection[T]) walkList(c *Client, lc *listCache[T], w *listWalk[T]) {
	start := c.listNow()
	var m map[string]T
	var err error
	for v, werr := range k.walk(w.ctx, c, nil) {
		if werr != nil {
			m, err = nil, werr
			break
		}
		if m == nil {
			m = map[string]T{}
		}
		m[k.id(v)] = v
	}
	if err == nil && m == nil {
		m = map[string]T{}
	}
	lc.mu.Lock()
	w.byID, w.err = m, err
	if err == nil && lc.gen == w.startGen {
		lc.byID, lc.expires = m, start.Add(c.cfg.ListTTL)
	}
	lc.running = nil
	if q := lc.queued; q != nil {
		lc.queued = nil
		k.startWalkLocked(c, lc, q)
	}
	lc.mu.Unlock()
	close(w.done)
}

// lookup reads one object from the list its kind shares for Config.ListTTL (emptied by every
// write of this client to the kind, see writing).
//
// An id missing from the list is not taken as deleted: the list is a snapshot, and an object
// created by another process after the walk's page passed where it sorts is missing from it
// while it exists. So a missing id is read by id, and only that read's ErrNotFound (a 404,
// certain) reports it gone; any other failure is returned as it is. An object this client
// created is never missed that way: its create invalidated the list, and a walk that started
// before the create ended serves no lookup made after it (see listed).
func (k collection[T]) lookup(ctx context.Context, c *Client, id string) (T, error) {
	if id == "" {
		var zero T
		return zero, errEmptyID
	}
	m, err := k.listed(ctx, c)
	if err != nil {
		var zero T
		return zero, err
	}
	if v, ok := m[id]; ok {
		return v, nil
	}
	if k.listOnly {
		return k.rewalk(ctx, c, id)
	}
	return k.get(ctx, c, id)
}

// rewalk confirms an id that the shared list lacks for a kind with no read by id: a walk of
// its own, started after the lookup began, must lack it too. A page boundary can shift under a
// walk when another process deletes an object, so one walk may skip an object that exists; two
// walks that both lack it while it exists would need that churn twice over the same spot, and
// an object known to this lookup was created before both began. Its absence is then reported
// as a 404, ErrNotFound, like a read by id.
func (k collection[T]) rewalk(ctx context.Context, c *Client, id string) (T, error) {
	for v, err := range k.walk(ctx, c, nil) {
		if err != nil {
			var zero T
			return zero, err
		}
		if k.id(v) == id {
			return v, nil
		}
	}
	var zero T
	return zero, &Error{Method: http.MethodGet, Path: k.path, Status: http.StatusNotFound,
		Title: "The list has no object of this id."}
}

// writing marks a write to k's list for its duration: call it as defer k.writing(c)().
func (k collection[T]) writing(c *Client) func() {
	lc := k.list(c)
	lc.writeStarts()
	return lc.writeEnds
}
