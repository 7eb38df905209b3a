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
	slugInvalidAttributes    = "invalid-attributes"
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

// Titles and details of the live stream and player theme endpoints' 400s, as the service
// gives them: a title that names the kind of problem and a detail that says what is wrong
// with the attribute.
const (
	titleAttributeInvalid  = "An attribute is invalid."
	titleInvalidAttributes = "Invalid attributes."

	detailNotBlank         = "This value should not be blank."
	detailNotNull          = "This value should not be null."
	detailMissingApp       = "Missing app name: [rtmp|rtmps]://[host]/[app name]."
	detailRTMPFormat       = "RTMP URL should have the following format: [rtmp|rtmps]://[host]/[app name]."
	detailTooManyRestreams = "This collection should contain 5 elements or less."
	detailNameTooLong      = "This value is too long. It should have 100 characters or less."
	detailNotAColour       = "This value is not a valid colour: it should be rgba(R, G, B, A) with R, G and B integers from 0 to 255 and A a decimal from 0 to 1."
	detailNameRequired     = "A live stream needs a name."
	detailUnknownAttribute = "This field was not expected."
)

// problem is one failing attribute of a 400. Detail is set by the live stream and player theme
// endpoints only, whose 400s say what is wrong beside the title.
type problem struct {
	Type   string `json:"type"`
	Title  string `json:"title"`
	Name   string `json:"name"`
	Detail string `json:"detail,omitempty"`
}

// apiError is the service's error object. Attributes holds the extra members named after the
// failing attributes, each with its message, that a 400 body may carry.
type apiError struct {
	Type       string
	Title      string
	Status     int
	Detail     string
	Name       string
	Problems   []problem
	Attributes map[string]string
}

// reservedMembers are the error object's own members; an attribute of the same name does not
// get a member of its own, so that it cannot overwrite them.
var reservedMembers = map[string]bool{"type": true, "title": true, "status": true, "detail": true, "name": true, "problems": true}

// MarshalJSON writes the error object's own members and one member per failing attribute (in
// the order encoding/json gives map keys: sorted).
func (a apiError) MarshalJSON() ([]byte, error) {
	m := map[string]any{"type": a.Type, "title": a.Title, "status": a.Status}
	if a.Detail != "" {
		m["detail"] = a.Detail
	}
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

// fieldError builds the 400 of the live stream and player theme endpoints: the first problem
// gives the body's type, title, detail and name, as the contract's tables show them; problems
// lists every problem only when there is more than one, so that a single problem is said once.
func (e *Emulator) fieldError(problems ...problem) apiError {
	first := problems[0]
	a := apiError{Type: first.Type, Title: first.Title, Status: http.StatusBadRequest, Detail: first.Detail, Name: first.Name}
	if len(problems) > 1 {
		a.Problems = problems
	}
	return a
}

// fieldInvalid is an invalid-attribute problem of the live stream and player theme endpoints.
func (e *Emulator) fieldInvalid(name, detail string) problem {
	return problem{Type: e.docLink(slugInvalidAttribute), Title: titleAttributeInvalid, Name: name, Detail: detail}
}

// fieldUnknown is the problem of a member that the live stream or player theme does not have.
func (e *Emulator) fieldUnknown(name string) problem {
	return problem{Type: e.docLink(slugInvalidAttributes), Title: titleInvalidAttributes, Name: name, Detail: detailUnknownAttribute}
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
