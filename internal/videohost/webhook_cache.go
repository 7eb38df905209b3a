package videohost

import (
	"context"
	"net/http"
	"sync"
	"time"
)

// webhookCache is the one list of webhooks that LookupWebhook shares: a refresh of many webhooks
// costs one walk instead of one read each, which keeps a large plan under the read limit.
//
// A caller after a write needs a walk that started after it. So at most one walk runs, and
// callers that need a newer one join the one queued to start when it ends: creates that finish
// together share one or two walks to find their secrets.
type webhookCache struct {
	mu sync.Mutex
	// gen counts the starts and ends of writes: a walk is kept only when gen did not move while
	// it ran. ended counts the ends: a walk that started at ended e saw every write ended by then.
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

// writeStarts and writeEnds drop the list around a write, whatever its outcome.
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

// webhookList returns the kept list while it is fresh, else that of a walk that started after
// every write this client had finished.
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
		// It sees every write that has ended; those in flight are no one's to wait for yet.
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

// startWalkLocked starts w; the caller holds wc.mu.
func (c *Client) startWalkLocked(w *listWalk) {
	wc := c.webhooks
	w.startGen, w.startEnded = wc.gen, wc.ended
	wc.running = w
	go c.walkWebhookList(w)
}

// walkWebhookList reads the list for w, keeps it when no write happened meanwhile, and starts the queued one.
func (c *Client) walkWebhookList(w *listWalk) {
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

// LookupWebhook reads one webhook from the list shared by all callers for Config.WebhookListTTL
// (emptied by every write of this client), so that it carries the SignatureSecret, which only
// the list holds. An id missing from the list is read with GetWebhook.
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
