package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

var _ http.Handler = (*receiver)(nil)

// Headers that the service puts on every delivery.
const (
	headerWebhookID = "X-Service-WebhookID"
	headerSignature = "X-Service-Signature"
)

// maxBodyBytes bounds what one delivery may send; event bodies are a few hundred bytes.
const maxBodyBytes = 1 << 20

// keyRing finds the signature secret of a webhook; ok is false when the webhook is unknown.
type keyRing func(webhookID string) (secret string, ok bool, err error)

// fileKeyRing reads JSON objects of webhook id to secret from paths on every call, so that the
// demo can add webhooks (an import, say) without restarting the receiver. A file that does not
// exist yet knows no webhook; the first file that knows the webhook wins.
func fileKeyRing(paths ...string) keyRing {
	return func(webhookID string) (string, bool, error) {
		for _, path := range paths {
			raw, err := os.ReadFile(path)
			if os.IsNotExist(err) {
				continue
			}
			if err != nil {
				return "", false, err
			}
			var secrets map[string]string
			if err := json.Unmarshal(raw, &secrets); err != nil {
				// The errors of encoding/json name offsets and types, never the content, so the
				// secrets stay out of the log.
				return "", false, fmt.Errorf("key ring %s is not a JSON object of strings: %w", path, err)
			}
			if secret, ok := secrets[webhookID]; ok {
				return secret, true, nil
			}
		}
		return "", false, nil
	}
}

// receiver checks and logs deliveries.
type receiver struct {
	keys keyRing

	mu  sync.Mutex // serialises writes to out and the counter
	out io.Writer
	n   int
}

func newReceiver(keys keyRing, out io.Writer) *receiver {
	return &receiver{keys: keys, out: out}
}

// ServeHTTP answers 204 to a delivery whose signature verifies and 401 to any other, so that
// the service's retries show up for a delivery that was refused.
func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "deliveries are POSTed", http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBodyBytes+1))
	if err != nil {
		http.Error(w, "reading the body failed", http.StatusBadRequest)
		return
	}
	if len(body) > maxBodyBytes {
		http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
		return
	}

	webhookID := r.Header.Get(headerWebhookID)
	signature := r.Header.Get(headerSignature)
	summary := summarise(body)

	secret, known, err := rc.keys(webhookID)
	var verdict string
	status := http.StatusUnauthorized
	switch {
	case err != nil:
		verdict = "SIGNATURE NOT CHECKED (" + err.Error() + ")"
		status = http.StatusInternalServerError
	case !known:
		verdict = "SIGNATURE MISMATCH (unknown webhook)"
	case videohost.Verify(secret, body, signature):
		verdict = "signature verified"
		status = http.StatusNoContent
	default:
		verdict = "SIGNATURE MISMATCH"
	}

	rc.mu.Lock()
	rc.n++
	fmt.Fprintf(rc.out, "delivery %d %s webhook=%s %s: %s\n", rc.n, r.URL.Path, webhookID, summary, verdict)
	rc.mu.Unlock()

	w.WriteHeader(status)
}

// summarise names the event and its identifiers from a delivery body: every top-level string
// field, type first, in a stable order. Event bodies hold ids and names, never secrets.
func summarise(body []byte) string {
	var fields map[string]any
	if err := json.Unmarshal(body, &fields); err != nil {
		return "body=not-json"
	}
	parts := make([]string, 0, len(fields))
	if t, ok := fields["type"].(string); ok {
		parts = append(parts, "event="+t)
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		if k != "type" && k != "emittedAt" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		if s, ok := fields[k].(string); ok {
			parts = append(parts, k+"="+s)
		}
	}
	return strings.Join(parts, " ")
}
