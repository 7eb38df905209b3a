package emulator

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"slices"
	"sync"
	"time"
)

// maxDeliveries bounds the delivery log; the oldest records are dropped first.
const maxDeliveries = 10000

// errClosed ends the deliveries that were still queued or waiting for a retry when the
// emulator was closed.
var errClosed = errors.New("cancelled: the emulator was closed")

// Delivery is one event sent to one webhook and its outcome.
type Delivery struct {
	DeliveryID string    `json:"deliveryId"`
	WebhookID  string    `json:"webhookId"`
	EventType  string    `json:"type"`
	URL        string    `json:"url"`
	Attempts   int       `json:"attempts"`
	LastStatus int       `json:"lastStatus"`
	Delivered  bool      `json:"delivered"`
	Pending    bool      `json:"pending"`
	Error      string    `json:"error,omitempty"`
	Body       string    `json:"body"`
	CreatedAt  time.Time `json:"createdAt"`
}

// DeliveryStats counts the deliveries since the start: every one offered (an event times the
// webhooks subscribed to it) is delivered, failed (no 2xx after every retry, or cancelled by
// Close), dropped (the queue was full) or still pending, so that
// Offered = Delivered + Failed + Dropped + Pending.
type DeliveryStats struct {
	Offered   int64 `json:"offered"`
	Delivered int64 `json:"delivered"`
	Failed    int64 `json:"failed"`
	Dropped   int64 `json:"dropped"`
	Pending   int64 `json:"pending"`
	// Queue and Workers are the bounds in force (DeliveryQueue, DeliveryWorkers).
	Queue   int `json:"queue"`
	Workers int `json:"workers"`
}

// job is one delivery on its way: its record, what it sends and the attempts made.
type job struct {
	rec      *Delivery
	sig      string
	body     []byte
	attempts int
}

// hookQueue holds the deliveries of one webhook in the order of their events. At most one
// worker serves it at a time, and its first job is finished (delivered or given up) before the
// next one starts, which keeps a receiver's deliveries in order.
type hookQueue struct {
	id   string
	jobs []*job
	// scheduled is true while the queue is in the ready list, served by a worker or waiting
	// for a retry's delay: it must not be put in the ready list a second time.
	scheduled bool
}

// deliveryState queues deliveries per webhook and runs them on a fixed number of workers; at
// most queueCap deliveries are pending at once, and what does not fit is dropped, counted and
// logged.
type deliveryState struct {
	retries  int
	delay    time.Duration
	timeout  time.Duration
	workers  int
	queueCap int
	client   *http.Client

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu     sync.Mutex // guards everything below
	wake   *sync.Cond // signalled when ready grows or closed is set
	closed bool
	log    []*Delivery
	hooks  map[string]*hookQueue
	ready  []*hookQueue
	stats  DeliveryStats
	// unlogged counts the drops that no log line reported yet.
	unlogged int64
}

