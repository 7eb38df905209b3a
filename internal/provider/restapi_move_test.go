package provider

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
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
// objects, the restapi_objects it has (none once they have moved).
func restapiConfig(env *accEnv, objects string) string {
	auth := "Basic " + base64.StdEncoding.EncodeToString([]byte(env.APIKey+":"))
	var b strings.Builder
	b.WriteString(`terraform {
  required_providers {
    restapi   = { source = "Mastercard/restapi" }
    videohost = { source = "videohost/videohost" }
  }
}
`)
	for _, p := range []struct{ alias, idAttr string }{{"", "webhookId"}, {"live", "liveStreamId"}, {"players", "playerId"}} {
		alias := ""
		if p.alias != "" {
			alias = "alias = " + hcl(p.alias)
		}
		fmt.Fprintf(&b, `provider "restapi" {
  %s
  uri                   = %s
  headers               = { Authorization = %s, "Content-Type" = "application/json" }
  id_attribute          = %s
  create_returns_object = true
}
`, alias, hcl(env.BaseURL), hcl(auth), hcl(p.idAttr))
	}
	return b.String() + env.providerConfig(`auth_scheme = "basic"`) + objects
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
// emulator's, unchanged); the next plan is empty. A moved block into the wrong resource is
// refused with a message that names the paths the moves take. restapi 3.0.0 runs against an
// emulator that puts the signature secret in its answers, so that restapi's state holds it and
// the move takes it; 2.0.1 against one that does not, so that the refresh reads it.
func TestAccMoveFromRestapi(t *testing.T) {
	for _, tc := range []struct {
		version        string
		secretInAnswer bool
	}{{"2.0.1", false}, {"3.0.0", true}} {
		t.Run("restapi-"+tc.version, func(t *testing.T) {
			env := newAccEnv(t, emulator.Options{SecretInResponses: tc.secretInAnswer})
			env.requireEmulator(t)
			requireCLIFeature(t, featureMoveFromRestapi)
			ctx, cancel := context.WithTimeout(t.Context(), 6*time.Minute)
			defer cancel()
			restapi := restapiProvider(ctx, t, tc.version)
			cli := newCLIWorkdirWith(ctx, t, "1.8.0", map[string]string{"Mastercard/restapi": restapi})

			// The team's configuration before the provider existed.
			cli.write("main.tf", restapiConfig(env, restapiObjects))
			cli.run("apply", "-no-color", "-auto-approve")
			webhooks := env.Emu.Webhooks()
			if len(webhooks) != 1 || webhooks[0].SignatureSecret == "" {
				t.Fatalf("restapi created %d webhooks, want 1 with a secret", len(webhooks))
			}
			hook := webhooks[0]
			restapiState := cli.state()
			ids := map[string]string{}
			for _, name := range []string{"hook", "studio", "brand"} {
				r, err := stateResource(restapiState, "restapi_object."+name)
				if err != nil {
					t.Fatal(err)
				}
				ids[name] = attrString(r, "id")
			}
			if ids["hook"] != hook.WebhookID {
				t.Fatalf("restapi's webhook id %q is not the emulator's %q", ids["hook"], hook.WebhookID)
			}

			// A moved block into the wrong resource: refused, naming the paths.
			cli.write("main.tf", restapiConfig(env, `
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
			out := cli.runFailing("plan", "-no-color")
			if want := wrappedPhrases("Cannot Move This restapi_object", `which moves to videohost_live_stream instead`,
				`"/webhooks" to videohost_webhook`, `"/live-streams" to videohost_live_stream`, `"/players" to videohost_player_theme`); !want.MatchString(out) {
				t.Errorf("the wrong move is not refused with the paths named (want %s):\n%s", want, out)
			}

			// The move alone, without a refresh, sends nothing to the service.
			cli.write("main.tf", restapiConfig(env, movedObjects))
			before := env.Emu.RequestCount("", "")
			cli.run("plan", "-no-color", "-refresh=false", "-out=moved-only.tfplan")
			if n := env.Emu.RequestCount("", "") - before; n != 0 {
				t.Errorf("moving the three objects sent %d requests to the service, want none", n)
			}

			// The plan: three moves, one update in place, nothing replaced.
			cli.run("plan", "-no-color", "-out=move.tfplan")
			checkMovePlan(t, cli.plan("move.tfplan"))
			out = cli.run("apply", "-no-color", "move.tfplan")
			if !strings.Contains(out, "0 added, 1 changed, 0 destroyed") {
				t.Errorf("the apply of the moves did more than one update:\n%s", out)
			}

			// The objects are the same, the webhook's secret is the service's, unchanged.
			moved := cli.state()
			for addr, name := range map[string]string{"videohost_webhook.hook": "hook", "videohost_live_stream.studio": "studio", "videohost_player_theme.brand": "brand"} {
				r, err := stateResource(moved, addr)
				if err != nil {
					t.Fatal(err)
				}
				if got := attrString(r, "id"); got != ids[name] {
					t.Errorf("%s has id %q, want restapi's %q", addr, got, ids[name])
				}
			}
			r, _ := stateResource(moved, "videohost_webhook.hook")
			now := env.Emu.Webhooks()
			if len(now) != 1 || now[0].SignatureSecret != hook.SignatureSecret {
				t.Errorf("the webhook's secret changed on the service, or it was replaced (%d webhooks)", len(now))
			}
			if attrString(r, "signature_secret") != hook.SignatureSecret {
				t.Error("the moved webhook's signature_secret is not the service's")
			}
			if n := env.Emu.RequestCount(http.MethodPost, "/webhooks"); n != 1 {
				t.Errorf("%d webhook creates, want restapi's 1", n)
			}
			if n := env.Emu.RequestCount(http.MethodDelete, ""); n != 0 {
				t.Errorf("%d deletes reached the service, want none", n)
			}
			ls, err := serviceClient(t, env).GetLiveStream(ctx, ids["studio"])
			if err != nil || ls.Name != "studio (managed by videohost)" {
				t.Errorf("the live stream on the service: %+v, %v; want it renamed in place", ls, err)
			}

			cli.run("plan", "-no-color", "-detailed-exitcode")
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

// state is the state of the directory, as terraform show -json gives it.
func (w *cliWorkdir) state() *tfjson.State {
	w.t.Helper()
	var s tfjson.State
	if err := json.Unmarshal([]byte(w.run("show", "-json")), &s); err != nil {
		w.t.Fatalf("terraform show -json: %v", err)
	}
	return &s
}

// plan is the saved plan file, as terraform show -json gives it.
func (w *cliWorkdir) plan(file string) *tfjson.Plan {
	w.t.Helper()
	var p tfjson.Plan
	if err := json.Unmarshal([]byte(w.run("show", "-json", file)), &p); err != nil {
		w.t.Fatalf("terraform show -json %s: %v", file, err)
	}
	return &p
}
