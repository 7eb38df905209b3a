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
	"net/http"
	"slices"
	"sync"
	"time"
)

// maxDeliveries bounds the delivery log; the oldest records are dropped first.
const maxDeliveries = 10000

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

// deliveryState runs deliveries in goroutines that Close cancels and waits for.
type deliveryState struct {
	retries int
	delay   time.Duration
	timeout time.Duration
	client  *http.Client

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex // guards closed, log and pending
	closed  bool
	log     []*Delivery
	pending int
}

func (d *deliveryState) init(o Options) {
	d.retries, d.delay, d.timeout = o.DeliveryRetries, o.DeliveryRetryDelay, o.DeliveryTimeout
	// An own transport keeps Close from touching the idle connections of anyone else's
	// http.DefaultTransport in the same process.
	tr, ok := http.DefaultTransport.(*http.Transport)
	if ok {
		tr = tr.Clone()
	} else {
		tr = &http.Transport{}
	}
	d.client = &http.Client{
		Transport: tr,
		// A redirect is an answer above 299 like any other: the service does not follow it.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	d.ctx, d.cancel = context.WithCancel(context.Background())
}

// close cancels the pending deliveries and waits for their goroutines.
func (d *deliveryState) close() {
	d.mu.Lock()
	d.closed = true
	d.mu.Unlock()
	d.cancel()
	d.wg.Wait()
	d.client.CloseIdleConnections()
}

// sign is the X-Service-Signature of body: lowercase hex of HMAC-SHA256 keyed with secret.
func sign(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// emit sends an event to every webhook subscribed to it. The body holds type, emittedAt and the
// event's fields; each webhook gets its own delivery, run in the background.
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
			targets = append(targets, cloneWebhook(w))
		}
	}
	e.mu.RUnlock()
	d := &e.delivery
	for _, w := range targets {
		rec := &Delivery{
			DeliveryID: randomID("delivery_", 16),
			WebhookID:  w.WebhookID,
			EventType:  eventType,
			URL:        w.URL,
			Pending:    true,
			Body:       string(raw),
			CreatedAt:  e.now().UTC(),
		}
		d.mu.Lock()
		if d.closed {
			d.mu.Unlock()
			return
		}
		d.log = append(d.log, rec)
		if len(d.log) > maxDeliveries {
			d.log = slices.Delete(d.log, 0, len(d.log)-maxDeliveries)
		}
		d.pending++
		d.wg.Add(1)
		d.mu.Unlock()
		go d.run(rec, w.SignatureSecret, raw)
	}
}

// run makes the first attempt and up to retries more, delay apart, until the receiver answers
// 2xx.
func (d *deliveryState) run(rec *Delivery, secret string, body []byte) {
	defer d.wg.Done()
	sig := sign(secret, body)
	var status int
	var err error
	attempts := 0
	for attempt := 0; attempt <= d.retries; attempt++ {
		if attempt > 0 {
			t := time.NewTimer(d.delay)
			select {
			case <-t.C:
			case <-d.ctx.Done():
				t.Stop()
				err = errors.New("cancelled: the emulator was closed")
			}
			if d.ctx.Err() != nil {
				break
			}
		}
		attempts++
		status, err = d.attempt(rec, sig, body)
		d.update(func() { rec.Attempts, rec.LastStatus = attempts, status })
		if err == nil {
			break
		}
	}
	d.update(func() {
		rec.Attempts, rec.LastStatus, rec.Pending = attempts, status, false
		rec.Delivered = err == nil
		if err != nil {
			rec.Error = err.Error()
		}
	})
	d.mu.Lock()
	d.pending--
	d.mu.Unlock()
}

// update changes a delivery record under the lock that Deliveries reads it with.
func (d *deliveryState) update(fn func()) {
	d.mu.Lock()
	defer d.mu.Unlock()
	fn()
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

// Deliveries returns every delivery so far, oldest first, with its outcome so far.
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

// WaitDeliveries waits until no delivery is pending (including retries) or ctx ends.
func (e *Emulator) WaitDeliveries(ctx context.Context) error {
	d := &e.delivery
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		d.mu.Lock()
		n := d.pending
		d.mu.Unlock()
		if n == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}
