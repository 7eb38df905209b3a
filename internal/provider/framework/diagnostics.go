package framework

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// errorFacts is what the advice of a diagnostic may name: where the provider sent the request,
// and the service's response when there was one.
type errorFacts struct {
	environment, baseURL string
	api                  *videohost.Error // nil when the error is not a response of the service
	// decodeHinted is whether the client's account of an unreadable response says what to check.
	decodeHinted bool
}

// errorKinds is the provider's knowledge of the client's errors: for each kind, what happened
// and what to do, in the terms of the configuration. The client sorts every error into its
// kind; the first row whose kind the error is wins, which matters only where one kind implies
// another (an ambiguous write is also the kind of its cause, an interruption is also the
// context's error). An error of no kind could not reach the service.
var errorKinds = []struct {
	kind   error
	advice func(f errorFacts) string
}{
	{videohost.ErrAmbiguous, func(f errorFacts) string {
		return fmt.Sprintf("The service at %s failed while the request may already have been applied, so it was "+
			"not sent again. Check what exists (terraform plan shows it), then re-run.", f.baseURL)
	}},
	{videohost.ErrInterrupted, adviceInterrupted},
	{context.Canceled, adviceReadInterrupted},
	{context.DeadlineExceeded, adviceReadInterrupted},
	{videohost.ErrInvalidID, func(errorFacts) string {
		return "The id cannot be sent to the service: correct it to the id exactly as the service gives it, then re-run."
	}},
	{videohost.ErrUnauthorized, func(f errorFacts) string {
		return fmt.Sprintf("The API key was refused by the %s environment at %s; sandbox and production keys differ. "+
			"Check api_key (or %s) and environment, and that the key was not deleted or regenerated in the dashboard.",
			f.environment, f.baseURL, EnvAPIKey)
	}},
	{videohost.ErrRateLimited, adviceRateLimited},
	{videohost.ErrRedirect, adviceRedirect},
	{videohost.ErrWebhookLimit, func(errorFacts) string {
		return "The account has reached its maximum number of webhooks. Delete a webhook it no longer needs " +
			"(terraform state list and the videohost_webhooks data source show them), or ask for the account's " +
			"limit to be raised, then re-run."
	}},
	{videohost.ErrUnknownEndpoint, adviceUnknownEndpoint},
	{videohost.ErrNotFound, func(f errorFacts) string {
		return fmt.Sprintf("The service at %s has no such object in this workspace: it was deleted, belongs to "+
			"another workspace or environment, or the id is wrong. Check the id, and that api_key and environment "+
			"(%s) are those of the workspace that owns it.", f.baseURL, f.environment)
	}},
	{videohost.ErrInvalidInput, func(errorFacts) string { return adviceRefused }},
	{videohost.ErrServer, func(errorFacts) string {
		return "The service failed (a server error) and the provider's retries did not get through. Re-run later; " +
			"a read or delete is safe to repeat."
	}},
	{videohost.ErrUndecodable, func(f errorFacts) string {
		if f.decodeHinted {
			return "The provider cannot read the service's response."
		}
		return "The provider cannot read the service's response; check that base_url is the address of the API, then re-run."
	}},
}

// adviceRefused is the advice of a refusal that names what to correct: an invalid input, or a
// response of the service of no known kind.
const adviceRefused = "The service refused the request; correct what it names and re-run."

func adviceInterrupted(errorFacts) string {
	return "The operation was cancelled or ran out of time before the service responded. Re-run Terraform when it " +
		"can finish; a request that was not sent changed nothing."
}

// adviceReadInterrupted is the advice of a call whose context ended once it may have been
// sent: creates and deletes settle such an interruption in writes.go, so what ends
// here is a read, which changes nothing on the service.
func adviceReadInterrupted(errorFacts) string {
	return "Terraform was interrupted, or the operation ran out of time, before the service's response arrived. " +
		"A read changes nothing on the service, so re-running Terraform is safe."
}

