package provider_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// peersDir holds the other providers' binaries that tests run beside this one (the generic REST
// provider, for moved blocks), compressed, with unpack.sh; it sits beside the worktree.
var peersDir = filepath.Join("..", "..", "..", "shared", "peers")

// restapiProvider unpacks the restapi provider of version into a directory of its own, under
// the name Terraform looks for, and returns that directory; it skips the test when the peers
// are absent.
func restapiProvider(ctx context.Context, t *testing.T, version string) string {
	t.Helper()
	script := filepath.Join(peersDir, "unpack.sh")
	if _, err := os.Stat(script); err != nil {
		t.Skipf("the restapi provider's binaries are not here (%s: %v): the moves from restapi_object are not tested end to end", peersDir, err)
	}
	out, err := exec.CommandContext(ctx, script, t.TempDir()).Output()
	if err != nil {
		t.Fatalf("%s: %v", script, err)
	}
	for _, bin := range strings.Fields(string(out)) {
		if strings.Contains(filepath.Base(bin), "-"+version+"-") {
			dir := t.TempDir()
			if err := os.Symlink(bin, filepath.Join(dir, "terraform-provider-restapi")); err != nil {
				t.Fatal(err)
			}
			return dir
		}
	}
	t.Fatalf("%s unpacked no restapi %s:\n%s", script, version, out)
	return ""
}

// restapiConfig is the configuration of a team that keeps a webhook, a live stream and a player
// theme with the generic REST provider, with one provider block per id attribute, and
// objects, the restapi_objects it has (none once they have moved), with the names of env's
// test (restapiNamed). restapi sends the key as a Basic credential in a header that the
// variable restapi_auth gives (restapiAuthEnv), so that the key stays out of the files.
func restapiConfig(env *acctest.AccEnv, objects string) string {
	var b strings.Builder
	b.WriteString(`terraform {
  required_providers {
    restapi   = { source = "Mastercard/restapi" }
    videohost = { source = "videohost/videohost" }
  }
}

variable "restapi_auth" {
  type      = string
  sensitive = true
}
`)
	for _, p := range []struct{ alias, idAttr string }{{"", "webhookId"}, {"live", "liveStreamId"}, {"players", "playerId"}} {
		alias := ""
		if p.alias != "" {
			alias = "alias = " + acctest.Hcl(p.alias)
		}
		fmt.Fprintf(&b, `provider "restapi" {
  %s
  uri                   = %s
  headers               = { Authorization = var.restapi_auth, "Content-Type" = "application/json" }
  id_attribute          = %s
  create_returns_object = true
}
`, alias, acctest.Hcl(env.BaseURL), acctest.Hcl(p.idAttr))
	}
	return b.String() + env.ProviderConfig(`auth_scheme = "basic"`) + restapiNamed(env, objects)
}

// restapiAuthEnv is the environment variable that gives restapiConfig's variable restapi_auth
// the Basic credential of env's key.
func restapiAuthEnv(env *acctest.AccEnv) string {
	return "TF_VAR_restapi_auth=Basic " + base64.StdEncoding.EncodeToString([]byte(env.APIKey+":"))
}

// restapiNamed is blocks (restapiObjects, movedObjects: the migration guide's example) with the
// names of env's test in place of the example's, so that what the test makes on the service
// carries the run's prefix and the test's name: the webhook's URL (in its path), the live
// stream's and the player theme's names.
func restapiNamed(env *acctest.AccEnv, blocks string) string {
	blocks = strings.ReplaceAll(blocks, `"https://receiver.example.com/hooks"`, acctest.Hcl("https://receiver.example.com/"+env.Name("hook")))
	return exampleName.ReplaceAllStringFunc(blocks, func(m string) string {
		sub := exampleName.FindStringSubmatch(m)
		name := env.Name(sub[2])
		if sub[3] != "" {
			name = restapiRenamedStudio(env)
		}
		return sub[1] + acctest.Hcl(name)
	})
}

// exampleName is a name of the example's objects (a resource's name argument, not its label).
var exampleName = regexp.MustCompile(`(\bname\s*=\s*)"(studio|brand)( \(managed by videohost\))?"`)

// restapiRenamedStudio is the name movedObjects gives the live stream, in restapiNamed.
func restapiRenamedStudio(env *acctest.AccEnv) string {
	return env.Name("studio") + " (managed by videohost)"
}

