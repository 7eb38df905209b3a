package video_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// summaryPartsConfig is two videos: "first" asks for a summary of parts firstParts at its
// creation; "later" asks for one of parts laterParts, when laterParts is not "".
func summaryPartsConfig(env *acctest.AccEnv, firstParts, laterParts string) string {
	later := ""
	if laterParts != "" {
		later = "transcript_summary = true\n  transcript_summary_attributes = " + laterParts
	}
	return env.ProviderConfig("") + fmt.Sprintf(`
resource "videohost_video" "first" {
  title                         = %[3]s
  source_url                    = "https://media.example.test/first.mp4"
  transcript_summary            = true
  transcript_summary_attributes = %[1]s
}

resource "videohost_video" "later" {
  title      = %[4]s
  source_url = "https://media.example.test/later.mp4"
  %[2]s
}
`, firstParts, later, acctest.Hcl(env.Name("first")), acctest.Hcl(env.Name("later")))
}

// summaryPartsAre checks the parts of the summary that the service made of video *id.
func summaryPartsAre(t *testing.T, env *acctest.AccEnv, id *string, abstract, takeaways bool) statecheck.StateCheck {
	client := acctest.ServiceClient(t, env)
	return acctest.ServiceCheckFunc(func(ctx context.Context) error {
		found, err := client.ListSummaries(ctx, videohost.SummaryFilter{VideoID: *id})
		if err != nil || len(found) != 1 {
			return fmt.Errorf("the summaries of video %s are %v (%v), want one", *id, found, err)
		}
		src, err := client.GetSummarySource(ctx, found[0].ID)
		if err != nil {
			return err
		}
		if (src.Abstract != "") != abstract || (len(src.Takeaways) > 0) != takeaways {
			return fmt.Errorf("the summary of video %s is %+v, want an abstract %t and takeaways %t", *id, src, abstract, takeaways)
		}
		return nil
	})
}

// TestAccVideoTranscriptSummaryAttributes: transcript_summary_attributes is sent at creation
// and in an update, and the summary that transcript_summary makes has only the parts named;
// the state keeps what the configuration gave (the service never shows it), and a part the
// service does not know is refused at plan time.
func TestAccVideoTranscriptSummaryAttributes(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	var first, later string
	parts := tfjsonpath.New("transcript_summary_attributes")
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      summaryPartsConfig(env, `["abstract", "chapters"]`, ""),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Invalid Attribute Value Match.*transcript_summary_attributes.*value must be\s+one\s+of:.*got: "chapters"`),
			},
			{
				Config: summaryPartsConfig(env, `["abstract"]`, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					acctest.IdOf("videohost_video.first", &first), acctest.IdOf("videohost_video.later", &later),
					statecheck.ExpectKnownValue("videohost_video.first", parts, knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("abstract")})),
					statecheck.ExpectKnownValue("videohost_video.later", parts, knownvalue.Null()),
					summaryPartsAre(t, env, &first, true, false),
				},
			},
			{
				Config: summaryPartsConfig(env, `["abstract"]`, `["takeaways"]`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("videohost_video.later", plancheck.ResourceActionUpdate),
						plancheck.ExpectResourceAction("videohost_video.first", plancheck.ResourceActionNoop),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("videohost_video.later", parts, knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("takeaways")})),
					summaryPartsAre(t, env, &later, false, true),
				},
			},
		},
	})
}
