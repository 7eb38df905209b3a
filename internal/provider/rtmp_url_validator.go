package provider

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

var _ validator.String = rtmpURLValidator{}

// rtmpURLValidator accepts a restream destination as the service takes it:
// rtmp://host/app or rtmps://host/app, the app name being the first step of the path. Checked
// at plan time, so that the service's 400 at apply becomes a message on the attribute first.
type rtmpURLValidator struct{}

func (rtmpURLValidator) Description(context.Context) string {
	return "value must be an address rtmp://host/app or rtmps://host/app"
}

func (v rtmpURLValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (rtmpURLValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if why := checkRTMPURL(req.ConfigValue.ValueString()); why != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Restream Address",
			fmt.Sprintf("Set %s to the RTMP address the destination gives for its ingest, of the form "+
				"rtmp://host/app or rtmps://host/app (such as rtmp://a.rtmp.youtube.com/live2), without the stream "+
				"key, which goes in stream_key: %s.", req.Path, why))
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
