package provider

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/events"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// TestAccWebhookResourceOneListRefresh shows that refreshing N webhooks, and M live streams and
// M player themes, costs about one walk of each kind's list (ceil(N/100) pages) instead of one
// read per object: the resources read through the client's shared lists.
func TestAccWebhookResourceOneListRefresh(t *testing.T) {
	const n, m = 250, 120
	env := newAccEnv(t, emulator.Options{
		MaxWebhooks: n + 10,
		Limits:      emulator.Limits{Writes: 100000, Reads: 100000},
	})
	env.requireEmulator(t)

	// The webhooks exist before Terraform sees them; import blocks bring them in, which is much
	// faster than 250 creates.
	// The state shim of the testing framework handles count indexes but not for_each keys, so
	// the webhooks are a counted resource with one import block each.
	var urls, imports strings.Builder
	for i := range n {
		w, err := env.Emu.CreateWebhook(fmt.Sprintf("https://hooks.example.test/bulk/%d", i), []string{events.VideoSourceRecorded})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&urls, "    %s,\n", hcl(w.URL))
		fmt.Fprintf(&imports, "import {\n  to = videohost_webhook.bulk[%d]\n  id = %s\n}\n", i, hcl(w.WebhookID))
	}
	live := seedLiveObjects(t, env, m)
	config := env.providerConfig("") + live + `
locals {
  urls = [
` + urls.String() + `  ]
}

resource "videohost_webhook" "bulk" {
  count  = length(local.urls)
  url    = local.urls[count.index]
  events = ["video.source.recorded"]
}
` + imports.String()
	maxReads := (n+99)/100 + 1
	var before int
	liveKinds, liveBefore := []string{"/live-streams", "/players"}, map[string]int{}
	var start time.Time
	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				// One refreshing plan over the 250 webhooks, counted at the service.
				PreConfig: func() {
					before = env.Emu.RequestCount("GET", "/webhooks")
					for _, k := range liveKinds {
						liveBefore[k] = env.Emu.RequestCount("GET", k)
					}
					start = time.Now()
				},
				Config:   config,
				PlanOnly: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{
						planCheckFunc(func(p *tfjson.Plan) error {
							reads := env.Emu.RequestCount("GET", "/webhooks") - before
							t.Logf("a plan over %d webhooks sent %d GET /webhooks (bound %d; one read per resource would be %d); plan step took %s",
								n, reads, maxReads, n, time.Since(start).Round(100*time.Millisecond))
							if reads > maxReads {
								return fmt.Errorf("a plan over %d webhooks sent %d reads, want at most %d", n, reads, maxReads)
							}
							if reads == 0 {
								return fmt.Errorf("the plan read nothing: the refresh did not reach the service")
							}
							for _, k := range liveKinds {
								got, bound := env.Emu.RequestCount("GET", k)-liveBefore[k], pagesFor(m)+1
								t.Logf("the plan over %d of %s sent %d reads (bound %d)", m, k, got, bound)
								if got > bound || got == 0 {
									return fmt.Errorf("a plan over %d of %s sent %d reads, want 1 to %d", m, k, got, bound)
								}
							}
							if got := len(p.ResourceChanges); got != n+2*m {
								return fmt.Errorf("plan covers %d resources, want %d", got, n+2*m)
							}
							return nil
						}),
					},
				},
			},
		},
	})
}

// seedLiveObjects creates m live streams and m player themes through the client (faster than
// terraform's creates) and returns the configuration that imports them.
func seedLiveObjects(t *testing.T, env *accEnv, m int) string {
	t.Helper()
	c := serviceClient(t, env)
	var cfg strings.Builder
	cfg.WriteString(`
resource "videohost_live_stream" "bulk" {
  count = ` + fmt.Sprint(m) + `
  name  = "bulk-${count.index}"
}

resource "videohost_player_theme" "bulk" {
  count = ` + fmt.Sprint(m) + `
  name  = "bulk-${count.index}"
}
`)
	for i := range m {
		ls, err := c.CreateLiveStream(t.Context(), videohost.CreateLiveStreamInput{Name: fmt.Sprintf("bulk-%d", i)})
		if err != nil {
			t.Fatal(err)
		}
		th, err := c.CreatePlayerTheme(t.Context(), videohost.PlayerThemeInput{Name: videohost.Value(fmt.Sprintf("bulk-%d", i))})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&cfg, "import {\n  to = videohost_live_stream.bulk[%d]\n  id = %s\n}\n", i, hcl(ls.ID))
		fmt.Fprintf(&cfg, "import {\n  to = videohost_player_theme.bulk[%d]\n  id = %s\n}\n", i, hcl(th.ID))
	}
	return cfg.String()
}
