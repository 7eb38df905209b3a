package emulator

import (
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/events"
)

// atomFormat is PHP's DATE_ATOM, the service's date-time format: UTC with a +00:00 offset.
const atomFormat = "2006-01-02T15:04:05+00:00"

func atom(t time.Time) string { return t.UTC().Format(atomFormat) }

// ErrWebhookLimit is returned by CreateWebhook when the account already holds MaxWebhooks
// webhooks.
var ErrWebhookLimit = errors.New("the account has reached the webhook urls limit")

// validateWebhookURL reports why raw is not an http or https URL with a host, or "".
func validateWebhookURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Hostname() == "" {
		return "This attribute must be a valid http or https URL."
	}
	return ""
}

// validateEvents reports why names is not a list of known event names, or "".
func validateEvents(names []string) string {
	if len(names) == 0 {
		return "This attribute must contain at least one event name."
	}
	for _, n := range names {
		if !events.Valid(n) {
			return "This attribute must contain only these event names: " + joinNames() + "."
		}
	}
	return ""
}

// webhookWire is a webhook as the service sends it.
type webhookWire struct {
	WebhookID       string   `json:"webhookId"`
	CreatedAt       string   `json:"createdAt"`
	Events          []string `json:"events"`
	URL             string   `json:"url"`
	SignatureSecret string   `json:"signatureSecret,omitempty"`
}

func toWebhookWire(w Webhook, withSecret bool) webhookWire {
	out := webhookWire{WebhookID: w.WebhookID, CreatedAt: atom(w.CreatedAt), Events: w.Events, URL: w.URL}
	if out.Events == nil {
		out.Events = []string{}
	}
	if withSecret {
		out.SignatureSecret = w.SignatureSecret
	}
	return out
}

// Webhooks returns every stored webhook, oldest first.
func (e *Emulator) Webhooks() []Webhook {
	e.mu.RLock()
	defer e.mu.RUnlock()
	out := make([]Webhook, 0, len(e.st.Webhooks))
	for _, w := range e.st.Webhooks {
		out = append(out, cloneWebhook(w))
	}
	return out
}

// WebhookByID returns one stored webhook.
func (e *Emulator) WebhookByID(id string) (Webhook, bool) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	i := webhooks.find(&e.st, id)
	if i < 0 {
		return Webhook{}, false
	}
	return cloneWebhook(e.st.Webhooks[i]), true
}

// CreateWebhook stores a webhook as if created outside Terraform (control API). It applies
// the service's rules: an http(s) url and known event names (else an error wrapping
// ErrInvalid) and the webhook limit (ErrWebhookLimit).
func (e *Emulator) CreateWebhook(rawURL string, names []string) (Webhook, error) {
	if msg := validateWebhookURL(rawURL); msg != "" {
		return Webhook{}, invalidf("url: %s", msg)
	}
	if msg := validateEvents(names); msg != "" {
		return Webhook{}, invalidf("events: %s", msg)
	}
	e.mu.Lock()
	w, err := e.insertWebhookLocked(rawURL, names)
	e.mu.Unlock()
	if err != nil {
		return Webhook{}, err
	}
	e.saveStateLogged()
	return w, nil
}

// DeleteWebhook removes a webhook as if deleted outside Terraform; false when absent.
func (e *Emulator) DeleteWebhook(id string) bool {
	e.mu.Lock()
	i := webhooks.find(&e.st, id)
	if i >= 0 {
		e.st.Webhooks = slices.Delete(e.st.Webhooks, i, i+1)
	}
	e.mu.Unlock()
	if i < 0 {
		return false
	}
	e.saveStateLogged()
	return true
}

// parseWebhookQuery reads the query of GET /webhooks: the paging, then events, one event name
// that a webhook must listen to. The list keeps creation order.
func (e *Emulator) parseWebhookQuery(q url.Values) (listQuery[Webhook], []problem) {
	lq := listQuery[Webhook]{filters: url.Values{}}
	probs := e.unknownParams(q, listParams("events"))
	var pageProbs []problem
	lq.page, pageProbs = e.parsePaging(q)
	probs = append(probs, pageProbs...)
	if vs, ok := q["events"]; ok {
		event := single(vs)
		if !events.Valid(event) {
			probs = append(probs, e.invalid("events", "This attribute must be one event name: "+joinNames()+"."))
		} else {
			lq.filters.Set("events", event)
			lq.keep = func(wh *Webhook) bool { return slices.Contains(wh.Events, event) }
		}
	}
	return lq, probs
}