func (d *deliveryState) init(o Options) {
	d.retries, d.delay, d.timeout = o.DeliveryRetries, o.DeliveryRetryDelay, o.DeliveryTimeout
	d.workers, d.queueCap = o.DeliveryWorkers, o.DeliveryQueue
	d.stats.Queue, d.stats.Workers = d.queueCap, d.workers
	// An own transport keeps Close from touching the idle connections of anyone else's
	// http.DefaultTransport in the same process; as many idle connections per receiver as
	// workers keep a busy receiver from costing a new connection per delivery.
	tr, ok := http.DefaultTransport.(*http.Transport)
	if ok {
		tr = tr.Clone()
	} else {
		tr = &http.Transport{}
	}
	tr.MaxIdleConnsPerHost = d.workers
	d.client = &http.Client{
		Transport: tr,
		// A redirect is an answer above 299 like any other: the service does not follow it.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	d.ctx, d.cancel = context.WithCancel(context.Background())
	d.wake = sync.NewCond(&d.mu)
	d.hooks = map[string]*hookQueue{}
	d.wg.Add(d.workers + 1)
	for range d.workers {
		go d.work()
	}
	go d.reportDrops()
}

// close stops the workers, ends the deliveries still queued as cancelled, and reports the drops
// not logged yet.
func (d *deliveryState) close() {
	d.mu.Lock()
	d.closed = true
	d.wake.Broadcast()
	d.mu.Unlock()
	d.cancel()
	d.wg.Wait()
	d.mu.Lock()
	for _, h := range d.hooks {
		for _, j := range h.jobs {
			d.finishLocked(j, j.rec.LastStatus, errClosed)
		}
	}
	d.hooks, d.ready = map[string]*hookQueue{}, nil
	d.logDropsLocked()
	d.mu.Unlock()
	d.client.CloseIdleConnections()
}

// sign is the X-Service-Signature of body: lowercase hex of HMAC-SHA256 keyed with secret.
func sign(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// emit sends an event to every webhook subscribed to it. The body holds type, emittedAt and the
// event's fields; each webhook gets its own delivery, queued behind that webhook's earlier ones.
func (e *Emulator) emit(eventType string, fields map[string]string) {
	body := map[string]string{}
	for k, v := range fields {
		body[k] = v
	}
	body["type"] = eventType
	body["emittedAt"] = atom(e.now())
	raw, err := json.Marshal(body)
	if err != nil {
		return // A map of strings always encodes.
	}
	e.mu.RLock()
	var targets []Webhook
	for _, w := range e.st.Webhooks {
		if slices.Contains(w.Events, eventType) {
			targets = append(targets, Webhook{WebhookID: w.WebhookID, URL: w.URL, SignatureSecret: w.SignatureSecret})
		}
	}
	e.mu.RUnlock()
	now := e.now().UTC()
	for _, w := range targets {
		e.delivery.enqueue(w, eventType, raw, now)
	}
}

// enqueue queues one delivery of body to w, or counts it dropped when the queue is full.
func (d *deliveryState) enqueue(w Webhook, eventType string, body []byte, now time.Time) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return
	}
	d.stats.Offered++
	if d.stats.Pending >= int64(d.queueCap) {
		d.stats.Dropped++
		d.unlogged++
		return
	}
	rec := &Delivery{
		DeliveryID: randomID("delivery_", 16),
		WebhookID:  w.WebhookID,
		EventType:  eventType,
		URL:        w.URL,
		Pending:    true,
		Body:       string(body),
		CreatedAt:  now,
	}
	d.log = append(d.log, rec)
	if len(d.log) > maxDeliveries {
		d.log = slices.Delete(d.log, 0, len(d.log)-maxDeliveries)
	}
	d.stats.Pending++
	h := d.hooks[w.WebhookID]
	if h == nil {
		h = &hookQueue{id: w.WebhookID}
		d.hooks[w.WebhookID] = h
	}
	h.jobs = append(h.jobs, &job{rec: rec, sig: sign(w.SignatureSecret, body), body: body})
	if !h.scheduled {
		d.readyLocked(h)
	}
}

// readyLocked puts h at the end of the ready list and wakes a worker; d.mu is held.
func (d *deliveryState) readyLocked(h *hookQueue) {
	h.scheduled = true
	d.ready = append(d.ready, h)
	d.wake.Signal()
}

// next waits for a webhook whose first delivery is due; false once the emulator is closed.
func (d *deliveryState) next() (*hookQueue, *job, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for len(d.ready) == 0 && !d.closed {
		d.wake.Wait()
	}
	if d.closed {
		return nil, nil, false
	}
	h := d.ready[0]
	d.ready[0] = nil
	d.ready = d.ready[1:]
	return h, h.jobs[0], true
}

