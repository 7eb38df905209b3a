package framework

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/videohost/terraform-provider-videohost/internal/events"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// StringCheck is a validator of strings made of a check that says why a value is refused: each
// validator of the provider is one, so that all of them skip unknown and null values alike and
// put their message on the attribute. Each is checked at plan time, so that what the service or
// the client would refuse at apply is a message on the attribute before any request.
type StringCheck struct {
	// description says what the value must be.
	Desc string
	// Summary titles the diagnostic.
	Summary string
	// onItem puts the diagnostic on the list item that holds the attribute rather than on the
	// attribute. Terraform before 1.15 and OpenTofu resolve restreams[1].name to the resource's
	// own top-level name and highlight that line; they highlight the item's line correctly.
	onItem bool
	// Check is why s is refused, or "" when it is accepted.
	Check func(s string) string
	// Detail is the diagnostic's text: what to set at subject (the attribute in words, see
	// attrInWords), and why the value was refused.
	Detail func(subject, why string) string
}

var _ validator.String = StringCheck{}

func (c StringCheck) Description(context.Context) string { return c.Desc }

func (c StringCheck) MarkdownDescription(ctx context.Context) string { return c.Description(ctx) }

func (c StringCheck) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if why := c.Check(req.ConfigValue.ValueString()); why != "" {
		at := req.Path
		if c.onItem {
			at = at.ParentPath()
		}
		resp.Diagnostics.AddAttributeError(at, c.Summary, c.Detail(attrInWords(req.Path), why))
	}
}

// attrInWords names the attribute at p for a message: its path as Terraform writes it, and for
// an attribute of an item of a list, which item in words, since Terraform cannot always point
// at the item's line (before 1.15 it shows the resource's first line, or a top-level attribute
// of the same name): "restreams[1].server_url (the server_url of restream 2 of restreams)".
func attrInWords(p path.Path) string {
	steps := p.Steps()
	for k := len(steps) - 1; k > 0; k-- {
		idx, ok := steps[k].(path.PathStepElementKeyInt)
		if !ok {
			continue
		}
		list, ok := steps[k-1].(path.PathStepAttributeName)
		if !ok {
			break
		}
		item := fmt.Sprintf("%s %d of %s", strings.TrimSuffix(string(list), "s"), int64(idx)+1, string(list))
		if k == len(steps)-1 {
			return fmt.Sprintf("%s (%s)", p, item)
		}
		if leaf, ok := steps[len(steps)-1].(path.PathStepAttributeName); ok {
			return fmt.Sprintf("%s (the %s of %s)", p, string(leaf), item)
		}
		return fmt.Sprintf("%s (in %s)", p, item)
	}
	return p.String()
}

// NotBlankOnItem is notBlank for an attribute of a list item whose name is also a top-level
// attribute of the resource (a restream's name): see stringCheck.onItem.
func NotBlankOnItem() validator.String {
	c := blankCheck()
	c.onItem = true
	return c
}

// NotBlank refuses a value of white space only, which the service takes as blank.
func NotBlank() validator.String { return blankCheck() }

// blankCheck is the check of notBlank. It never repeats the value, which may be a key.
func blankCheck() StringCheck {
	return StringCheck{
		Desc:    "value must not be empty or white space only",
		Summary: "Blank Value",
		Check: func(s string) string {
			if NonBlank.MatchString(s) {
				return ""
			}
			if s == "" {
				return "it is empty"
			}
			return "it holds only white space"
		},
		Detail: func(subject, why string) string {
			return fmt.Sprintf("Set %s to a value that is not empty or white space only, or remove it where it is "+
				"optional: %s.", subject, why)
		},
	}
}

