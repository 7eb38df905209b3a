package provider

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

// addAPIErrorDiagnostics turns an error of the client into diagnostics. summary says what
// failed, in Title Case ("Unable to Create Webhook"). attrs maps the API's parameter names, as a
// 400's problems name them, to the attributes of the caller's schema: those problems become
// attribute errors on them.
func addAPIErrorDiagnostics(diags *diag.Diagnostics, summary string, err error, pd *providerData, attrs map[string]path.Path) {
	if err == nil {
		return
	}
	environment, baseURL := "configured", "the configured address"
	if pd != nil {
		environment, baseURL = pd.environment, pd.baseURL
	}

	var apiErr *videohost.Error
	isAPIErr := errors.As(err, &apiErr)
	switch {
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		// Creates and deletes settle an interruption in resource_writes.go; what ends here is a
		// read, which changes nothing on the service.
		diags.AddError(summary, "Terraform was interrupted, or the operation ran out of time, before the service's "+
			"response arrived. A read changes nothing on the service, so re-running Terraform is safe. Cause: "+err.Error())
		return

	case errors.Is(err, videohost.ErrInvalidID):
		diags.AddError(summary, "The id cannot be sent to the service: correct it to the id exactly as the service "+
			"gives it, then re-run. Cause: "+err.Error())
		return

	case errors.Is(err, videohost.ErrAmbiguous):
		diags.AddError(summary, fmt.Sprintf("The service at %s failed while the request may already have been "+
			"applied, so it was not sent again. Check the service (terraform plan shows what exists), then re-run. "+
			"Cause: %s", baseURL, err.Error()))
		return

	case !isAPIErr:
		diags.AddError(summary, fmt.Sprintf("The service at %s could not be reached or gave an answer the provider "+
			"cannot read. Check base_url and the network, then re-run. Cause: %s", baseURL, err.Error()))
		return

	case errors.Is(err, videohost.ErrUnauthorized):
		diags.AddError(summary, fmt.Sprintf("The API key was refused by the %s environment at %s; sandbox and "+
			"production keys differ. Check api_key (or %s) and environment, and that the key was not deleted or "+
			"regenerated in the dashboard.%s", environment, baseURL, envAPIKey, apiWords(apiErr)))
		return

	case errors.Is(err, videohost.ErrRateLimited):
		class := apiErr.Class
		if class == "" {
			class = "request"
		}
		diags.AddError(summary, fmt.Sprintf("The %s rate limit of the %s environment stayed exhausted after every "+
			"retry (max_retries). Waiting for the window to reset (about a minute) and re-running is safe: Terraform "+
			"repeats only what did not complete. Lowering -parallelism or raising max_retries also helps.%s (%s)",
			class, environment, apiWords(apiErr), err.Error()))
		return

	case apiErr.Status >= 300 && apiErr.Status < 400:
		// The client's message names where the redirect pointed and the base_url to set.
		diags.AddError(summary, fmt.Sprintf("The service at %s answered with a redirect, which the provider does not "+
			"follow since it would carry the credentials to an address that was not configured. Set base_url to the "+
			"address the API answers at, then re-run. Cause: %s", baseURL, err.Error()))
		return

	case isWebhookLimit(apiErr):
		diags.AddError(summary, "The account has reached its maximum number of webhooks. Delete a webhook it no "+
			"longer needs (terraform state list and the videohost_webhooks data source show them), or ask for the "+
			"account's limit to be raised, then re-run."+apiWords(apiErr))
		return

	case errors.Is(err, videohost.ErrNotFound):
		diags.AddError(summary, fmt.Sprintf("The service at %s has no such object in this workspace: it was deleted, "+
			"belongs to another project or environment, or the id is wrong. Check the id.%s", baseURL, apiWords(apiErr)))
		return
	}

	if len(apiErr.Problems) > 0 {
		for _, p := range apiErr.Problems {
			detail := fmt.Sprintf("The service rejected the value of %s: correct it and re-run. The API said: %s "+
				"(%s; %s)%s", problemSubject(p.Name), apiErr.Title, problemText(p), docsLink(p.Type, apiErr.Type), statusNote(apiErr))
			if at, ok := attrs[p.Name]; ok {
				diags.AddAttributeError(at, summary, detail)
			} else {
				diags.AddError(summary, detail)
			}
		}
		return
	}

	detail := "The service refused the request; correct what it names and re-run." + apiWords(apiErr)
	if apiErr.Status >= 500 {
		detail = "The service failed (a server error) and the provider's retries did not get through. Re-run later; " +
			"a read or delete is safe to repeat." + apiWords(apiErr)
	}
	if apiErr.Status == 400 {
		if at, ok := attrs[apiErr.Name]; ok {
			diags.AddAttributeError(at, summary, detail)
			return
		}
		// A 400 may name the failing attribute only as a member that holds its message, such
		// as {"events": "This attribute must be an array."}.
		if added := addExtraAttributeErrors(diags, summary, apiErr, attrs); added {
			return
		}
	}
	diags.AddError(summary, detail)
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
			"re-run. The API said: %s (%s)%s", name, e.Title, msg, docsSuffix(e)))
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

// isWebhookLimit recognises the 400 of a workspace that has as many webhooks as it may have.
// The service gives no slug of its own for it, only its words.
func isWebhookLimit(e *videohost.Error) bool {
	t := strings.ToLower(e.Title + " " + e.Detail)
	return e.Status == 400 && strings.Contains(t, "webhook") && strings.Contains(t, "limit")
}

// apiWords is the API's own account of an error, appended to a detail that said what to do.
func apiWords(e *videohost.Error) string {
	var b strings.Builder
	b.WriteString(" The API said: ")
	title := e.Title
	switch {
	case title == "" && e.Body != "":
		// Not the API's JSON: a proxy's page, say; its beginning tells whose.
		title = fmt.Sprintf("(an answer that is not the API's JSON, beginning %q)", e.Body)
	case title == "":
		title = "(no title)"
	}
	b.WriteString(title)
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

func problemSubject(name string) string {
	if name == "" {
		return "the request"
	}
	return name
}

func problemText(p videohost.Problem) string {
	if p.Title == "" {
		return "no further words"
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
