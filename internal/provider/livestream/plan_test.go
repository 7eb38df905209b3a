package livestream_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/provider"
)

// restreamItem is one restream of a configuration: attribute name to value, the others null.
type restreamItem map[string]any

// validateLiveStream sends a videohost_live_stream configuration with these restreams through
// the provider's ValidateResourceConfig, as Terraform does at validate and plan, and returns the
// error diagnostics: schema validators and ValidateConfig together, as the user sees them.
func validateLiveStream(t *testing.T, items ...restreamItem) []*tfprotov6.Diagnostic {
	t.Helper()
	srv := provider.NewServer("test")()
	schemas, err := srv.GetProviderSchema(t.Context(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	typ, ok := schemas.ResourceSchemas["videohost_live_stream"].ValueType().(tftypes.Object)
	if !ok {
		t.Fatal("the live stream's schema is not an object")
	}
	list, ok := typ.AttributeTypes["restreams"].(tftypes.List)
	if !ok {
		t.Fatal("restreams is not a list")
	}
	itemType, ok := list.ElementType.(tftypes.Object)
	if !ok {
		t.Fatal("a restream is not an object")
	}
	vals := make([]tftypes.Value, 0, len(items))
	for _, it := range items {
		attrs := map[string]tftypes.Value{}
		for name, at := range itemType.AttributeTypes {
			attrs[name] = tftypes.NewValue(at, it[name])
		}
		vals = append(vals, tftypes.NewValue(itemType, attrs))
	}
	attrs := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		attrs[name] = tftypes.NewValue(at, nil)
	}
	attrs["name"] = acctest.Str("studio")
	attrs["restreams"] = tftypes.NewValue(list, vals)
	dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, attrs))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := srv.ValidateResourceConfig(t.Context(), &tfprotov6.ValidateResourceConfigRequest{
		TypeName: "videohost_live_stream", Config: &dv,
		// Terraform 1.11 and later, which take write-only attributes.
		ClientCapabilities: &tfprotov6.ValidateResourceConfigClientCapabilities{WriteOnlyAttributesAllowed: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	var errs []*tfprotov6.Diagnostic
	for _, d := range resp.Diagnostics {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			errs = append(errs, d)
		}
	}
	return errs
}

// okRestream is a restream that is valid as it is.
func okRestream(name string) restreamItem {
	return restreamItem{"name": name, "server_url": "rtmp://h/app", "stream_key": "k"}
}

// diagAt is the path of a diagnostic as the framework writes it ("restreams[1].server_url").
func diagAt(d *tfprotov6.Diagnostic) string {
	if d.Attribute == nil {
		return ""
	}
	var b strings.Builder
	for _, s := range d.Attribute.Steps() {
		switch s := s.(type) {
		case tftypes.AttributeName:
			if b.Len() > 0 {
				b.WriteString(".")
			}
			b.WriteString(string(s))
		case tftypes.ElementKeyInt:
			fmt.Fprintf(&b, "[%d]", int64(s))
		}
	}
	return b.String()
}

// TestLiveStreamRestreamDiagnostics checks each refusal of a restream: its summary, where it
// lands, that it names the restream and the attribute in words and says what to set, and that
// six restreams still get each restream's own errors.
func TestLiveStreamRestreamDiagnostics(t *testing.T) {
	bad := func(over restreamItem) restreamItem {
		it := okRestream("YouTube")
		for k, v := range over {
			it[k] = v
		}
		return it
	}
	cases := []struct {
		name    string
		second  restreamItem // the second restream; the first is valid
		summary string
		at      string
		want    []string
	}{
		{"bad server_url", bad(restreamItem{"server_url": "https://h/app"}), "Invalid Restream Address", "restreams[1].server_url",
			[]string{"Set restreams[1].server_url (the server_url of restream 2 of restreams)", "rtmp://host/app", `not rtmp or rtmps`}},
		{"blank name", bad(restreamItem{"name": " "}), "Blank Value", "restreams[1]",
			[]string{"Set restreams[1].name (the name of restream 2 of restreams)", "white space"}},
		{"blank stream_key", bad(restreamItem{"stream_key": ""}), "Blank Value", "restreams[1].stream_key",
			[]string{"Set restreams[1].stream_key (the stream_key of restream 2 of restreams)", "it is empty"}},
		{"both keys", bad(restreamItem{"stream_key_wo": "w"}), "Two Stream Keys for One Restream", "restreams[1].stream_key_wo",
			[]string{`Restream 2 of restreams, "YouTube" (restreams[1]) sets both stream_key and stream_key_wo`, "Keep stream_key", "remove the other"}},
		{"no key", bad(restreamItem{"stream_key": nil}), "Missing Stream Key for a Restream", "restreams[1]",
			[]string{`Restream 2 of restreams, "YouTube" (restreams[1]) has no stream key`, "set restreams[1].stream_key to the key",
				"or set restreams[1].stream_key_wo", "-generate-config-out", "fill in the key"}},
		{"no key, no name", bad(restreamItem{"stream_key": nil, "name": ""}), "Missing Stream Key for a Restream", "restreams[1]",
			[]string{`Restream 2 of restreams (restreams[1]) has no stream key`}},
		{"version without a write-only key", bad(restreamItem{"stream_key_wo_version": int64(1)}),
			"Stream Key Version Without a Write-Only Key", "restreams[1].stream_key_wo_version",
			[]string{"sets restreams[1].stream_key_wo_version", "Remove stream_key_wo_version, or move the key"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			errs := validateLiveStream(t, okRestream("Twitch"), c.second)
			var found *tfprotov6.Diagnostic
			for _, d := range errs {
				if d.Summary == c.summary {
					found = d
				}
			}
			if found == nil {
				t.Fatalf("no %q among %d errors: %v", c.summary, len(errs), errs)
			}
			if got := diagAt(found); got != c.at {
				t.Errorf("the error is on %q, want %q", got, c.at)
			}
			acctest.RequireContains(t, found.Detail, c.want...)
			if strings.Contains(found.Detail, "got:") || found.Detail[:1] != strings.ToUpper(found.Detail[:1]) {
				t.Errorf("the detail does not read as a sentence of the provider: %q", found.Detail)
			}
		})
	}
	t.Run("valid restreams", func(t *testing.T) {
		wo := restreamItem{"name": "wo", "server_url": "rtmps://h/app", "stream_key_wo": "w", "stream_key_wo_version": int64(2)}
		if errs := validateLiveStream(t, okRestream("a"), wo); len(errs) != 0 {
			t.Errorf("want no error, got %s: %s", errs[0].Summary, errs[0].Detail)
		}
	})
	t.Run("six restreams hide no restream's errors", func(t *testing.T) {
		six := []restreamItem{okRestream("a"), bad(restreamItem{"server_url": "rtmp://h"}), okRestream("c"),
			bad(restreamItem{"stream_key": nil}), okRestream("e"), okRestream("f")}
		errs := validateLiveStream(t, six...)
		got := map[string]string{}
		for _, d := range errs {
			got[d.Summary] = diagAt(d)
		}
		want := map[string]string{"Too Many Restreams": "restreams", "Invalid Restream Address": "restreams[1].server_url",
			"Missing Stream Key for a Restream": "restreams[3]"}
		if len(errs) != len(want) {
			t.Errorf("got %d errors, want %d: %v", len(errs), len(want), got)
		}
		for s, at := range want {
			if got[s] != at {
				t.Errorf("%q is on %q, want %q (all: %v)", s, got[s], at, got)
			}
		}
		for _, d := range errs {
			if d.Summary == "Too Many Restreams" {
				acctest.RequireContains(t, d.Detail, "restreams lists 6 restreams", "at most 5", "Remove 1 of them")
			}
		}
	})
}
