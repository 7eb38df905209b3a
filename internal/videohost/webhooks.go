package videohost

import (
	"context"
	"encoding/json"
	"iter"
	"net/url"
	"time"
)

var _ json.Unmarshaler = (*Webhook)(nil)

// Webhook is the service's webhook.
type Webhook struct {
	ID              string    `json:"webhookId"`
	CreatedAt       time.Time `json:"createdAt"`
	Events          []string  `json:"events"`
	URL             string    `json:"url"`
	SignatureSecret string    `json:"signatureSecret,omitempty"`
}

// UnmarshalJSON accepts createdAt with an offset or Z; unknown members are ignored.
func (w *Webhook) UnmarshalJSON(b []byte) error { return decodeRecord(b, w) }

// CreateWebhookInput is the body of POST /webhooks.
type CreateWebhookInput struct {
	URL    string   `json:"url"`
	Events []string `json:"events"`
}

var webhookCollection = collection[Webhook]{path: "/webhooks", id: func(w Webhook) string { return w.ID }}

// ListWebhooks returns every webhook, walking all pages; event filters on one event name
// when not empty.
func (c *Client) ListWebhooks(ctx context.Context, event string) ([]Webhook, error) {
	return collect(c.WalkWebhooks(ctx, event))
}

// WalkWebhooks yields the webhooks page by page as it reads them, holding one page at a time;
// a caller that stops early reads no further page. event filters on one event name when not
// empty.
func (c *Client) WalkWebhooks(ctx context.Context, event string) iter.Seq2[Webhook, error] {
	q := url.Values{}
	if event != "" {
		q.Set("events", event)
	}
	return webhookCollection.walk(ctx, c, q)
}

// GetWebhook reads one webhook; errors.Is(err, ErrNotFound) when absent.
func (c *Client) GetWebhook(ctx context.Context, id string) (Webhook, error) {
	return webhookCollection.get(ctx, c, id)
}

// CreateWebhook sends POST /webhooks once; a failure after the request may have reached the
// service is an *AmbiguousError, never re-sent.
func (c *Client) CreateWebhook(ctx context.Context, in CreateWebhookInput) (Webhook, error) {
	if in.Events == nil {
		// A nil slice would be sent as null.
		in.Events = []string{}
	}
	return webhookCollection.create(ctx, c, in)
}

// DeleteWebhook deletes one webhook; a 404 on a retry counts as deleted, a 404 on the first
// attempt is ErrNotFound.
func (c *Client) DeleteWebhook(ctx context.Context, id string) error {
	return webhookCollection.delete(ctx, c, id)
}

// LookupWebhook reads one webhook from the list its lookups share (see collection.lookup), so
// that it carries the SignatureSecret, which only the list holds; an id missing from the list
// is read with GetWebhook, and only its ErrNotFound means the webhook is gone.
func (c *Client) LookupWebhook(ctx context.Context, id string) (Webhook, error) {
	return webhookCollection.lookup(ctx, c, id)
}