// adviceRateLimited names the limit and its window as the service's headers told the client;
// before they did, the window is the service's documented one, a minute.
func adviceRateLimited(f errorFacts) string {
	limit := "request rate limit"
	if f.api != nil && f.api.Class != "" {
		limit = f.api.Class + " rate limit"
	}
	if f.api != nil && f.api.Limit > 0 {
		limit += " (" + videohost.RatePer(f.api.Limit, f.api.Window) + ")"
	}
	window := "about a minute on the service"
	if f.api != nil && f.api.Window > 0 {
		window = videohost.Seconds(f.api.Window)
	}
	return fmt.Sprintf("The %s of the %s environment stayed exhausted after every retry (max_retries). Waiting for "+
		"the window to reset (%s) and re-running is safe: Terraform repeats only what did not complete. "+
		"Lowering -parallelism or raising max_retries also helps.", limit, f.environment, window)
}

// adviceUnknownEndpoint names a wrong address, not a missing object: the service said that the
// path the provider built under base_url is none of its endpoints.
func adviceUnknownEndpoint(f errorFacts) string {
	return fmt.Sprintf("The service at %s answered that the address is no endpoint of its API, so base_url is wrong: "+
		"no object or id is involved. Set base_url (or %s) to the address the API answers at, without a path such "+
		"as /v1 (%s or %s, or the emulator's address as it prints it), or unset it to use the environment's, then "+
		"re-run.", f.baseURL, EnvBaseURL, videohost.SandboxURL, videohost.ProductionURL)
}

// adviceRedirect prefers the client's hint, which knows where the redirect pointed and which
// base_url that makes.
func adviceRedirect(f errorFacts) string {
	if f.api != nil && f.api.Hint != "" {
		return strings.TrimSuffix(f.api.Hint, ".") + "."
	}
	return fmt.Sprintf("The service at %s responded with a redirect, which the provider does not follow since it "+
		"would carry the credentials to an address that was not configured. Set base_url to the address the API "+
		"responds at, then re-run.", f.baseURL)
}

// AddAPIErrorDiagnostics turns an error of the client into diagnostics. summary says what
// failed, in Title Case ("Unable to Create Webhook"). attrs maps the API's parameter names, as a
// 400's problems or a 404 name them, to the attributes of the caller's schema: those problems
// become attribute errors on them, and a not-found of a read by id an error on its id.
func AddAPIErrorDiagnostics(diags *diag.Diagnostics, summary string, err error, pd *ProviderData, attrs map[string]path.Path) {
	if err == nil {
		return
	}
	f := errorFacts{environment: "configured", baseURL: "the configured address"}
	if pd != nil {
		f.environment, f.baseURL = pd.Environment, pd.BaseURL
	}
	errors.As(err, &f.api)
	var decodeErr *videohost.DecodeError
	f.decodeHinted = errors.As(err, &decodeErr) && decodeErr.Hint != ""

	for _, k := range errorKinds {
		if !errors.Is(err, k.kind) {
			continue
		}
		detail := k.advice(f) + errorAccount(err, f.api)
		switch {
		case k.kind == videohost.ErrInvalidInput && addInputErrors(diags, summary, detail, f.api, attrs):
		case k.kind == videohost.ErrNotFound && f.api != nil && hasPath(attrs, f.api.Name):
			diags.AddAttributeError(attrs[f.api.Name], summary, detail)
		default:
			diags.AddError(summary, detail)
		}
		return
	}
	if f.api != nil {
		diags.AddError(summary, adviceRefused+apiWords(f.api))
		return
	}
	diags.AddError(summary, fmt.Sprintf("The service at %s could not be reached. Check base_url and the network, "+
		"then re-run. Cause: %s", f.baseURL, err.Error()))
}

// errorAccount is what follows the advice: the service's own words when it responded, or else
// the client's account of the error. An ambiguous write's own message repeats the advice, so its
// cause is given instead.
func errorAccount(err error, api *videohost.Error) string {
	if api != nil {
		return apiWords(api)
	}
	var amb *videohost.AmbiguousError
	if errors.As(err, &amb) && amb.Err != nil {
		err = amb.Err
	}
	return " Cause: " + err.Error()
}

func hasPath(attrs map[string]path.Path, name string) bool {
	_, ok := attrs[name]
	return ok
}