const restapiObjects = `
resource "restapi_object" "hook" {
  path = "/webhooks"
  data = jsonencode({ url = "https://receiver.example.com/hooks", events = ["video.encoding.quality.completed"] })
}

resource "restapi_object" "studio" {
  provider = restapi.live
  path     = "/live-streams"
  data     = jsonencode({ name = "studio", public = false })
}

resource "restapi_object" "brand" {
  provider = restapi.players
  path     = "/players"
  data     = jsonencode({ name = "brand", text = "rgba(10, 20, 30, 1)", forceLoop = true })
}
`

// movedObjects takes the three objects over; the live stream's name changes in the same plan,
// which is an update in place.
const movedObjects = `
moved {
  from = restapi_object.hook
  to   = videohost_webhook.hook
}

resource "videohost_webhook" "hook" {
  url    = "https://receiver.example.com/hooks"
  events = ["video.encoding.quality.completed"]
}

moved {
  from = restapi_object.studio
  to   = videohost_live_stream.studio
}

resource "videohost_live_stream" "studio" {
  name   = "studio (managed by videohost)"
  public = false
}

moved {
  from = restapi_object.brand
  to   = videohost_player_theme.brand
}

resource "videohost_player_theme" "brand" {
  name       = "brand"
  text       = "rgba(10, 20, 30, 1)"
  force_loop = true
}
`

