package provider

import (
	"context"
	"fmt"
	"net/url"

	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/videohost/terraform-provider-videohost/internal/videohost/events"
)

var _ validator.String = httpURLValidator{}

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
