package videohost

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"path"
	"sort"
	"strings"
	"time"
)

var (
	_ error = (*Error)(nil)
	_ error = (*AmbiguousError)(nil)
	_ error = (*DecodeError)(nil)
	_ error = (*IDError)(nil)
	_ error = (*interruptedError)(nil)
)

// The kinds of failure, for errors.Is. An error answers to one kind, but an ambiguous write
// also to the kind of its cause (a 5xx is ErrServer too).
var (
	// ErrNotFound is a 404 of an object the service does not have (not ErrUnknownEndpoint).
	ErrNotFound = errors.New("videohost: not found")
	// ErrUnknownEndpoint is the 404 of an address that is no endpoint of the API ("Unrecognized
	// request URL."): the base URL is wrong, not an id. It is not ErrNotFound, so that a read
	// through a wrong address never passes for an object deleted outside Terraform.
	ErrUnknownEndpoint = errors.New("videohost: no such endpoint")
	// ErrUnauthorized is a 401 or 403; Error.Hint names the environment whose key to check.
	ErrUnauthorized = errors.New("videohost: unauthorized")
	// ErrRateLimited is a 429 after the last retry; Error.Class and Error.Limit say which limit.
	ErrRateLimited = errors.New("videohost: rate limited")
	// ErrRedirect is a 3xx, never followed; Error.Location and Error.Hint say where to point.
	ErrRedirect = errors.New("videohost: redirect not followed")
	// ErrWebhookLimit is the 400 of an account that holds as many webhooks as it may.
	ErrWebhookLimit = errors.New("videohost: webhook limit reached")
	// ErrInvalidInput is any other 400; Error.Problems, Name or Extra name the attributes.
	ErrInvalidInput = errors.New("videohost: invalid input")
	// ErrServer is a 5xx after the last retry.
	ErrServer = errors.New("videohost: server error")
	// ErrAmbiguous is a write that failed after it may have reached the service; not re-sent.
	ErrAmbiguous = errors.New("videohost: outcome unknown")
	// ErrUndecodable is a 2xx response that is too large, empty, not JSON or of another shape.
	ErrUndecodable = errors.New("videohost: response not decodable")
	// ErrInvalidID is an id refused before any request (see CheckID).
	ErrInvalidID = errors.New("videohost: not an id of the service")
	// ErrInterrupted is a call whose context ended before its request was sent, or during a
	// read; errors.Is(err, context.Canceled) (or DeadlineExceeded) holds as well.
	ErrInterrupted = errors.New("videohost: interrupted before the request was sent")
	// ErrSourceChanged is an upload whose file did not hold the bytes its size promised (it
	// shrank or grew while it was read), or whose video holds part of a source of another size.
	ErrSourceChanged = errors.New("videohost: the source file changed")
)

const (
	slugWebhookLimit    = "webhook-limit-reached"
	slugUnrecognizedURL = "unrecognized-request-url"
	// titleUnrecognizedURL is the seed's message of a 404 for no such endpoint.
	titleUnrecognizedURL = "unrecognized request url."
)

// bodyCut is how much of a body that is not JSON an Error keeps: enough to recognise a proxy's
// error page, not enough to flood a diagnostic.
const bodyCut = 200

// Error is every non-2xx response of the service: the API's words, and the client's advice.
type Error struct {
	Method   string
	Path     string
	Status   int
	Type     string // the documentation link, {docs_url}/<slug>
	Title    string
	Name     string
	Detail   string
	Problems []Problem
	Extra    map[string]any // members not listed above
	Body     string         // a cut of a body that was not JSON
	Class    string         // the rate-limit class of a 429
	Limit    int            // the learned limit of Class per Window, 0 while unknown
	Window   time.Duration  // the learned window of Limit, 0 while unknown
	Retries  int
	Location string // where a redirect pointed, without its query
	Hint     string // what to do, e.g. which key to check, or the base_url to set
	// ServiceTime is when the service answered, by its own clock (the response's Date); zero
	// when it gave none. An expiry the service decides, such as an upload token's, is judged
	// against it: the machine's clock may disagree with the service's.
	ServiceTime time.Time
}