// addInputErrors adds one diagnostic per problem of a 400 that lists them, on its attribute
// when attrs knows it; otherwise detail on the attribute of the parameter the 400 names, or one
// attribute error per message member. It reports whether it added any.
func addInputErrors(diags *diag.Diagnostics, summary, detail string, e *videohost.Error, attrs map[string]path.Path) bool {
	if e == nil {
		return false
	}
	for _, p := range e.Problems {
		detail := fmt.Sprintf("The service rejected the value of %s: correct it and re-run. The API said: %s "+
			"(%s; %s)%s", problemSubject(p.Name, attrs), e.Title, problemText(p), docsLink(p.Type, e.Type), statusNote(e))
		if at, ok := attrs[p.Name]; ok {
			diags.AddAttributeError(at, summary, detail)
		} else {
			diags.AddError(summary, detail)
		}
	}
	if len(e.Problems) > 0 {
		return true
	}
	if at, ok := attrs[e.Name]; ok {
		diags.AddAttributeError(at, summary, detail)
		return true
	}
	// A 400 may name the failing attribute only as a member that holds its message, such as
	// {"events": "This attribute must be an array."}.
	return addExtraAttributeErrors(diags, summary, e, attrs)
}

// addExtraAttributeErrors adds one attribute error per member of a 400 that is named after an
// attribute and holds a message; it reports whether it added any.
func addExtraAttributeErrors(diags *diag.Diagnostics, summary string, e *videohost.Error, attrs map[string]path.Path) bool {
	names := make([]string, 0, len(e.Extra))
	for name := range e.Extra {
		names = append(names, name)
	}
	slices.Sort(names)
	added := false
	for _, name := range names {
		msg, ok := e.Extra[name].(string)
		at, known := attrs[name]
		if !ok || !known || msg == "" {
			continue
		}
		diags.AddAttributeError(at, summary, fmt.Sprintf("The service rejected the value of %s: correct it and "+
			"re-run. The API said: %s (%s)%s", problemSubject(name, attrs), e.Title, msg, docsSuffix(e)))
		added = true
	}
	return added
}

// docsSuffix is the status, the request and the documentation link of an error.
func docsSuffix(e *videohost.Error) string {
	s := statusNote(e)
	if e.Type != "" {
		s += " See " + e.Type + "."
	}
	return s
}

// apiWords is the API's own account of an error, appended to a detail that said what to do.
func apiWords(e *videohost.Error) string {
	var b strings.Builder
	switch {
	case e.Title != "":
		b.WriteString(" The API said: " + e.Title)
	case e.Body != "":
		// Not the API's JSON: a proxy's page, say; its beginning tells whose.
		fmt.Fprintf(&b, " The response is not the API's JSON; it begins %q.", e.Body)
	default:
		b.WriteString(" The response carried no message.")
	}
	if e.Detail != "" && e.Detail != e.Title {
		b.WriteString(" " + e.Detail)
	}
	if e.Name != "" {
		fmt.Fprintf(&b, " (parameter %s)", e.Name)
	}
	b.WriteString(docsSuffix(e))
	return b.String()
}

func statusNote(e *videohost.Error) string {
	if e.Method == "" {
		return fmt.Sprintf(" [status %d]", e.Status)
	}
	return fmt.Sprintf(" [status %d on %s %s]", e.Status, e.Method, e.Path)
}

// problemSubject names what a problem of a 400 concerns: the attribute the API's name maps to,
// in words (a restream's field by its place), or else the API's own name.
func problemSubject(name string, attrs map[string]path.Path) string {
	if at, ok := attrs[name]; ok {
		if words := attrInWords(at); words != name {
			return words + ", which the API names " + name
		}
		return name
	}
	if name == "" {
		return "the request"
	}
	return name
}

func problemText(p videohost.Problem) string {
	if p.Title == "" {
		return "no message"
	}
	return p.Title
}

// docsLink prefers the problem's own documentation link to the error's.
func docsLink(problemType, errorType string) string {
	switch {
	case problemType != "":
		return "see " + problemType
	case errorType != "":
		return "see " + errorType
	}
	return "no documentation link given"
}

// AddAPIWarning is addAPIErrorDiagnostics as warnings, each detail led by lead: for a read that
// failed after a write had succeeded, where the state records what is known and the next
// refresh reads the rest, so that the failure neither fails the apply nor taints the object.
func AddAPIWarning(diags *diag.Diagnostics, summary, lead string, err error, pd *ProviderData) {
	var errs diag.Diagnostics
	AddAPIErrorDiagnostics(&errs, summary, err, pd, nil)
	for _, d := range errs {
		diags.AddWarning(d.Summary(), lead+" "+d.Detail())
	}
}
