package livestream_test

// Tests of the videohost_live_stream_complete action.

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// TestAccLiveStreamCompleteAction ends a live stream's broadcast from an action_trigger after
// an update: the emulator's stream broadcasts before the apply and no longer after it, with
// wait left to its default and with wait = false; one complete is sent per update.
func TestAccLiveStreamCompleteAction(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	env.RequireEmulatorFor(t, "it starts a broadcast through the emulator's control API")
	acctest.RequireCLIFeature(t, acctest.FeatureActions)
	var id string
	config := func(name, wait string) string {
		return env.ProviderConfig("") + fmt.Sprintf(`
action "videohost_live_stream_complete" "studio" {
  config {
    live_stream_id = videohost_live_stream.studio.id
    %s
  }
}

resource "videohost_live_stream" "studio" {
  name = %s

  lifecycle {
    action_trigger {
      events  = [after_update]
      actions = [action.videohost_live_stream_complete.studio]
    }
  }
}
`, wait, acctest.Hcl(name))
	}
	broadcasting := func(want bool) func(context.Context) error {
		return func(ctx context.Context) error {
			ls, err := acctest.ServiceClient(t, env).GetLiveStream(ctx, id)
			if err != nil {
				return err
			}
			if ls.Broadcasting != want {
				return fmt.Errorf("live stream %s: broadcasting %v, want %v", id, ls.Broadcasting, want)
			}
			return nil
		}
	}
	start := func() {
		if err := env.Emu.SetBroadcasting(id, true); err != nil {
			t.Fatal(err)
		}
	}
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				// Created: the action runs only after updates.
				Config:            config(env.Name("studio"), ""),
				ConfigStateChecks: []statecheck.StateCheck{acctest.IdOf("videohost_live_stream.studio", &id)},
			},
			{
				PreConfig:         start,
				Config:            config(env.Name("studio-live"), ""),
				ConfigStateChecks: []statecheck.StateCheck{acctest.ServiceCheckFunc(broadcasting(false))},
			},
			{
				PreConfig:         start,
				Config:            config(env.Name("studio-live-again"), "wait = false"),
				ConfigStateChecks: []statecheck.StateCheck{acctest.ServiceCheckFunc(broadcasting(false))},
			},
		},
	})
	if n := env.RequestCount(http.MethodPut, "/live-streams/"+id+"/complete"); n != 2 {
		t.Errorf("%d PUT /live-streams/%s/complete, want one per update", n, id)
	}
}

// TestAccLiveStreamCompleteActionIdle runs the action where no encoder broadcasts, as against a
// real endpoint: from an action_trigger after an update, the complete is sent and the apply
// ends with the stream not broadcasting; on an unknown id the action fails on live_stream_id.
// It runs against any endpoint; starting a broadcast needs an encoder (the emulator's control
// API in TestAccLiveStreamCompleteAction).
func TestAccLiveStreamCompleteActionIdle(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	acctest.RequireCLIFeature(t, acctest.FeatureActions)
	var id string
	config := func(name, liveStreamID string) string {
		return env.ProviderConfig("") + fmt.Sprintf(`
action "videohost_live_stream_complete" "studio" {
  config {
    live_stream_id = %s
  }
}

resource "videohost_live_stream" "studio" {
  name = %s

  lifecycle {
    action_trigger {
      events  = [after_update]
      actions = [action.videohost_live_stream_complete.studio]
    }
  }
}
`, liveStreamID, acctest.Hcl(name))
	}
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:            config(env.Name("idle"), "videohost_live_stream.studio.id"),
				ConfigStateChecks: []statecheck.StateCheck{acctest.IdOf("videohost_live_stream.studio", &id)},
			},
			{
				Config: config(env.Name("idle-renamed"), "videohost_live_stream.studio.id"),
				ConfigStateChecks: []statecheck.StateCheck{acctest.ServiceCheckFunc(func(ctx context.Context) error {
					ls, err := acctest.ServiceClient(t, env).GetLiveStream(ctx, id)
					if err == nil && ls.Broadcasting {
						err = fmt.Errorf("live stream %s broadcasts after the action", id)
					}
					return err
				})},
			},
			{
				Config:      config(env.Name("idle"), acctest.Hcl("li0000000000000000none")),
				ExpectError: regexp.MustCompile(`Live Stream Not Found`),
			},
		},
	})
	if n := env.RequestCount(http.MethodPut, "/live-streams/"+id+"/complete"); n != 1 {
		t.Errorf("%d PUT /live-streams/%s/complete, want one, after the update", n, id)
	}
}

// The actions over the protocol, as Terraform 1.14 calls them, so that these run in every go
// test whatever CLI is on PATH (the acceptance tests of the actions need Terraform 1.14).

// TestLiveStreamCompleteWaits: the action reads the live stream until it no longer broadcasts,
// saying so while it waits. The service here takes the complete and ends the broadcast only
// when the stream has been read once after it; with wait = false the stream is not read.
func TestLiveStreamCompleteWaits(t *testing.T) {
	var completes, readsAfter atomic.Int32
	var id string
	emu, baseURL := acctest.ServeEmulator(t, emulator.Options{}, func(e *emulator.Emulator) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch {
			case r.Method == http.MethodPut && strings.HasSuffix(r.URL.Path, "/complete"):
				completes.Add(1)
				w.WriteHeader(http.StatusAccepted)
				return
			case r.Method == http.MethodGet && r.URL.Path == "/live-streams/"+id && completes.Load() > 0:
				if readsAfter.Add(1) == 2 {
					if err := e.SetBroadcasting(id, false); err != nil {
						t.Error(err)
					}
				}
			}
			e.ServeHTTP(w, r)
		})
	})
	key := emu.APIKeys()[0]
	c, err := videohost.New(videohost.Config{BaseURL: baseURL, APIKey: key, AuthScheme: videohost.AuthBasic, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	ls, err := c.CreateLiveStream(t.Context(), videohost.CreateLiveStreamInput{Name: "studio"})
	if err != nil {
		t.Fatal(err)
	}
	id = ls.ID
	if err := emu.SetBroadcasting(id, true); err != nil {
		t.Fatal(err)
	}
	p := acctest.NewProtoServer(t, baseURL, key, map[string]tftypes.Value{"auth_scheme": acctest.Str("basic")})

	progress, diags := p.Invoke("videohost_live_stream_complete", map[string]tftypes.Value{"live_stream_id": acctest.Str(id)})
	acctest.RequireNoErrors(t, "InvokeAction", diags)
	text := strings.Join(progress, "\n")
	for _, want := range []string{"Asking the service to end the broadcast of live stream " + id, "still broadcasts", "no longer broadcasts"} {
		if !strings.Contains(text, want) {
			t.Errorf("progress does not say %q:\n%s", want, text)
		}
	}
	if n := readsAfter.Load(); n != 2 {
		t.Errorf("the live stream was read %d times after the complete, want 2 (broadcasting, then not)", n)
	}

	if err := emu.SetBroadcasting(id, true); err != nil {
		t.Fatal(err)
	}
	readsAfter.Store(0)
	progress, diags = p.Invoke("videohost_live_stream_complete", map[string]tftypes.Value{"live_stream_id": acctest.Str(id), "wait": tftypes.NewValue(tftypes.Bool, false)})
	acctest.RequireNoErrors(t, "InvokeAction", diags)
	if n := readsAfter.Load(); n != 0 || completes.Load() != 2 || !strings.Contains(strings.Join(progress, "\n"), "not waiting") {
		t.Errorf("wait = false: %d completes, %d reads after; progress %q", completes.Load(), n, progress)
	}
}
