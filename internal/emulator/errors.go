package emulator

import (
	"bytes"
	"encoding/json"
	"net/http"
)

// Slugs of the error documentation links ({docs_url}/<slug>). The specification names
// attribute-required, invalid-attribute, resource-not-found and too-many-requests; the others
// are the emulator's choice for statuses whose slug the specification does not show.
const (
	slugAttributeRequired    = "attribute-required"
	slugInvalidAttribute     = "invalid-attribute"
	slugInvalidPayload       = "invalid-payload"
	slugWebhookLimit         = "webhook-limit-reached"
	slugNotFound             = "resource-not-found"
	slugUnrecognizedURL      = "unrecognized-request-url"
	slugMethodNotAllowed     = "method-not-allowed"
	slugTooManyRequests      = "too-many-requests"
	slugServerError          = "server-error"
	slugAuthenticationFailed = "authentication-failed"
)

// Titles that the specification gives word for word.
const (
	titleRequired         = "This attribute is required."
	titleMustBeArray      = "This attribute must be an array."
	titleInvalidPayload   = "The payload is invalid."
	titleWebhookLimit     = "Your account has reached the webhook urls limit."
	titleNotFound         = "The requested resource could not be found."
	titleUnrecognizedURL  = "Unrecognized request URL."
	titleMethodNotAllowed = "Method is not allowed for this route."
	titleTooManyRequests  = "Too many requests."
	titleServerError      = "Server error"
)

// problem is one failing attribute of a 400.
type problem struct {
	Type  string `json:"type"`
	Title string `json:"title"`
	Name  string `json:"name"`
}

// apiError is the service's error object. Attributes holds the extra members named after the
// failing attributes, each with its message, that a 400 body may carry.
type apiError struct {
	Type       string
	Title      string
	Status     int
	Name       string
	Problems   []problem
	Attributes map[string]string
}

// reservedMembers are the error object's own members; an attribute of the same name does not
// get a member of its own, so that it cannot overwrite them.
var reservedMembers = map[string]bool{"type": true, "title": true, "status": true, "name": true, "problems": true}

// MarshalJSON writes the error object's own members and one member per failing attribute (in
// the order encoding/json gives map keys: sorted).
func (a apiError) MarshalJSON() ([]byte, error) {
	m := map[string]any{"type": a.Type, "title": a.Title, "status": a.Status}
	if a.Name != "" {
		m["name"] = a.Name
	}
	if len(a.Problems) > 0 {
		m["problems"] = a.Problems
	}
	for k, v := range a.Attributes {
		if !reservedMembers[k] {
			m[k] = v
		}
	}
	return json.Marshal(m)
}

func (e *Emulator) docLink(slug string) string { return e.opts.DocsURL + "/" + slug }

func (e *Emulator) newError(status int, slug, title string) apiError {
	return apiError{Type: e.docLink(slug), Title: title, Status: status}
}

// attributeError builds the 400 for one or more failing attributes: the first problem gives the
// body's type, title and name, every problem is an item of problems, and each attribute also
// gets a member with its message.
func (e *Emulator) attributeError(problems ...problem) apiError {
	first := problems[0]
	a := apiError{Type: first.Type, Title: first.Title, Status: http.StatusBadRequest, Name: first.Name, Problems: problems, Attributes: map[string]string{}}
	for _, p := range problems {
		if _, seen := a.Attributes[p.Name]; !seen {
			a.Attributes[p.Name] = p.Title
		}
	}
	return a
}

func (e *Emulator) required(name string) problem {
	return problem{Type: e.docLink(slugAttributeRequired), Title: titleRequired, Name: name}
}

func (e *Emulator) invalid(name, title string) problem {
	return problem{Type: e.docLink(slugInvalidAttribute), Title: title, Name: name}
}

func (e *Emulator) notFound(name string) apiError {
	a := e.newError(http.StatusNotFound, slugNotFound, titleNotFound)
	a.Name = name
	return a
}

func (e *Emulator) invalidPayload() apiError {
	return e.newError(http.StatusBadRequest, slugInvalidPayload, titleInvalidPayload)
}

func (e *Emulator) serverError() apiError {
	return e.newError(http.StatusInternalServerError, slugServerError, titleServerError)
}

func (e *Emulator) tooManyRequests() apiError {
	return e.newError(http.StatusTooManyRequests, slugTooManyRequests, titleTooManyRequests)
}

func writeError(w http.ResponseWriter, a apiError) {
	writeJSON(w, a.Status, a)
}

// writeJSON answers with v as JSON. The body is marshalled before the header is written so a
// marshalling failure can still become a 500.
// HTML escaping is off: the bodies are JSON for API clients, and links carry & literally.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"title":"Server error","status":500}` + "\n")
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}