// HttpURLValidator accepts an absolute http or https URL with a host: the service takes "any
// http or https URL" for a webhook.
func HttpURLValidator() validator.String {
	return StringCheck{
		Desc:    "value must be an absolute http or https URL",
		Summary: "Invalid URL",
		Check:   checkHTTPURL,
		Detail: func(p, why string) string {
			return fmt.Sprintf("Set %s to an absolute http or https URL, such as https://example.com/hook: %s.", p, why)
		},
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

// BaseURLValidator accepts what the client accepts as its address (videohost.CheckBaseURL): an
// absolute http or https URL with a host, and without user information, query or fragment.
// terraform validate then reports what the client would refuse only when the provider is
// configured.
func BaseURLValidator() validator.String {
	return StringCheck{
		Desc:    "value must be an absolute http or https URL without user information, query or fragment",
		Summary: "Invalid URL",
		Check:   BaseURLProblem,
		Detail:  func(p, why string) string { return fmt.Sprintf("%s %s.", p, why) },
	}
}

// BaseURLProblem is why the client refuses raw as its address, saying what to do, or "". It
// never repeats user information: that is where a key pasted into the address would be.
func BaseURLProblem(raw string) string {
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

// IdProblem is why the client refuses id as the id of a record of the service, or "".
func IdProblem(id string) string {
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

// ServiceIDValidators are the checks of a data source's id: an empty id would address the list
// instead of one record, and a slash or a dot step another endpoint (videohost.CheckID), so
// both are refused when the configuration is validated. what names the id for the message ("a
// video (its videoId)"); listedBy is the data source that lists such ids.
func ServiceIDValidators(what, listedBy string) []validator.String {
	return []validator.String{
		stringvalidator.LengthAtLeast(1),
		StringCheck{
			Desc:    "value must be the id of " + what + " as the service gives it",
			Summary: "Invalid ID",
			Check: func(id string) string {
				if id == "" {
					return "" // stringvalidator.LengthAtLeast says it.
				}
				return IdProblem(id)
			},
			Detail: func(p, why string) string {
				return fmt.Sprintf("Set %s to the id of %s as the %s data source lists it: %s.", p, what, listedBy, why)
			},
		},
	}
}

// colourAlpha is the alpha of a colour: 0 or 1, or a decimal with a point, with or without the
// leading 0 (".95" and "0.95" are both what the service takes).
var colourAlpha = regexp.MustCompile(`^(?:[01]|[01]?\.[0-9]+)$`)

// ColourValidator accepts a colour as the service's player themes take it: rgba(R, G, B, A)
// with R, G and B integers from 0 to 255 and A a decimal from 0 to 1.
func ColourValidator() validator.String {
	return StringCheck{
		Desc:    "value must be a colour rgba(R, G, B, A): R, G and B integers from 0 to 255, A a decimal from 0 to 1",
		Summary: "Invalid Colour",
		Check:   checkColour,
		Detail: func(p, why string) string {
			return fmt.Sprintf("Set %s to a colour of the form rgba(R, G, B, A), such as \"rgba(88, 131, 255, .95)\": R, G "+
				"and B are integers from 0 to 255 and A is a decimal from 0 to 1. %s.", p, UpperFirst(why))
		},
	}
}

// checkColour returns why s is not a colour of the service, or "" when it is one.
func checkColour(s string) string {
	inner, ok := strings.CutPrefix(s, "rgba(")
	if ok {
		inner, ok = strings.CutSuffix(inner, ")")
	}
	if !ok {
		return fmt.Sprintf("%q does not have the form rgba(...)", s)
	}
	parts := strings.Split(inner, ",")
	if len(parts) != 4 {
		return fmt.Sprintf("%q has %d components, not 4 (red, green, blue, alpha)", s, len(parts))
	}
	for i, name := range []string{"red", "green", "blue"} {
		p := strings.TrimSpace(parts[i])
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 255 || strings.HasPrefix(p, "+") {
			return fmt.Sprintf("the %s of %q is %q, not an integer from 0 to 255", name, s, p)
		}
	}
	a := strings.TrimSpace(parts[3])
	f, err := strconv.ParseFloat(a, 64)
	if !colourAlpha.MatchString(a) || err != nil || f > 1 {
		return fmt.Sprintf("the alpha of %q is %q, not a decimal from 0 to 1", s, a)
	}
	return ""
}

// RtmpURLValidator accepts a restream destination as the service takes it: rtmp://host/app or
// rtmps://host/app, the app name being the first step of the path.
func RtmpURLValidator() validator.String {
	return StringCheck{
		Desc:    "value must be an address rtmp://host/app or rtmps://host/app",
		Summary: "Invalid Restream Address",
		Check:   checkRTMPURL,
		Detail: func(p, why string) string {
			return fmt.Sprintf("Set %s to the RTMP address the destination gives for its ingest, of the form "+
				"rtmp://host/app or rtmps://host/app (such as rtmp://a.rtmp.youtube.com/live2), without the stream "+
				"key, which goes in stream_key: %s.", p, why)
		},
	}
}

// checkRTMPURL returns why s is not an rtmp(s)://host/app address, or "" when it is one.
func checkRTMPURL(s string) string {
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return fmt.Sprintf("%q does not parse as a URL", s)
	case u.Scheme != "rtmp" && u.Scheme != "rtmps":
		return fmt.Sprintf("%q has the scheme %q, not rtmp or rtmps", s, u.Scheme)
	case u.Opaque != "" || u.Hostname() == "":
		return fmt.Sprintf("%q has no host", s)
	case u.User != nil:
		return fmt.Sprintf("%q carries user information before the host; the destination's key goes in stream_key", u.Redacted())
	case strings.Trim(u.Path, "/") == "":
		return fmt.Sprintf("%q has no app name after the host", s)
	}
	return ""
}

// EventNameValidator accepts one of the six event names of the service.
func EventNameValidator() validator.String {
	return stringvalidator.OneOf(events.Names()...)
}

// EventSetValidators are the checks of a set of event names: at least one, each one known.
func EventSetValidators() []validator.Set {
	return []validator.Set{
		setvalidator.SizeAtLeast(1),
		setvalidator.ValueStringsAre(EventNameValidator()),
	}
}

// WebhookURLValidator is httpURLValidator that also refuses user information (user:password@):
// the address is the webhook's identity, shown in clear by the service to every holder of the
// key, in every plan and in the state; the signature secret is how a receiver authenticates
// deliveries. The message never repeats the user information.
func WebhookURLValidator() validator.String {
	return StringCheck{
		Desc:    "value must be an absolute http or https URL without user information",
		Summary: "Credentials in Webhook URL",
		Check: func(s string) string {
			if u, err := url.Parse(s); err == nil && u.User != nil {
				return "it holds user information (the part before @), which would be shown in clear in plans, in " +
					"the state and by the service"
			}
			return ""
		},
		Detail: func(p, why string) string {
			return fmt.Sprintf("Remove the user name and password from %s: %s. To authenticate the deliveries, have "+
				"the receiver check each one's signature with the webhook's signature_secret (see the "+
				"verify_webhook_signature function).", p, why)
		},
	}
}

// NonBlank matches a value with at least one character that is not white space.
var NonBlank = regexp.MustCompile(`\S`)
