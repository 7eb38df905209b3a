package provider

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// The states in testdata/restapi-*-state.json were written by the real restapi provider, 2.0.1
// and 3.0.0, against the emulator: a webhook, a live stream and a player theme each (the
// attributes of each resource instance, as the state file holds them).

// restapiTestState is one such file.
type restapiTestState struct {
	Resources []struct {
		Name       string         `json:"name"`
		Attributes map[string]any `json:"attributes"`
	} `json:"resources"`
}

// restapiAttributes returns the attributes of the restapi_object name in the state restapi
// version wrote.
func restapiAttributes(t *testing.T, version, name string) map[string]any {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "restapi-"+version+"-state.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s restapiTestState
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	for _, r := range s.Resources {
		if r.Name == name {
			return r.Attributes
		}
	}
	t.Fatalf("no restapi_object.%s in the state of restapi %s", name, version)
	return nil
}

// move calls MoveResourceState on the provider as Terraform does for a moved block from a
// restapi_object whose state holds attrs, into the resource target.
func (p *protoServer) move(sourceType, target string, attrs map[string]any) *tfprotov6.MoveResourceStateResponse {
	p.t.Helper()
	raw, err := json.Marshal(attrs)
	if err != nil {
		p.t.Fatal(err)
	}
	resp, err := p.srv.MoveResourceState(p.t.Context(), &tfprotov6.MoveResourceStateRequest{
		SourceProviderAddress: "registry.terraform.io/mastercard/restapi",
		SourceTypeName:        sourceType,
		SourceSchemaVersion:   0,
		SourceState:           &tfprotov6.RawState{JSON: raw},
		TargetTypeName:        target,
	})
	if err != nil {
		p.t.Fatal(err)
	}
	return resp
}