// work makes one attempt at a time: the first delivery of the next ready webhook. A failed
// attempt with retries left puts the webhook back in the ready list after the retry delay,
// without holding the worker meanwhile; the webhook's later deliveries wait behind it.
func (d *deliveryState) work() {
	defer d.wg.Done()
	for {
		h, j, ok := d.next()
		if !ok {
			return
		}
		j.attempts++
		status, err := d.attempt(j.rec, j.sig, j.body)
		d.mu.Lock()
		j.rec.Attempts, j.rec.LastStatus = j.attempts, status
		switch {
		case d.closed:
			// close ends what is still queued, this job included.
		case err != nil && j.attempts <= d.retries:
			time.AfterFunc(d.delay, func() { d.retry(h) })
		default:
			d.finishLocked(j, status, err)
			h.jobs[0] = nil
			h.jobs = h.jobs[1:]
			if len(h.jobs) > 0 {
				d.readyLocked(h)
			} else {
				h.scheduled = false
				delete(d.hooks, h.id)
			}
		}
		d.mu.Unlock()
	}
}

// retry puts h back in the ready list once its first delivery's retry delay has passed.
func (d *deliveryState) retry(h *hookQueue) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.closed {
		d.readyLocked(h)
	}
}

// finishLocked records the outcome of a delivery that will not be attempted again; d.mu is held.
func (d *deliveryState) finishLocked(j *job, status int, err error) {
	j.rec.Attempts, j.rec.LastStatus, j.rec.Pending = j.attempts, status, false
	j.rec.Delivered = err == nil
	d.stats.Pending--
	if err != nil {
		j.rec.Error = err.Error()
		d.stats.Failed++
	} else {
		d.stats.Delivered++
	}
}

// reportDrops logs, at most once a second, how many deliveries the full queue dropped since
// the last report; close reports the rest.
func (d *deliveryState) reportDrops() {
	defer d.wg.Done()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-d.ctx.Done():
			return
		case <-tick.C:
			d.mu.Lock()
			d.logDropsLocked()
			d.mu.Unlock()
		}
	}
}

func (d *deliveryState) logDropsLocked() {
	if d.unlogged == 0 {
		return
	}
	log.Printf("videohost-emulator: the delivery queue was full (%d pending): %d deliveries dropped since the last report, %d in all (see GET /_emulator/stats)",
		d.queueCap, d.unlogged, d.stats.Dropped)
	d.unlogged = 0
}

// attempt posts body once; err is nil only for a 2xx answer.
func (d *deliveryState) attempt(rec *Delivery, sig string, body []byte) (int, error) {
	ctx, cancel := context.WithTimeout(d.ctx, d.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, rec.URL, bytes.NewReader(body))
	if err != nil {
		return 0, fmt.Errorf("building the request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "videohost-emulator")
	req.Header.Set("X-Service-WebhookID", rec.WebhookID)
	req.Header.Set("X-Service-Signature", sig)
	resp, err := d.client.Do(req)
	if err != nil {
		if ctx.Err() != nil && d.ctx.Err() == nil {
			return 0, fmt.Errorf("the receiver did not answer within %s", d.timeout)
		}
		return 0, fmt.Errorf("sending: %w", err)
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	_ = resp.Body.Close()
	if resp.StatusCode > 299 {
		return resp.StatusCode, fmt.Errorf("the receiver answered %d", resp.StatusCode)
	}
	return resp.StatusCode, nil
}

// Deliveries returns the last deliveries (at most 10,000), oldest first, with their outcome so
// far; dropped deliveries are not among them (DeliveryStats counts them).
func (e *Emulator) Deliveries() []Delivery {
	d := &e.delivery
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]Delivery, 0, len(d.log))
	for _, r := range d.log {
		out = append(out, *r)
	}
	return out
}

// DeliveryStats counts the deliveries offered, delivered, failed, dropped and pending so far.
func (e *Emulator) DeliveryStats() DeliveryStats {
	d := &e.delivery
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.stats
}

// WaitDeliveries waits until no delivery is pending (including retries) or ctx ends.
func (e *Emulator) WaitDeliveries(ctx context.Context) error {
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for e.DeliveryStats().Pending > 0 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
	return nil
}
