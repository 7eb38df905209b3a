package provider

import (
	"context"
	"errors"
	"fmt"
	"net/url"

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

// baseURLValidator accepts what the client accepts as its address (videohost.CheckBaseURL): an
// absolute http or https URL with a host, and without user information, query or fragment.
// Checking here makes terraform validate report what the client would refuse only when the
// provider is configured.
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
	if why := baseURLProblem(req.ConfigValue.ValueString()); why != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid URL", fmt.Sprintf("%s %s.", req.Path, why))
	}
}

// baseURLProblem is why the client refuses raw as its address, saying what to do, or "". It
// never repeats user information: that is where a key pasted into the address would be.
func baseURLProblem(raw string) string {
	err := videohost.CheckBaseURL(raw)
	var cfgErr *videohost.ConfigError
	if errors.As(err, &cfgErr) {
		return cfgErr.Problem
	}
	if err != nil {
		return err.Error()
	}
	return ""
}

// idProblem is why the client refuses id as the id of a record of the service, or "".
func idProblem(id string) string {
	err := videohost.CheckID(id)
	var idErr *videohost.IDError
	if errors.As(err, &idErr) {
		return idErr.Reason
	}
	if err != nil {
		return err.Error()
	}
	return ""
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

// serviceIDValidator refuses a value that the client would refuse as the id of a record of
// the service (videohost.CheckID). An empty value is left to stringvalidator.LengthAtLeast.
// what names the id for the message, e.g. "a webhook (its webhookId)".
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
	if why := idProblem(req.ConfigValue.ValueString()); why != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid ID",
			fmt.Sprintf("Set %s to the id of %s as the %s data source lists it: %s.", req.Path, v.what, v.listedBy, why))
	}
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
