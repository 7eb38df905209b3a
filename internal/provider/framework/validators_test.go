package framework

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/events"
)

func TestHTTPURLValidator(t *testing.T) {
	cases := []struct {
		in    types.String
		valid bool
	}{
		{types.StringValue("https://example.com/hook"), true},
		{types.StringValue("http://127.0.0.1:8080"), true},
		{types.StringValue("https://[::1]:443/x?y=z"), true},
		{types.StringNull(), true},
		{types.StringUnknown(), true},
		{types.StringValue(""), false},
		{types.StringValue("example.com/hook"), false},
		{types.StringValue("/relative/path"), false},
		{types.StringValue("ftp://example.com/"), false},
		{types.StringValue("https://"), false},
		{types.StringValue("https://:80/"), false},
		{types.StringValue("http://exa mple.com/"), false},
		{types.StringValue("mailto:someone@example.com"), false},
	}
	for _, c := range cases {
		resp := &validator.StringResponse{}
		HttpURLValidator().ValidateString(t.Context(), validator.StringRequest{Path: path.Root("url"), ConfigValue: c.in}, resp)
		if got := !resp.Diagnostics.HasError(); got != c.valid {
			t.Errorf("%s: valid=%v, want %v (%v)", c.in, got, c.valid, resp.Diagnostics)
		}
		if !c.valid {
			d, ok := resp.Diagnostics[0].(interface{ Path() path.Path })
			if !ok || !d.Path().Equal(path.Root("url")) {
				t.Errorf("%s: the error is not on the attribute", c.in)
			}
		}
	}
}

func TestEventSetValidators(t *testing.T) {
	set := func(names ...string) types.Set {
		vals := make([]attr.Value, 0, len(names))
		for _, n := range names {
			vals = append(vals, types.StringValue(n))
		}
		return types.SetValueMust(types.StringType, vals)
	}
	cases := []struct {
		name  string
		in    types.Set
		valid bool
	}{
		{"every event", set(events.Names()...), true},
		{"one event", set(events.VideoSourceRecorded), true},
		{"empty", set(), false},
		{"unknown name", set(events.VideoSourceRecorded, "video.encoding.completed"), false},
		{"wrong case", set("Video.Source.Recorded"), false},
		{"null", types.SetNull(types.StringType), true},
	}
	for _, c := range cases {
		var diags int
		for _, v := range EventSetValidators() {
			resp := &validator.SetResponse{}
			v.ValidateSet(t.Context(), validator.SetRequest{Path: path.Root("events"), ConfigValue: c.in}, resp)
			diags += resp.Diagnostics.ErrorsCount()
		}
		if got := diags == 0; got != c.valid {
			t.Errorf("%s: valid=%v, want %v", c.name, got, c.valid)
		}
	}
}

func TestCheckColour(t *testing.T) {
	for _, ok := range []string{
		"rgba(255, 255, 255, 1)", "rgba(88, 131, 255, .95)", "rgba(88, 131, 255, 0.95)", "rgba(0,0,0,0)",
		"rgba(0, 0, 0, .7)", "rgba(1, 2, 3, 1.0)", "rgba(10, 20, 30, 0.125)",
	} {
		if why := checkColour(ok); why != "" {
			t.Errorf("checkColour(%q) = %q, want accepted", ok, why)
		}
	}
	for bad, want := range map[string]string{
		"#ffffff":                 "form rgba",
		"rgb(1, 2, 3)":            "form rgba",
		"rgba(1, 2, 3)":           "3 components",
		"rgba(256, 0, 0, 1)":      "red",
		"rgba(0, -1, 0, 1)":       "green",
		"rgba(0, 0, x, 1)":        "blue",
		"rgba(0, 0, +1, 1)":       "blue",
		"rgba(0, 0, 0, 1.5)":      "alpha",
		"rgba(0, 0, 0, 2)":        "alpha",
		"rgba(0, 0, 0, 50%)":      "alpha",
		"rgba(0, 0, 0, 1e-1)":     "alpha",
		"rgba(0, 0, 0, .)":        "alpha",
		"RGBA(0, 0, 0, 1)":        "form rgba",
		"rgba(0, 0, 0, 1) ":       "form rgba",
		"rgba(0, 0, 0, 1, 1)":     "5 components",
		"rgba(0.5, 0, 0, 1)":      "red",
		"rgba(255, 255, 255, -0)": "alpha",
	} {
		why := checkColour(bad)
		if why == "" || !strings.Contains(why, want) {
			t.Errorf("checkColour(%q) = %q, want a refusal naming %q", bad, why, want)
		}
	}
}