// TestRestapiMoveState moves the objects that both versions of restapi wrote into the three
// resources, and checks that the move sends nothing to the service.
func TestRestapiMoveState(t *testing.T) {
	emu, baseURL := serveEmulator(t, emulator.Options{}, nil)
	p := newProtoServer(t, baseURL, emu.APIKeys()[0], map[string]tftypes.Value{"auth_scheme": str("basic")})
	before := emu.RequestCount("", "")

	for _, version := range []string{"2.0.1", "3.0.0"} {
		t.Run(version, func(t *testing.T) {
			for _, tc := range []struct {
				source, target string
				want           map[string]string
			}{
				{"hook", "videohost_webhook", map[string]string{"url": "https://example.com/hook", "created_at": "2026-11-26T10:37:0"}},
				{"ls", "videohost_live_stream", map[string]string{"name": "studio", "stream_key": "-", "created_at": "2026-11-26T10:37:0"}},
				{"pl", "videohost_player_theme", map[string]string{"name": "brand", "text": "rgba(1, 2, 3, 1)", "track_played": "rgba(88, 131, 255, .95)"}},
			} {
				attrs := restapiAttributes(t, version, tc.source)
				resp := p.move("restapi_object", tc.target, attrs)
				requireNoErrors(t, "MoveResourceState "+tc.target, resp.Diagnostics)
				got := p.attributes(p.resourceType(tc.target), resp.TargetState)
				var id string
				_ = got["id"].As(&id)
				if id == "" || id != attrs["id"] {
					t.Errorf("%s: id %q, want restapi's %q", tc.target, id, attrs["id"])
				}
				for name, prefix := range tc.want {
					var s string
					if err := got[name].As(&s); err != nil || !strings.HasPrefix(s, strings.TrimSuffix(prefix, "-")) || s == "" {
						t.Errorf("%s: %s = %q (%v), want it to start with %q", tc.target, name, s, err, prefix)
					}
				}
				var identID string
				if resp.TargetIdentity != nil {
					_ = p.attributes(p.identityType(tc.target), resp.TargetIdentity.IdentityData)["id"].As(&identID)
				}
				if identID != id {
					t.Errorf("%s: identity id %q, want %q", tc.target, identID, id)
				}
				if tc.target == "videohost_webhook" && !got["signature_secret"].IsNull() {
					t.Errorf("the webhook's signature_secret is set though restapi's state holds none")
				}
			}
		})
	}

	t.Run("secret in the kept answer", func(t *testing.T) {
		attrs := restapiAttributes(t, "3.0.0", "hook")
		kept, ok := attrs["api_response"].(string)
		if !ok {
			t.Fatalf("api_response is %T", attrs["api_response"])
		}
		attrs["api_response"] = strings.Replace(kept, `"url"`, `"signatureSecret":"kept-secret","url"`, 1)
		resp := p.move("restapi_object", "videohost_webhook", attrs)
		requireNoErrors(t, "MoveResourceState", resp.Diagnostics)
		var secret string
		_ = p.attributes(p.resourceType("videohost_webhook"), resp.TargetState)["signature_secret"].As(&secret)
		if secret != "kept-secret" {
			t.Errorf("signature_secret %q, want the one of api_response", secret)
		}
	})

	t.Run("no kept answer: the id alone", func(t *testing.T) {
		attrs := restapiAttributes(t, "2.0.1", "ls")
		attrs["api_response"], attrs["create_response"] = nil, ""
		resp := p.move("restapi_object", "videohost_live_stream", attrs)
		requireNoErrors(t, "MoveResourceState", resp.Diagnostics)
		got := p.attributes(p.resourceType("videohost_live_stream"), resp.TargetState)
		var id string
		_ = got["id"].As(&id)
		if id != attrs["id"] || !got["name"].IsNull() || !got["stream_key"].IsNull() {
			t.Errorf("state %v, want the id %v alone", got, attrs["id"])
		}
	})

	pathsNamed := []string{`"/webhooks" to videohost_webhook`, `"/live-streams" to videohost_live_stream`, `"/players" to videohost_player_theme`}
	for _, tc := range []struct {
		name, target string
		change       func(map[string]any)
		want         string
	}{
		{"another path", "videohost_webhook", func(a map[string]any) { a["path"] = "/videos" }, `Its path is "/videos", which is not an object this provider manages`},
		{"a live stream into a webhook", "videohost_webhook", func(a map[string]any) { a["path"] = "/live-streams" }, `which moves to videohost_live_stream instead`},
		{"no id", "videohost_webhook", func(a map[string]any) { delete(a, "id") }, "Its state has no id"},
		{"an id with a slash", "videohost_webhook", func(a map[string]any) { a["id"] = "../videos" }, `Its id "../videos" is not an id`},
		{"an answer that is not JSON", "videohost_webhook", func(a map[string]any) { a["api_response"] = "<html>" }, "(api_response) cannot be read"},
		{"an answer of another object", "videohost_webhook", func(a map[string]any) { a["id"] = "webhook_other" }, `not "webhook_other"`},
		{"no path", "videohost_webhook", func(a map[string]any) { delete(a, "path") }, "Its state has no path"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			attrs := restapiAttributes(t, "3.0.0", "hook")
			tc.change(attrs)
			resp := p.move("restapi_object", tc.target, attrs)
			if resp.TargetState != nil {
				if v := p.attributes(p.resourceType(tc.target), resp.TargetState); v != nil {
					t.Errorf("a refused move left a state: %v", v)
				}
			}
			var text string
			for _, d := range resp.Diagnostics {
				if d.Severity == tfprotov6.DiagnosticSeverityError {
					text += d.Summary + ": " + d.Detail
				}
			}
			if !strings.Contains(text, tc.want) {
				t.Errorf("diagnostics %q, want %q", text, tc.want)
			}
			for _, p := range pathsNamed {
				if !strings.Contains(text, p) {
					t.Errorf("the refusal does not name %s: %q", p, text)
				}
			}
		})
	}

	t.Run("another source type", func(t *testing.T) {
		resp := p.move("restapi_other", "videohost_webhook", restapiAttributes(t, "3.0.0", "hook"))
		if len(resp.Diagnostics) == 0 || resp.Diagnostics[0].Severity != tfprotov6.DiagnosticSeverityError {
			t.Errorf("a move from restapi_other was not refused: %v", resp.Diagnostics)
		}
	})

	if n := emu.RequestCount("", "") - before; n != 0 {
		t.Errorf("the moves sent %d requests to the service, want none", n)
	}
}

// TestMigrationGuideExample: the guide's example is the configuration that TestAccMoveFromRestapi
// applies, before and after the move (the provider blocks aside).
func TestMigrationGuideExample(t *testing.T) {
	for _, page := range []string{
		filepath.Join("..", "..", "templates", "guides", "migrating-from-restapi.md.tmpl"),
		filepath.Join("..", "..", "docs", "guides", "migrating-from-restapi.md"),
	} {
		text := readText(t, page)
		for name, blocks := range map[string]string{"restapiObjects": restapiObjects, "movedObjects": movedObjects} {
			if !strings.Contains(text, strings.TrimSpace(blocks)) {
				t.Errorf("%s does not hold the blocks of %s as TestAccMoveFromRestapi applies them", page, name)
			}
		}
	}
}
