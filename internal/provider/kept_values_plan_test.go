package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// The values the service sets once, at creation (ids, stream keys, asset addresses, creation
// times), are planned as what the state holds in an update, not as "known after apply": a plan
// that shows them unknown tells the reviewer they may change, and makes whatever depends on them
// (a live stream's player_id, an output) unknown too. What does change on every update
// (updated_at) is the counter-check: it must show unknown, or the checks would not see unknowns.

// keptInUpdate checks, in the plan of an update of addr, that each attribute of kept is known
// (ExpectKnownValue: a value that is known after apply has no known value to match) and that
// updated_at is unknown.
func keptInUpdate(addr string, kept map[string]knownvalue.Check) []plancheck.PlanCheck {
	checks := []plancheck.PlanCheck{
		plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
		plancheck.ExpectUnknownValue(addr, tfjsonpath.New("updated_at")),
	}
	for name, want := range kept {
		checks = append(checks, plancheck.ExpectKnownValue(addr, tfjsonpath.New(name), want))
	}
	return checks
}

func TestAccLiveStreamUpdateKeepsCreatedValues(t *testing.T) {
	env := newAccEnv(t, emulator.Options{})
	config := func(name string) string {
		return env.providerConfig("") + `
resource "videohost_live_stream" "test" {
  name = ` + hcl(name) + `
}
`
	}
	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config("before")},
			{
				Config: config("after"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: keptInUpdate("videohost_live_stream.test", map[string]knownvalue.Check{
					"id":         knownvalue.NotNull(),
					"stream_key": knownvalue.NotNull(),
					"created_at": knownvalue.NotNull(),
					"assets": knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"hls": knownvalue.NotNull(), "player": knownvalue.NotNull(), "iframe": knownvalue.NotNull(), "thumbnail": knownvalue.NotNull(),
					}),
				})},
			},
		},
	})
}

func TestAccPlayerThemeUpdateKeepsCreatedValues(t *testing.T) {
	env := newAccEnv(t, emulator.Options{})
	config := func(text string) string {
		return env.providerConfig("") + `
resource "videohost_player_theme" "test" {
  name = "brand"
  text = ` + hcl(text) + `
}
`
	}
	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config("rgba(1, 2, 3, 1)")},
			{
				Config: config("rgba(4, 5, 6, 1)"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: keptInUpdate("videohost_player_theme.test", map[string]knownvalue.Check{
					"id":         knownvalue.NotNull(),
					"created_at": knownvalue.NotNull(),
					// No logo: the theme has no assets, and the plan knows it.
					"assets": knownvalue.Null(),
				})},
			},
		},
	})
}
