package video_test

import (
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// TestAccVideoFilledInBetweenPlanAndApply: a saved plan that updates a video, made while the
// service was still ingesting it (no language detected, not playable, no quality encoded), and
// applied once the service has filled it in, applies with no inconsistent result, records what
// the service then shows, and plans empty after. The emulator holds every video's ingest until
// the test finishes it between the plan and the apply (HoldEncoding, FinishEncoding), so the
// order is the one a pipeline waiting for approval meets, every run, whatever the machine's
// speed. The update is made by a change of the provider's default tags alone (the framework
// then plans the video's computed values as they were), of the video's own description, and of
// public (new asset addresses).
func TestAccVideoFilledInBetweenPlanAndApply(t *testing.T) {
	cases := []struct {
		name         string
		before, then [2]string // the provider block's extra attributes and the video's, before and then
		unknown      []string  // attributes the update's plan must leave unknown
	}{
		{
			name:    "default_tags",
			before:  [2]string{`default_tags = ["team-a"]`, ""},
			then:    [2]string{`default_tags = ["team-b"]`, ""},
			unknown: []string{"language", "updated_at"},
		},
		{
			name:    "description",
			before:  [2]string{"", ""},
			then:    [2]string{"", "renamed"},
			unknown: []string{"language", "updated_at"},
		},
		{
			name:    "public",
			before:  [2]string{"", ""},
			then:    [2]string{"", "private"},
			unknown: []string{"language", "updated_at", "assets"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := acctest.NewAccEnv(t, emulator.Options{HoldEncoding: true})
			env.RequireEmulatorFor(t, "it chooses when the service finishes ingesting the video (HoldEncoding)")
			const addr = "videohost_video.a"
			var id string
			config := func(provider, change string) string {
				attrs := []string{}
				switch change {
				case "renamed":
					attrs = append(attrs, "description", acctest.Hcl("renamed while ingesting"))
				case "private":
					attrs = append(attrs, "public", "false")
				}
				return env.ProviderConfig(provider) + labelsVideo(env, "a", attrs...)
			}
			unknown := []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)}
			for _, a := range tc.unknown {
				unknown = append(unknown, plancheck.ExpectUnknownValue(addr, tfjsonpath.New(a)))
			}
			// Between the plan and its apply, the service detects the language and encodes the
			// video: the plan checks run after terraform plan and before terraform apply.
			finish := acctest.PlanCheckFunc(func(*tfjson.Plan) error {
				return env.Emu.FinishEncoding(id)
			})
			acctest.AccTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{
					{
						Config: config(tc.before[0], tc.before[1]),
						ConfigStateChecks: []statecheck.StateCheck{
							acctest.IdOf(addr, &id),
							statecheck.ExpectKnownValue(addr, tfjsonpath.New("language"), knownvalue.Null()),
							statecheck.ExpectKnownValue(addr, tfjsonpath.New("playable"), knownvalue.Bool(false)),
						},
					},
					{
						Config: config(tc.then[0], tc.then[1]),
						ConfigPlanChecks: resource.ConfigPlanChecks{
							PreApply:             append(unknown, finish),
							PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
						},
						ConfigStateChecks: []statecheck.StateCheck{
							statecheck.ExpectKnownValue(addr, tfjsonpath.New("language"), knownvalue.StringExact(emulator.DefaultDetectedLanguage)),
						},
					},
					{
						// The next run's refresh reads the status: the video is playable.
						Config: config(tc.then[0], tc.then[1]),
						ConfigStateChecks: []statecheck.StateCheck{
							statecheck.ExpectKnownValue(addr, tfjsonpath.New("playable"), knownvalue.Bool(true)),
						},
					},
				},
			})
		})
	}
}
