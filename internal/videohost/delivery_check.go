package videohost

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/events"
)

// A sample delivery checks a webhook's receiver the way the service reaches it: the same
// method, headers and body form as the service's deliveries, signed the same way, sent from
// wherever Terraform runs (not from the service). Nothing here calls the service's API.

// The headers of every delivery.
const (
	HeaderWebhookID = "X-Service-WebhookID"
	HeaderSignature = "X-Service-Signature"
)

// DefaultDeliveryTimeout is how long a receiver has to answer one sample delivery: the time
// the service gives it.
const DefaultDeliveryTimeout = 5 * time.Second

// deliveryTimeFormat is the form of emittedAt in the service's deliveries.
const deliveryTimeFormat = "2006-01-02T15:04:05+00:00"

// sampleFields are the fields of each event besides type and emittedAt, with sample values
// that say where they come from.
var sampleFields = map[string]map[string]string{
	events.VideoEncodingQualityCompleted: {"videoId": "viSampleFromWebhookCheck", "encoding": "hls", "quality": "720p"},
	events.LiveStreamBroadcastStarted:    {"liveStreamId": "liSampleFromWebhookCheck"},
	events.LiveStreamBroadcastEnded:      {"liveStreamId": "liSampleFromWebhookCheck"},
	events.VideoSourceRecorded:           {"liveStreamId": "liSampleFromWebhookCheck", "videoId": "viSampleFromWebhookCheck"},
	events.VideoCaptionGenerated: {"videoId": "viSampleFromWebhookCheck", "captionId": "caSampleFromWebhookCheck",
		"generationMode": "transcript", "language": "en"},
	events.VideoSummaryGenerated: {"videoId": "viSampleFromWebhookCheck", "summaryId": "suSampleFromWebhookCheck"},
}

// SampleEvent is the body of a sample delivery of eventType emitted at now: a JSON object of
// strings with type, emittedAt and the event's own fields, as the service's deliveries have.
func SampleEvent(eventType string, now time.Time) ([]byte, error) {
	fields, ok := sampleFields[eventType]
	if !ok {
		return nil, fmt.Errorf("videohost: no sample of event %q", eventType)
	}
	body := map[string]string{"type": eventType, "emittedAt": now.UTC().Format(deliveryTimeFormat)}
	for k, v := range fields {
		body[k] = v
	}
	return json.Marshal(body)
}

// ForgedSignature is a signature of body that a receiver must refuse: the HMAC-SHA256 of body
// under a random key, in the form of a real one.
func ForgedSignature(body []byte) string {
	key := make([]byte, 32)
	_, _ = rand.Read(key) // crypto/rand.Read never fails.
	return Sign(hex.EncodeToString(key), body)
}

// DeliveryAnswer is how a receiver answered one sample delivery.
type DeliveryAnswer struct {
	// Status is the receiver's status code.
	Status int
	// Accepted is true for a 2xx: the service counts the delivery as delivered.
	Accepted bool
	// Elapsed is the time from sending to the answer's status.
	Elapsed time.Duration
}

// ErrNoAnswer is wrapped by the error of SendDelivery when the receiver did not answer in time.
var ErrNoAnswer = errors.New("the receiver did not answer in time")

// SendDelivery posts body to url as the service posts a delivery of the webhook webhookID,
// with signature as its X-Service-Signature, and returns the receiver's answer. It fails when
// the receiver cannot be reached or does not answer within timeout (ErrNoAnswer). A redirect
// is an answer like any other: the service does not follow it. It sends once, without the
// client's credentials, and is not rate limited: the receiver is not the service.
func (c *Client) SendDelivery(ctx context.Context, url, webhookID, signature string, body []byte, timeout time.Duration) (DeliveryAnswer, error) {
	if timeout <= 0 {
		timeout = DefaultDeliveryTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return DeliveryAnswer{}, fmt.Errorf("videohost: a delivery to %s: %w", url, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	req.Header.Set(HeaderWebhookID, webhookID)
	req.Header.Set(HeaderSignature, signature)
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	start := time.Now()
	resp, err := hc.Do(req)
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return DeliveryAnswer{}, fmt.Errorf("videohost: a delivery to %s: %w (%s)", url, ErrNoAnswer, timeout)
		}
		return DeliveryAnswer{}, fmt.Errorf("videohost: a delivery to %s: %w", url, err)
	}
	a := DeliveryAnswer{Status: resp.StatusCode, Accepted: resp.StatusCode >= 200 && resp.StatusCode <= 299, Elapsed: time.Since(start)}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	_ = resp.Body.Close()
	return a, nil
}
