package provider

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/videohost/terraform-provider-videohost/internal/events"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

var (
	_ validator.String = httpURLValidator{}
	_ validator.String = baseURLValidator{}
	_ validator.String = serviceIDValidator{}
)

// httpURLValidator accepts an absolute http or https URL with a host. The service takes
// "any http or https URL" for a webhook, and the provider's base_url must be one too; checking
// at plan time saves a round trip that would fail at apply.
type httpURLValidator struct{}

func (httpURLValidator) Description(context.Context) string {
	return "value must be an absolute http or https URL"
}

func (v httpURLValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (httpURLValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if msg := checkHTTPURL(req.ConfigValue.ValueString()); msg != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid URL",
			fmt.Sprintf("Set %s to an absolute http or https URL, such as https://example.com/hook: %s.", req.Path, msg))
	}
}

// checkHTTPURL returns why s is not an absolute http or https URL, or "" when it is one.
func checkHTTPURL(s string) string {
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return fmt.Sprintf("%q does not parse as a URL", s)
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Sprintf("%q has the scheme %q, not http or https", s, u.Scheme)
	case u.Host == "" || u.Hostname() == "":
		return fmt.Sprintf("%q has no host", s)
	}
	return ""
}

// baseURLValidator accepts what the client accepts as its address: an absolute http or https
// URL with a host, and without user information, query or fragment. Checking here makes
// terraform validate report what the client would refuse only when the provider is configured.
type baseURLValidator struct{}

func (baseURLValidator) Description(context.Context) string {
	return "value must be an absolute http or https URL without user information, query or fragment"
}

func (v baseURLValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (baseURLValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if msg := checkBaseURL(req.ConfigValue.ValueString()); msg != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid URL",
			fmt.Sprintf("Set %s to the absolute http or https address of the API, such as %s: %s.",
				req.Path, videohost.SandboxURL, msg))
	}
}

// checkBaseURL returns why s cannot be the address of the API, or "" when it can. User
// information is never repeated: it is where a key pasted into the URL would be.
func checkBaseURL(s string) string {
	u, err := url.Parse(s)
	if err == nil && u.User != nil {
		return fmt.Sprintf("%q carries user information before the host; remove it (the key belongs in api_key "+
			"or %s)", redactUserInfo(u), envAPIKey)
	}
	if msg := checkHTTPURL(s); msg != "" {
		return msg
	}
	if u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
		return fmt.Sprintf("%q carries a query or a fragment; remove it, the provider adds the paths and queries of the API", s)
	}
	return ""
}

// redactUserInfo is u with its user information replaced by a mark.
func redactUserInfo(u *url.URL) string {
	cp := *u
	cp.User = url.User("REDACTED")
	return cp.String()
}

// serviceIDValidators are the checks of a data source's id: an empty id would address the list
// instead of one record, and a slash or a dot step another endpoint, so both are refused when
// the configuration is validated. what names the id for the message ("a video (its
// videoId)"); listedBy is the data source that lists such ids.
func serviceIDValidators(what, listedBy string) []validator.String {
	return []validator.String{
		stringvalidator.LengthAtLeast(1),
		serviceIDValidator{what: what, listedBy: listedBy},
	}
}

// serviceIDValidator refuses a value that cannot be the id of a record of the service (see
// checkServiceID). An empty value is left to stringvalidator.LengthAtLeast. what names the id
// for the message, e.g. "a webhook (its webhookId)".
type serviceIDValidator struct {
	what, listedBy string
}

func (v serviceIDValidator) Description(context.Context) string {
	return "value must be the id of " + v.what + " as the service gives it"
}

func (v serviceIDValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v serviceIDValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() || req.ConfigValue.ValueString() == "" {
		return
	}
	if why := checkServiceID(req.ConfigValue.ValueString()); why != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid ID",
			fmt.Sprintf("Set %s to the id of %s exactly as the service gives it (the %s data source lists them): %s.",
				req.Path, v.what, v.listedBy, why))
	}
}

// checkServiceID returns why id cannot be the id of a record of the service, or "" when it
// can. The specification gives no format, so this refuses only what no id has and what would
// change the endpoint a path names: the client escapes every id into one path segment, but a
// slash, a backslash or a "." or ".." step is refused here, at plan time, with a message, rather
// than sent. Other characters, Unicode included, are escaped and left to the service (a 404).
func checkServiceID(id string) string {
	switch {
	case id == "":
		return "the id is empty"
	case id == "." || id == "..":
		return fmt.Sprintf("%q is a step of a path, not an id", id)
	case strings.ContainsAny(id, `/\`):
		return fmt.Sprintf("%q holds a slash or a backslash, which no id of the service has", id)
	case !utf8.ValidString(id):
		return fmt.Sprintf("%q is not valid UTF-8", id)
	case strings.IndexFunc(id, unicode.IsControl) >= 0:
		return fmt.Sprintf("%q holds a control character, such as a line break", id)
	case strings.TrimSpace(id) != id:
		return fmt.Sprintf("%q starts or ends with white space; remove it", id)
	}
	return ""
}

// eventNameValidator accepts one of the six event names of the service.
func eventNameValidator() validator.String {
	return stringvalidator.OneOf(events.Names()...)
}

// eventSetValidators are the checks of a set of event names: at least one, each one known.
func eventSetValidators() []validator.Set {
	return []validator.Set{
		setvalidator.SizeAtLeast(1),
		setvalidator.ValueStringsAre(eventNameValidator()),
	}
}
