package contract

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
)

// Side says which half of an exchange deviates.
type Side string

// The two sides of an exchange.
const (
	Request Side = "request"
	Answer  Side = "answer"
)

// Deviation is one way in which an exchange breaks the document.
type Deviation struct {
	Operation Operation
	Side      Side
	Status    int    // the answer's status (0 for a request that was not answered)
	Member    string // a JSON pointer into the body, or the parameter or header that deviates
	Rule      string // the rule of the document that it breaks, in the validator's words
}

func (d Deviation) String() string {
	side := fmt.Sprintf("answer %d", d.Status)
	if d.Side == Request {
		side = fmt.Sprintf("request (answered %d)", d.Status)
	}
	return fmt.Sprintf("%s (%s %s), %s, member %s: %s",
		d.Operation.ID, d.Operation.Method, d.Operation.Path, side, d.Member, d.Rule)
}

// NoOperation stands for the operation of a request whose method and path the document lacks.
const NoOperation = "(no operation)"

// Exchange is one request and its answer, with both bodies read whole.
type Exchange struct {
	Request     *http.Request
	RequestBody []byte
	Status      int
	Header      http.Header
	Body        []byte
	// BodiesTooLarge is set when a body was not kept whole (an upload above the size the
	// checker keeps); the bodies are then not checked, the rest is.
	BodiesTooLarge bool
}

// Verdict is what the check of one exchange found.
type Verdict struct {
	Operation Operation
	// Matched is false when no operation of the document has the exchange's method and path.
	Matched bool
	// Undocumented is true when the document lists no answer of this status for the operation
	// (and no default): the answer is not checked, and the written contract rules there.
	Undocumented bool
	Deviations   []Deviation
}

// check validates an exchange against the document.
func (d *Document) check(ex Exchange) Verdict {
	ctx := context.Background()
	req := ex.Request.Clone(ctx)
	req.Body = io.NopCloser(bytes.NewReader(ex.RequestBody))
	route, params, err := d.router.FindRoute(req)
	if err != nil {
		op := Operation{ID: NoOperation, Method: req.Method, Path: req.URL.Path}
		if ex.Status == http.StatusNotFound || ex.Status == http.StatusMethodNotAllowed {
			// Neither side knows it: a base address with a wrong path, say. Reported, not failed.
			return Verdict{Operation: op, Undocumented: true}
		}
		return Verdict{Operation: op, Deviations: []Deviation{{Operation: op, Side: Request, Status: ex.Status,
			Member: "method and path", Rule: "no operation of the document has this method and path, and it was served"}}}
	}
	op := Operation{ID: route.Operation.OperationID, Method: route.Method, Path: route.Path}
	v := Verdict{Operation: op, Matched: true}
	opts := &openapi3filter.Options{
		MultiError:         true,
		AuthenticationFunc: openapi3filter.NoopAuthenticationFunc,
		ExcludeRequestBody: ex.BodiesTooLarge,
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: opts}
	if err := openapi3filter.ValidateRequest(ctx, in); err != nil {
		v.Deviations = append(v.Deviations, deviations(op, Request, ex.Status, err)...)
	}
	if ex.Status == 0 {
		// No answer: the connection was cut. Only the request is checked.
		v.Undocumented = true
		return v
	}
	if !documented(route, ex.Status) {
		v.Undocumented = true
		return v
	}
	respOpts := *opts
	respOpts.ExcludeResponseBody = ex.BodiesTooLarge
	resp := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: ex.Status,
		Header: ex.Header, Body: io.NopCloser(bytes.NewReader(ex.Body)), Options: &respOpts}
	if err := openapi3filter.ValidateResponse(ctx, resp); err != nil {
		v.Deviations = append(v.Deviations, deviations(op, Answer, ex.Status, err)...)
	}
	return v
}

// documented reports whether the operation lists an answer of status, or a default one.
func documented(route *routers.Route, status int) bool {
	rs := route.Operation.Responses
	return rs.Status(status) != nil || rs.Default() != nil
}

// deviations flattens the validator's error tree into one deviation per broken rule.
func deviations(op Operation, side Side, status int, err error) []Deviation {
	var out []Deviation
	add := func(member, rule string) {
		out = append(out, Deviation{Operation: op, Side: side, Status: status, Member: member, Rule: rule})
	}
	var walk func(prefix string, err error)
	walk = func(prefix string, err error) {
		switch e := err.(type) {
		case openapi3.MultiError:
			for _, one := range e {
				walk(prefix, one)
			}
		case *openapi3filter.RequestError:
			walkRequestError(e, walk, add)
		case *openapi3filter.ResponseError:
			if e.Err == nil {
				add(prefix+strings.TrimSpace(memberOfReason(e.Reason)), e.Reason)
				return
			}
			walk(prefix+memberOfReason(e.Reason), e.Err)
		case *openapi3.SchemaError:
			add(prefix+pointer(e.JSONPointer()), schemaRule(e))
		default:
			if inner := errors.Unwrap(err); inner != nil {
				walk(prefix, inner)
				return
			}
			add(strings.TrimSpace(prefix), err.Error())
		}
	}
	walk("", err)
	return out
}

// walkRequestError names the member of a request's error: a parameter, or the body.
func walkRequestError(e *openapi3filter.RequestError, walk func(string, error), add func(string, string)) {
	prefix := ""
	switch {
	case e.Parameter != nil:
		prefix = e.Parameter.In + " " + e.Parameter.Name + " "
	case e.RequestBody != nil:
		prefix = "body "
	}
	if e.Err == nil {
		add(strings.TrimSpace(prefix), e.Reason)
		return
	}
	switch e.Err.(type) {
	case *openapi3.SchemaError, openapi3.MultiError:
		walk(prefix, e.Err)
	default:
		add(strings.TrimSpace(prefix), e.Error())
	}
}

// memberOfReason names the member of an answer's error that is not in its body: a header.
func memberOfReason(reason string) string {
	if _, rest, ok := strings.Cut(reason, "header \""); ok {
		if name, _, ok := strings.Cut(rest, "\""); ok {
			return "header " + name + " "
		}
	}
	return "body "
}

func pointer(path []string) string {
	if len(path) == 0 {
		return "/"
	}
	esc := make([]string, len(path))
	for i, p := range path {
		esc[i] = strings.ReplaceAll(strings.ReplaceAll(p, "~", "~0"), "/", "~1")
	}
	return "/" + strings.Join(esc, "/")
}

func schemaRule(e *openapi3.SchemaError) string {
	if e.SchemaField == "" {
		return e.Reason
	}
	return e.SchemaField + ": " + e.Reason
}