// Problem is one item of a 400's problems.
type Problem struct {
	Type  string `json:"type"`
	Title string `json:"title"`
	Name  string `json:"name"`
}

func (e *Error) Error() string {
	var b strings.Builder
	title := e.Title
	if title == "" {
		title = http.StatusText(e.Status)
	}
	if title == "" {
		title = "unexpected status"
	}
	fmt.Fprintf(&b, "%s %s: %d %s", e.Method, e.Path, e.Status, oneLine(title))
	if e.Detail != "" {
		b.WriteString(" " + oneLine(e.Detail))
	}
	if parts := e.parts(); len(parts) > 0 {
		b.WriteString(" (" + strings.Join(parts, "; ") + ")")
	}
	if e.Body != "" {
		b.WriteString(": " + oneLine(e.Body))
	}
	if e.Hint != "" {
		if !strings.HasSuffix(b.String(), ".") {
			b.WriteString(".")
		}
		b.WriteString(" " + e.Hint)
	}
	return b.String()
}

// parts are the bracketed remarks of the message: what the body names, the limit, the retries.
func (e *Error) parts() []string {
	var parts []string
	switch {
	case len(e.Problems) > 0:
		ps := make([]string, 0, len(e.Problems))
		for _, p := range e.Problems {
			if name := oneLine(p.Name); name != "" {
				ps = append(ps, name+": "+oneLine(p.Title))
			} else {
				ps = append(ps, oneLine(p.Title))
			}
		}
		parts = append(parts, strings.Join(ps, "; "))
	case oneLine(e.Name) != "":
		parts = append(parts, "parameter: "+oneLine(e.Name))
	}
	if len(e.Problems) == 0 {
		parts = append(parts, extraMessages(e.Extra)...)
	}
	if e.Status == http.StatusTooManyRequests && e.Class != "" {
		if e.Limit > 0 {
			parts = append(parts, fmt.Sprintf("%s limit: %s", e.Class, RatePer(e.Limit, e.Window)))
		} else {
			parts = append(parts, e.Class+" limit")
		}
	}
	if e.Retries > 0 {
		parts = append(parts, retried(e.Retries))
	}
	return parts
}

// Is sorts the error into its kind by its status.
func (e *Error) Is(target error) bool {
	switch target {
	case ErrNotFound:
		return e.Status == http.StatusNotFound && !e.unknownEndpoint()
	case ErrUnknownEndpoint:
		return e.unknownEndpoint()
	case ErrUnauthorized:
		return e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden
	case ErrRateLimited:
		return e.Status == http.StatusTooManyRequests
	case ErrRedirect:
		return e.Status >= 300 && e.Status < 400
	case ErrWebhookLimit:
		return e.webhookLimit()
	case ErrInvalidInput:
		return e.Status == http.StatusBadRequest && !e.webhookLimit()
	case ErrServer:
		return e.Status >= 500
	}
	return false
}

// webhookLimit recognises the 400 of a full account. The specification gives it no slug, only
// a title ("Your account has reached the webhook urls limit."), so the emulator's slug or words
// naming both a webhook and a limit identify it.
func (e *Error) webhookLimit() bool {
	if e.Status != http.StatusBadRequest {
		return false
	}
	if e.Type != "" && path.Base(e.Type) == slugWebhookLimit {
		return true
	}
	words := strings.ToLower(e.Title + " " + e.Detail)
	return strings.Contains(words, "webhook") && strings.Contains(words, "limit")
}

// unknownEndpoint recognises the 404 of an address that is no endpoint ("Unrecognized request
// URL."), by its documentation slug or its title; the 404 of an unknown object carries another
// of each ("resource-not-found", "The requested resource could not be found.").
func (e *Error) unknownEndpoint() bool {
	if e.Status != http.StatusNotFound {
		return false
	}
	if e.Type != "" && path.Base(e.Type) == slugUnrecognizedURL {
		return true
	}
	return strings.ToLower(oneLine(e.Title)) == titleUnrecognizedURL
}

