package videohost

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// webhookCache is the one list of webhooks that LookupWebhook shares among callers. A refresh
// of many webhook resources then costs one walk of the list instead of one read each, which
// is what keeps a large plan under the read limit.
type webhookCache struct {
	mu sync.Mutex
	// gen counts the writes of this client; a list fetched across a write is not kept.
	gen     uint64
	byID    map[string]Webhook
	expires time.Time

	group singleflight.Group
}

// invalidate drops the list; every write calls it before and after sending.
func (wc *webhookCache) invalidate() {
	wc.mu.Lock()
	defer wc.mu.Unlock()
	wc.gen++
	wc.byID = nil
}

// webhookList returns the shared list, walking it once for all concurrent callers when it is
// absent or stale. With a TTL of zero the walk is still shared but not kept.
func (c *Client) webhookList(ctx context.Context) (map[string]Webhook, error) {
	wc := c.webhooks
	wc.mu.Lock()
	if wc.byID != nil && time.Now().Before(wc.expires) {
		m := wc.byID
		wc.mu.Unlock()
		return m, nil
	}
	gen := wc.gen
	wc.mu.Unlock()

	ch := wc.group.DoChan(strconv.FormatUint(gen, 10), func() (any, error) {
		start := time.Now()
		list, err := c.ListWebhooks(context.WithoutCancel(ctx), "")
		if err != nil {
			return nil, err
		}
		m := make(map[string]Webhook, len(list))
		for _, w := range list {
			m[w.ID] = w
		}
		wc.mu.Lock()
		if wc.gen == gen && c.cfg.WebhookListTTL > 0 {
			wc.byID, wc.expires = m, start.Add(c.cfg.WebhookListTTL)
		}
		wc.mu.Unlock()
		return m, nil
	})
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case res := <-ch:
		if res.Err != nil {
			return nil, res.Err
		}
		m, ok := res.Val.(map[string]Webhook)
		if !ok {
			return nil, fmt.Errorf("videohost: webhook list returned %T", res.Val)
		}
		return m, nil
	}
}

// LookupWebhook answers like GetWebhook, but from one list of the webhooks shared by all
// callers for Config.WebhookListTTL (filled once, by one caller, and emptied by every write of
// this client), and with SignatureSecret filled from the list. An id missing from the list is
// checked with GetWebhook before ErrNotFound is returned.
func (c *Client) LookupWebhook(ctx context.Context, id string) (Webhook, error) {
	if id == "" {
		return Webhook{}, errEmptyID
	}
	if c.cfg.WebhookListTTL <= 0 {
		w, err := c.GetWebhook(ctx, id)
		if err != nil || w.SignatureSecret != "" {
			return w, err
		}
		m, err := c.webhookList(ctx)
		if err != nil {
			return Webhook{}, err
		}
		if lw, ok := m[id]; ok {
			w.SignatureSecret = lw.SignatureSecret
		}
		return w, nil
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