func TestCheckRTMPURL(t *testing.T) {
	for _, ok := range []string{"rtmp://a.rtmp.youtube.com/live2", "rtmps://live-api-s.facebook.com:443/rtmp/", "rtmp://10.0.0.1/app/sub"} {
		if why := checkRTMPURL(ok); why != "" {
			t.Errorf("checkRTMPURL(%q) = %q, want accepted", ok, why)
		}
	}
	for bad, want := range map[string]string{
		"https://a.example/live":     "scheme",
		"a.example/live":             "scheme",
		"rtmp://a.example":           "app name",
		"rtmp://a.example/":          "app name",
		"rtmp:///live":               "no host",
		"rtmp:a.example/live":        "no host",
		"rtmp://key:pw@a.example/ap": "user information",
	} {
		why := checkRTMPURL(bad)
		if why == "" || !strings.Contains(why, want) {
			t.Errorf("checkRTMPURL(%q) = %q, want a refusal naming %q", bad, why, want)
		}
		if strings.Contains(why, "pw") {
			t.Errorf("checkRTMPURL(%q) repeats the password: %q", bad, why)
		}
	}
}

// TestColourDiagnosticSentences: each sentence of a colour's refusal starts with a capital
// letter, the reason included ("The red of ..."), and the error is on the attribute.
func TestColourDiagnosticSentences(t *testing.T) {
	for _, bad := range []string{"rgba(300, 0, 0, 1)", "rgba(0, x, 0, 1)", "rgba(0, 0, 0, 2)", "rgba(0, 0, 0)", "#fff"} {
		resp := &validator.StringResponse{}
		ColourValidator().ValidateString(t.Context(), validator.StringRequest{
			Path: path.Root("text"), ConfigValue: types.StringValue(bad),
		}, resp)
		if len(resp.Diagnostics) != 1 {
			t.Fatalf("%s: want one error, got %v", bad, resp.Diagnostics)
		}
		d := resp.Diagnostics[0]
		if wp, ok := d.(interface{ Path() path.Path }); !ok || !wp.Path().Equal(path.Root("text")) {
			t.Errorf("%s: the error is not on text", bad)
		}
		for _, sentence := range strings.Split(d.Detail(), ". ")[1:] {
			if first := sentence[:1]; first != strings.ToUpper(first) {
				t.Errorf("%s: a sentence starts in lower case: %q in %q", bad, sentence, d.Detail())
			}
		}
	}
}

// TestAttrInWords names an attribute of a list item by the item's place.
func TestAttrInWords(t *testing.T) {
	cases := map[string]path.Path{
		"name": path.Root("name"),
		"restreams[1].server_url (the server_url of restream 2 of restreams)": path.Root("restreams").AtListIndex(1).AtName("server_url"),
		"restreams[0] (restream 1 of restreams)":                              path.Root("restreams").AtListIndex(0),
	}
	for want, p := range cases {
		if got := attrInWords(p); got != want {
			t.Errorf("attrInWords(%s) = %q, want %q", p, got, want)
		}
	}
}

// TestCredentialsInWebhookURLNotRepeated: the message never shows the password.
func TestCredentialsInWebhookURLNotRepeated(t *testing.T) {
	var resp validator.StringResponse
	WebhookURLValidator().ValidateString(t.Context(), validator.StringRequest{
		Path: path.Root("url"), ConfigValue: types.StringValue("https://user:p4ss@receiver.example.test/hook"),
	}, &resp)
	if !resp.Diagnostics.HasError() {
		t.Fatal("a URL with credentials was accepted")
	}
	if d := resp.Diagnostics.Errors()[0]; strings.Contains(d.Detail(), "p4ss") || strings.Contains(d.Detail(), "user:") {
		t.Errorf("the message repeats the credentials: %s", d.Detail())
	}
}