// extraMessages renders members that carry an attribute's message, such as {"events": "This
// attribute must be an array."}, in a stable order.
func extraMessages(extra map[string]any) []string {
	keys := make([]string, 0, len(extra))
	for k, v := range extra {
		if s, ok := v.(string); ok && s != "" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		s, _ := extra[k].(string)
		out = append(out, oneLine(k)+": "+oneLine(s))
	}
	return out
}

func retried(n int) string {
	if n == 1 {
		return "retried once"
	}
	return fmt.Sprintf("retried %d times", n)
}

// oneLine folds white space, so that an HTML page or a multi-line title reads as one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// decodeError turns a non-2xx response into an *Error; a body that is not a JSON object is kept
// as a cut, so that a proxy's page still says something.
func decodeError(method, path string, status int, body []byte) *Error {
	e := &Error{Method: method, Path: path, Status: status}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(body, &members); err != nil || members == nil {
		e.Body = cut(body, bodyCut)
		return e
	}
	for k, raw := range members {
		var ok bool
		switch k {
		case "type":
			ok = json.Unmarshal(raw, &e.Type) == nil
		case "title":
			ok = json.Unmarshal(raw, &e.Title) == nil
		case "name":
			ok = json.Unmarshal(raw, &e.Name) == nil
		case "detail":
			ok = json.Unmarshal(raw, &e.Detail) == nil
		case "problems":
			// Apart, since a failed decoding leaves part of the items behind.
			var ps []Problem
			if ok = json.Unmarshal(raw, &ps) == nil; ok {
				e.Problems = ps
			}
		case "status":
			ok = true
		}
		if ok {
			continue
		}
		var v any
		if json.Unmarshal(raw, &v) != nil {
			continue
		}
		if e.Extra == nil {
			e.Extra = map[string]any{}
		}
		e.Extra[k] = v
	}
	return e
}

// cut returns at most n bytes of b as valid UTF-8, dropping a character split by the cut.
func cut(b []byte, n int) string {
	if len(b) <= n {
		return strings.ToValidUTF8(string(b), "")
	}
	return strings.ToValidUTF8(string(b[:n]), "") + "…"
}

// AmbiguousError wraps a write whose outcome is unknown; errors.Is(err, ErrAmbiguous).
type AmbiguousError struct {
	Method, Path string
	Err          error
}

func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("%s %s: the outcome is unknown: the request may have reached the service "+
		"and was not sent again, so check whether it took effect: %v", e.Method, e.Path, e.Err)
}

func (e *AmbiguousError) Unwrap() []error { return []error{ErrAmbiguous, e.Err} }

// DecodeError is a 2xx response the client could not read; errors.Is(err, ErrUndecodable).
// Err is the decoder's error, if any.
type DecodeError struct {
	Method, Path string
	Status       int
	Problem      string
	Hint         string
	Err          error
}

func (e *DecodeError) Error() string {
	msg := fmt.Sprintf("%s %s: %s", e.Method, e.Path, e.Problem)
	switch {
	case e.Hint == "" && e.Err != nil:
		return msg + ": " + e.Err.Error()
	case e.Hint != "":
		msg += "; " + e.Hint
	}
	if e.Err != nil {
		msg += " (" + e.Err.Error() + ")"
	}
	return msg
}

func (e *DecodeError) Is(target error) bool { return target == ErrUndecodable }

func (e *DecodeError) Unwrap() error { return e.Err }

// IDError is an id that the client refuses; errors.Is(err, ErrInvalidID).
type IDError struct {
	Reason string
}

func (e *IDError) Error() string { return "videohost: not an id of the service: " + e.Reason }

func (e *IDError) Is(target error) bool { return target == ErrInvalidID }

// errEmptyID: an empty id would make the path name the list instead of one record.
var errEmptyID = &IDError{Reason: "the id is empty"}

// interruptedError is a call whose context ended before its request was sent, or during a read.
type interruptedError struct {
	method, path string
	during       string // e.g. "while waiting for the writes rate limit, before the request was sent"
	cause        error
}

func (e *interruptedError) Error() string {
	return fmt.Sprintf("%s %s: interrupted %s: %v", e.method, e.path, e.during, e.cause)
}

func (e *interruptedError) Unwrap() []error { return []error{ErrInterrupted, e.cause} }
