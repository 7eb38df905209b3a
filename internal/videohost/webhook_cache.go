package videohost

import (
	"context"
	"net/http"
	"sync"
	"time"
)

// webhookCache is the one list of webhooks that LookupWebhook shares among callers. A refresh
// of many webhook resources then costs one walk of the list instead of one read each, which
// is what keeps a large plan under the read limit.
//
// A caller after a write needs a list read after that write: a walk that started earlier may
// miss what it made. So at most one walk runs, and callers that need a newer one join the one
// queued to start when it ends. Creates that finish together (a window's worth of a parallel
// apply) then share one or two walks to find their signature secrets, instead of one each.
type webhookCache struct {
	mu sync.Mutex
	// gen counts the starts and ends of this client's writes: a walk that started at gen g is
	// kept only when gen is still g at its end. ended counts the ends only: a walk that started
	// when ended was e saw every write that had ended by then, whatever is still in flight.
	gen, ended uint64
	byID       map[string]Webhook
	expires    time.Time

	running *listWalk // the walk in flight
	queued  *listWalk // the walk that starts when running ends
}

// listWalk is one walk of the list, shared by every caller that joined it.
type listWalk struct {
	ctx        context.Context // the first joiner's, without its cancellation: a walk serves many
	startGen   uint64          // gen when the walk started
	startEnded uint64          // ended when the walk started
	done       chan struct{}   // closed when byID and err are set
	byID       map[string]Webhook
	err        error
}

// writeStarts drops the list as a write begins; writeEnds drops it again when the write has
// ended, whatever its outcome.
func (wc *webhookCache) writeStarts() {
	wc.mu.Lock()
	defer wc.mu.Unlock()
	wc.gen++
	wc.byID = nil
}

func (wc *webhookCache) writeEnds() {
	wc.mu.Lock()
	defer wc.mu.Unlock()
	wc.gen++
	wc.ended++
	wc.byID = nil
}

// webhookList returns the shared list: the kept one while it is fresh, else the list of a walk
// that started after every write this client had finished when the call was made.
func (c *Client) webhookList(ctx context.Context) (map[string]Webhook, error) {
	wc := c.webhooks
	wc.mu.Lock()
	if wc.byID != nil && time.Now().Before(wc.expires) {
		m := wc.byID
		wc.mu.Unlock()
		return m, nil
	}
	var w *listWalk
	switch {
	case wc.running == nil:
		w = &listWalk{ctx: context.WithoutCancel(ctx), done: make(chan struct{})}
		c.startWalkLocked(w)
	case wc.running.startEnded >= wc.ended:
		// Started after every write that has ended: it sees them all. Writes still in
		// flight (waiting for the rate limit, say) are no one's to wait for yet.
		w = wc.running
	default:
		if wc.queued == nil {
			wc.queued = &listWalk{ctx: context.WithoutCancel(ctx), done: make(chan struct{})}
		}
		w = wc.queued
	}
	wc.mu.Unlock()

	select {
	case <-ctx.Done():
		return nil, &interruptedError{http.MethodGet, "/webhooks", "while waiting for the shared list of the webhooks", ctx.Err()}
	case <-w.done:
		return w.byID, w.err
	}
}

// startWalkLocked starts w as the running walk; the caller holds wc.mu.
func (c *Client) startWalkLocked(w *listWalk) {
	wc := c.webhooks
	w.startGen, w.startEnded = wc.gen, wc.ended
	wc.running = w
	go c.walk(w)
}

// walk reads the list for w, keeps it when no write happened meanwhile, and starts the queued
// walk, if any.
func (c *Client) walk(w *listWalk) {
	start := time.Now()
	list, err := c.ListWebhooks(w.ctx, "")
	var m map[string]Webhook
	if err == nil {
		m = make(map[string]Webhook, len(list))
		for _, wh := range list {
			m[wh.ID] = wh
		}
	}
	wc := c.webhooks
	wc.mu.Lock()
	w.byID, w.err = m, err
	if err == nil && wc.gen == w.startGen {
		wc.byID, wc.expires = m, start.Add(c.cfg.WebhookListTTL)
	}
	wc.running = nil
	if q := wc.queued; q != nil {
		wc.queued = nil
		c.startWalkLocked(q)
	}
	wc.mu.Unlock()
	close(w.done)
}

// LookupWebhook reads one webhook like GetWebhook, but from one list of the webhooks shared by
// all callers for Config.WebhookListTTL (filled once, by one caller, and emptied by every write
// of this client), so that it carries the SignatureSecret, which only the list holds. An id
// missing from the list is checked with GetWebhook before ErrNotFound is returned.
func (c *Client) LookupWebhook(ctx context.Context, id string) (Webhook, error) {
	if id == "" {
		return Webhook{}, errEmptyID
	}
	m, err := c.webhookList(ctx)
	if err != nil {
		return Webhook{}, err
	}
	if w, ok := m[id]; ok {
		return w, nil
	}
	// Created elsewhere after the list was read, or really gone: one read tells which.
	return c.GetWebhook(ctx, id)
}