// TestAccMoveFromRestapi takes a webhook, a live stream and a player theme that the real restapi
// provider created (2.0.1 and 3.0.0, the major versions users run) over with moved blocks, with
// the CLI of the tests (Terraform 1.8 and later, OpenTofu 1.10 and later: the others skip). The
// move sends nothing to the service; the plan shows the three moves, an update in place of the
// renamed live stream and nothing else; the webhook keeps its id and its signature secret (the
// service's, unchanged); the next plan is empty. A moved block into the wrong resource is
// refused with a message that names the paths the moves take. In-process, restapi 3.0.0 runs
// against an emulator that puts the signature secret in its answers, so that restapi's state
// holds it and the move takes it; 2.0.1 against one that does not, so that the refresh reads
// it. Against a real endpoint both run as its answers go, and the objects, named by the run
// and the test, are deleted when the test ends.
func TestAccMoveFromRestapi(t *testing.T) {
	for _, tc := range []struct {
		version        string
		secretInAnswer bool
	}{{"2.0.1", false}, {"3.0.0", true}} {
		t.Run("restapi-"+tc.version, func(t *testing.T) {
			env := acctest.NewAccEnv(t, emulator.Options{SecretInResponses: tc.secretInAnswer})
			acctest.RequireCLIFeature(t, acctest.FeatureMoveFromRestapi)
			ctx, cancel := context.WithTimeout(t.Context(), 6*time.Minute)
			defer cancel()
			restapi := restapiProvider(ctx, t, tc.version)
			cli := acctest.NewCLIWorkdirWith(ctx, t, "1.8.0", map[string]string{"Mastercard/restapi": restapi})
			cli.Env = append(cli.Env, restapiAuthEnv(env))
			client := acctest.ServiceClient(t, env)

			// The team's configuration before the provider existed.
			cli.Write("main.tf", restapiConfig(env, restapiObjects))
			cli.Run("apply", "-no-color", "-auto-approve")
			restapiState := cli.State()
			ids := map[string]string{}
			for _, name := range []string{"hook", "studio", "brand"} {
				r, err := acctest.StateResource(restapiState, "restapi_object."+name)
				if err != nil {
					t.Fatal(err)
				}
				ids[name] = acctest.AttrString(r, "id")
			}
			// Nothing of the test is left on the service, whether it passes or fails.
			t.Cleanup(func() {
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				for name, del := range map[string]func(context.Context, string) error{
					"hook": client.DeleteWebhook, "studio": client.DeleteLiveStream, "brand": client.DeletePlayerTheme,
				} {
					if err := del(ctx, ids[name]); err != nil && !errors.Is(err, videohost.ErrNotFound) {
						t.Errorf("deleting the %s %s: %v", name, ids[name], err)
					}
				}
			})
			hook, err := client.LookupWebhook(ctx, ids["hook"])
			if err != nil || hook.SignatureSecret == "" {
				t.Fatalf("restapi's webhook %q on the service: %+v, %v; want it with a secret", ids["hook"], hook, err)
			}
			if env.Emu != nil && len(env.Emu.Webhooks()) != 1 {
				t.Fatalf("restapi created %d webhooks, want 1", len(env.Emu.Webhooks()))
			}

			// A moved block into the wrong resource: refused, naming the paths.
			cli.Write("main.tf", restapiConfig(env, `
moved {
  from = restapi_object.studio
  to   = videohost_webhook.studio
}

resource "videohost_webhook" "studio" {
  url    = "https://receiver.example.com/hooks"
  events = ["video.encoding.quality.completed"]
}

resource "restapi_object" "hook" {
  path = "/webhooks"
  data = jsonencode({ url = "https://receiver.example.com/hooks", events = ["video.encoding.quality.completed"] })
}

resource "restapi_object" "brand" {
  provider = restapi.players
  path     = "/players"
  data     = jsonencode({ name = "brand", text = "rgba(10, 20, 30, 1)", forceLoop = true })
}
`))
			out := cli.RunFailing("plan", "-no-color")
			if want := acctest.WrappedPhrases("Cannot Move This restapi_object", `which moves to videohost_live_stream instead`,
				`"/webhooks" to videohost_webhook`, `"/live-streams" to videohost_live_stream`, `"/players" to videohost_player_theme`); !want.MatchString(out) {
				t.Errorf("the wrong move is not refused with the paths named (want %s):\n%s", want, out)
			}

			// The move alone, without a refresh, sends nothing to the service.
			cli.Write("main.tf", restapiConfig(env, movedObjects))
			before := env.RequestCount("", "")
			cli.Run("plan", "-no-color", "-refresh=false", "-out=moved-only.tfplan")
			if n := env.RequestCount("", "") - before; n != 0 {
				t.Errorf("moving the three objects sent %d requests to the service, want none", n)
			}

			// The plan: three moves, one update in place, nothing replaced.
			cli.Run("plan", "-no-color", "-out=move.tfplan")
			checkMovePlan(t, cli.Plan("move.tfplan"))
			out = cli.Run("apply", "-no-color", "move.tfplan")
			if !strings.Contains(out, "0 added, 1 changed, 0 destroyed") {
				t.Errorf("the apply of the moves did more than one update:\n%s", out)
			}

			// The objects are the same, the webhook's secret is the service's, unchanged.
			moved := cli.State()
			for addr, name := range map[string]string{"videohost_webhook.hook": "hook", "videohost_live_stream.studio": "studio", "videohost_player_theme.brand": "brand"} {
				r, err := acctest.StateResource(moved, addr)
				if err != nil {
					t.Fatal(err)
				}
				if got := acctest.AttrString(r, "id"); got != ids[name] {
					t.Errorf("%s has id %q, want restapi's %q", addr, got, ids[name])
				}
			}
			r, _ := acctest.StateResource(moved, "videohost_webhook.hook")
			if now, err := client.LookupWebhook(ctx, ids["hook"]); err != nil || now.SignatureSecret != hook.SignatureSecret {
				t.Errorf("the webhook's secret changed on the service, or it is gone: %v", err)
			}
			if env.Emu != nil && len(env.Emu.Webhooks()) != 1 {
				t.Errorf("the webhook was replaced (%d webhooks)", len(env.Emu.Webhooks()))
			}
			if acctest.AttrString(r, "signature_secret") != hook.SignatureSecret {
				t.Error("the moved webhook's signature_secret is not the service's")
			}
			if n := env.RequestCount(http.MethodPost, "/webhooks"); n != 1 {
				t.Errorf("%d webhook creates, want restapi's 1", n)
			}
			if n := env.RequestCount(http.MethodDelete, ""); n != 0 {
				t.Errorf("%d deletes reached the service, want none", n)
			}
			ls, err := client.GetLiveStream(ctx, ids["studio"])
			if err != nil || ls.Name != restapiRenamedStudio(env) {
				t.Errorf("the live stream on the service: %+v, %v; want it renamed in place", ls, err)
			}

			cli.Run("plan", "-no-color", "-detailed-exitcode")
		})
	}
}

// checkMovePlan fails unless the plan moves the three restapi_objects and changes nothing but
// the live stream, in place.
func checkMovePlan(t *testing.T, p *tfjson.Plan) {
	t.Helper()
	want := map[string]struct {
		from   string
		action tfjson.Actions
	}{
		"videohost_webhook.hook":       {"restapi_object.hook", tfjson.Actions{tfjson.ActionNoop}},
		"videohost_live_stream.studio": {"restapi_object.studio", tfjson.Actions{tfjson.ActionUpdate}},
		"videohost_player_theme.brand": {"restapi_object.brand", tfjson.Actions{tfjson.ActionNoop}},
	}
	seen := 0
	for _, rc := range p.ResourceChanges {
		w, ok := want[rc.Address]
		if !ok {
			if !rc.Change.Actions.NoOp() {
				t.Errorf("the plan %v %s", rc.Change.Actions, rc.Address)
			}
			continue
		}
		seen++
		if rc.PreviousAddress != w.from {
			t.Errorf("%s: moved from %q, want %q", rc.Address, rc.PreviousAddress, w.from)
		}
		if !slices.Equal(rc.Change.Actions, w.action) {
			t.Errorf("%s: %v, want %v", rc.Address, rc.Change.Actions, w.action)
		}
		if rc.Address == "videohost_live_stream.studio" {
			if unknown, _ := rc.Change.AfterUnknown.(map[string]any); unknown != nil {
				for _, kept := range []string{"id", "stream_key", "created_at", "assets"} {
					if unknown[kept] == true {
						t.Errorf("the update of the moved live stream shows %s as known after apply", kept)
					}
				}
			}
		}
	}
	if seen != len(want) {
		t.Errorf("the plan has %d of the %d moved resources", seen, len(want))
	}
}