func (e *Emulator) handleListWebhooks(w http.ResponseWriter, r *http.Request, _ string) {
	webhooks.serveList(e, w, r, e.parseWebhookQuery)
}

// handleGetWebhook serves GET /webhooks/{id}: the signature secret only when SecretInResponses
// is set, which is why it is not webhooks.serveGet (webhooks.wire always sends the secret).
func (e *Emulator) handleGetWebhook(w http.ResponseWriter, _ *http.Request, id string) {
	wh, ok := e.WebhookByID(id)
	if !ok {
		writeError(w, e.notFound(webhooks.idName))
		return
	}
	writeJSON(w, http.StatusOK, toWebhookWire(wh, e.opts.SecretInResponses))
}

func (e *Emulator) handleDeleteWebhook(w http.ResponseWriter, _ *http.Request, id string) {
	webhooks.answerDelete(e, w, e.DeleteWebhook(id))
}

func (e *Emulator) handleCreateWebhook(w http.ResponseWriter, r *http.Request, _ string) {
	wh, ok := e.createWebhookFrom(w, r)
	if !ok {
		return
	}
	e.answerWrite(w, http.StatusCreated, toWebhookWire(wh, e.opts.SecretInResponses))
}

// createWebhookFrom stores the webhook that the body of a create asks for, through the service
// (POST /webhooks) or the control API. When the body is refused or the account is full it
// writes the error answer itself and reports false.
func (e *Emulator) createWebhookFrom(w http.ResponseWriter, r *http.Request) (Webhook, bool) {
	body, ok := readObject(r)
	if !ok {
		writeError(w, e.invalidPayload())
		return Webhook{}, false
	}
	rawURL, names, probs := e.decodeWebhookBody(body)
	if len(probs) > 0 {
		writeError(w, e.attributeError(probs...))
		return Webhook{}, false
	}
	e.mu.Lock()
	wh, err := e.insertWebhookLocked(rawURL, names)
	e.mu.Unlock()
	if err != nil {
		// The body is valid, so the only refusal left is the account's limit.
		a := e.newError(http.StatusBadRequest, slugWebhookLimit, titleWebhookLimit)
		a.Name = "url"
		writeError(w, a)
		return Webhook{}, false
	}
	e.saveStateLogged()
	return wh, true
}

// decodeWebhookBody checks the body of POST /webhooks and lists every problem: each missing
// attribute, a wrong type, an unknown event name, a url that is not http(s), and attributes
// that the endpoint does not take.
func (e *Emulator) decodeWebhookBody(body map[string]json.RawMessage) (string, []string, []problem) {
	var probs []problem
	var names []string
	if raw, ok := body["events"]; !ok || string(raw) == "null" {
		probs = append(probs, e.required("events"))
	} else if err := json.Unmarshal(raw, &names); err != nil {
		var anyArray []any
		if json.Unmarshal(raw, &anyArray) == nil {
			probs = append(probs, e.invalid("events", "This attribute must be an array of strings."))
		} else {
			probs = append(probs, e.invalid("events", titleMustBeArray))
		}
	} else if msg := validateEvents(names); msg != "" {
		probs = append(probs, e.invalid("events", msg))
	}
	rawURL, p := e.stringAttr(body, "url")
	if p != nil {
		probs = append(probs, *p)
	} else if msg := validateWebhookURL(rawURL); msg != "" {
		probs = append(probs, e.invalid("url", msg))
	}
	for _, k := range slices.Sorted(maps.Keys(body)) {
		if k != "events" && k != "url" {
			probs = append(probs, e.invalid(k, "This attribute does not exist for this endpoint."))
		}
	}
	return rawURL, names, probs
}

// joinNames lists the event names for a message.
func joinNames() string { return strings.Join(events.Names(), ", ") }
