package videohost

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
)

var (
	_ error = (*Error)(nil)
	_ error = (*AmbiguousError)(nil)
)

// bodyCut is how much of a body that is not JSON an Error keeps: enough to recognise a proxy's
// error page, not enough to flood a diagnostic.
const bodyCut = 200

// Error is every non-2xx answer of the service.
type Error struct {
	Method   string // request method, e.g. POST
	Path     string // request path, e.g. /webhooks
	Status   int
	Type     string // {docs_url}/<slug>
	Title    string
	Name     string
	Detail   string
	Problems []Problem
	Extra    map[string]any // members not listed above
	Body     string         // a cut of a body that was not JSON
	// Class is the rate-limit class (reads or writes) of a 429.
	Class string

	// limit is the learned per-minute limit of Class, for the message of a final 429.
	limit int
	// retries is how many times the call was retried before this answer.
	retries int
	// hint tells the user what to do, e.g. which key to check after a 401.
	hint string
}

// Problem is one item of a 400's problems.
type Problem struct {
	Type  string `json:"type"`
	Title string `json:"title"`
	Name  string `json:"name"`
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %d ", e.Method, e.Path, e.Status)
	title := e.Title
	if title == "" {
		title = http.StatusText(e.Status)
	}
	if title == "" {
		title = "unexpected status"
	}
	b.WriteString(oneLine(title))
	if e.Detail != "" {
		b.WriteString(" " + oneLine(e.Detail))
	}

	var parts []string
	switch {
	case len(e.Problems) > 0:
		ps := make([]string, 0, len(e.Problems))
		for _, p := range e.Problems {
			name := oneLine(p.Name)
			if name == "" {
				ps = append(ps, oneLine(p.Title))
				continue
			}
			ps = append(ps, name+": "+oneLine(p.Title))
		}
		parts = append(parts, strings.Join(ps, "; "))
	case oneLine(e.Name) != "":
		parts = append(parts, "parameter: "+oneLine(e.Name))
	}
	if len(e.Problems) == 0 {
		parts = append(parts, extraMessages(e.Extra)...)
	}
	if e.Status == http.StatusTooManyRequests && e.Class != "" {
		if e.limit > 0 {
			parts = append(parts, fmt.Sprintf("%s limit: %d per minute", e.Class, e.limit))
		} else {
			parts = append(parts, e.Class+" limit")
		}
	}
	if e.retries > 0 {
		parts = append(parts, retried(e.retries))
	}
	if len(parts) > 0 {
		b.WriteString(" (" + strings.Join(parts, "; ") + ")")
	}
	if e.Body != "" {
		b.WriteString(": " + oneLine(e.Body))
	}
	if e.hint != "" {
		// The hint is a sentence of its own.
		if !strings.HasSuffix(b.String(), ".") {
			b.WriteString(".")
		}
		b.WriteString(" " + e.hint)
	}
	return b.String()
}

// Is makes errors.Is(err, ErrNotFound) and its siblings work on the status.
func (e *Error) Is(target error) bool {
	switch target {
	case ErrNotFound:
		return e.Status == http.StatusNotFound
	case ErrUnauthorized:
		return e.Status == http.StatusUnauthorized
	case ErrRateLimited:
		return e.Status == http.StatusTooManyRequests
	}
	return false
}

// extraMessages renders the string members of a body that carry an attribute's message, such
// as {"events": "This attribute must be an array."}, in a stable order.
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

// retried says how often a call was retried.
func retried(n int) string {
	if n == 1 {
		return "retried once"
	}
	return fmt.Sprintf("retried %d times", n)
}

// oneLine folds every run of white space into one space, so that an HTML page or a multi-line
// title still reads as one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// decodeError turns a non-2xx answer into an *Error. A body that is not a JSON object is kept
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
			// Decoded apart, since a failed decoding leaves a part of the items behind: the
			// member is then in Extra only.
			var ps []Problem
			if ok = json.Unmarshal(raw, &ps) == nil; ok {
				e.Problems = ps
			}
		case "status":
			// The status line is the truth; the member only repeats it.
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

// cut returns at most n bytes of b as valid UTF-8; a character split by the cut, or any other
// invalid byte, is dropped rather than shown as garbage.
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

// Unwrap exposes both ErrAmbiguous and the cause, e.g. the *Error of a 500.
func (e *AmbiguousError) Unwrap() []error { return []error{ErrAmbiguous, e.Err} }