// restapiTestState is one such file.
type restapiTestState struct {
	Resources []struct {
		Name       string         `json:"name"`
		Attributes map[string]any `json:"attributes"`
	} `json:"resources"`
}

// The states in testdata/restapi-*-state.json were written by the real restapi provider, 2.0.1
// and 3.0.0, against the emulator: a webhook, a live stream and a player theme each (the
// attributes of each resource instance, as the state file holds them).

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

// TestRestapiMoveState moves the objects that both versions of restapi wrote into the three
// resources, and checks that the move sends nothing to the service.
func TestRestapiMoveState(t *testing.T) {
	emu, baseURL := acctest.ServeEmulator(t, emulator.Options{}, nil)
	p := acctest.NewProtoServer(t, baseURL, emu.APIKeys()[0], map[string]tftypes.Value{"auth_scheme": acctest.Str("basic")})
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
				resp := p.Move("restapi_object", tc.target, attrs)
				acctest.RequireNoErrors(t, "MoveResourceState "+tc.target, resp.Diagnostics)
				got := p.Attributes(p.ResourceType(tc.target), resp.TargetState)
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
					_ = p.Attributes(p.IdentityType(tc.target), resp.TargetIdentity.IdentityData)["id"].As(&identID)
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
		resp := p.Move("restapi_object", "videohost_webhook", attrs)
		acctest.RequireNoErrors(t, "MoveResourceState", resp.Diagnostics)
		var secret string
		_ = p.Attributes(p.ResourceType("videohost_webhook"), resp.TargetState)["signature_secret"].As(&secret)
		if secret != "kept-secret" {
			t.Errorf("signature_secret %q, want the one of api_response", secret)
		}
	})

	t.Run("no kept answer: the id alone", func(t *testing.T) {
		attrs := restapiAttributes(t, "2.0.1", "ls")
		attrs["api_response"], attrs["create_response"] = nil, ""
		resp := p.Move("restapi_object", "videohost_live_stream", attrs)
		acctest.RequireNoErrors(t, "MoveResourceState", resp.Diagnostics)
		got := p.Attributes(p.ResourceType("videohost_live_stream"), resp.TargetState)
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
			resp := p.Move("restapi_object", tc.target, attrs)
			if resp.TargetState != nil {
				if v := p.Attributes(p.ResourceType(tc.target), resp.TargetState); v != nil {
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
		resp := p.Move("restapi_other", "videohost_webhook", restapiAttributes(t, "3.0.0", "hook"))
		if len(resp.Diagnostics) == 0 || resp.Diagnostics[0].Severity != tfprotov6.DiagnosticSeverityError {
			t.Errorf("a move from restapi_other was not refused: %v", resp.Diagnostics)
		}
	})

	if n := emu.RequestCount("", "") - before; n != 0 {
		t.Errorf("the moves sent %d requests to the service, want none", n)
	}
}

// TestMigrationGuideExample: the guide's example is the configuration that TestAccMoveFromRestapi
// applies, before and after the move (the provider blocks and the names it gives aside).
func TestMigrationGuideExample(t *testing.T) {
	for _, page := range []string{
		filepath.Join("..", "..", "templates", "guides", "migrating-from-restapi.md.tmpl"),
		filepath.Join("..", "..", "docs", "guides", "migrating-from-restapi.md"),
	} {
		text := acctest.ReadText(t, page)
		for name, blocks := range map[string]string{"restapiObjects": restapiObjects, "movedObjects": movedObjects} {
			if !strings.Contains(text, strings.TrimSpace(blocks)) {
				t.Errorf("%s does not hold the blocks of %s as TestAccMoveFromRestapi applies them", page, name)
			}
		}
	}
}
