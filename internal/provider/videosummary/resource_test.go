package videosummary_test

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

const testSummaryAddr = "videohost_video_summary.test"

// summaryConfig is a videohost_video_summary of videoID with the given attributes besides.
func summaryConfig(env *acctest.AccEnv, videoID string, attrs string) string {
	return env.ProviderConfig("") + fmt.Sprintf(`
resource "videohost_video_summary" "test" {
  video_id = %s
  %s
}
`, acctest.Hcl(videoID), attrs)
}

// summaryTextOnService checks that the service's source of the summary in the state holds
// abstract and takeaways.
func summaryTextOnService(t *testing.T, env *acctest.AccEnv, id *string, abstract string, takeaways ...string) statecheck.StateCheck {
	return acctest.OnService(acctest.ServiceClient(t, env).GetSummarySource, id, func(s videohost.SummarySource) error {
		if s.Abstract != abstract || !slices.Equal(s.Takeaways, takeaways) {
			return fmt.Errorf("service holds %q %q, want %q %q", s.Abstract, s.Takeaways, abstract, takeaways)
		}
		return nil
	})
}

// noSummaryOf is a CheckDestroy: video videoID has no summary left.
func noSummaryOf(t *testing.T, env *acctest.AccEnv, videoID string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		found, err := acctest.ServiceClient(t, env).ListSummaries(context.Background(), videohost.SummaryFilter{VideoID: videoID})
		if err != nil || len(found) != 0 {
			return fmt.Errorf("summaries of %s after destroy: %v, %v", videoID, found, err)
		}
		return nil
	}
}

// TestAccVideoSummary writes a summary's text, imports it, changes the abstract in place, sees
// the text changed outside Terraform and writes it back, and destroys it.
func TestAccVideoSummary(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	videoID := acctest.CreateVideoOutside(t, env, videohost.VideoCreate{Title: env.Name("lecture")})
	var id string
	first := `abstract = "Quantum theory, explained."
  takeaways = ["It is complicated.", "Cats are involved."]`
	second := `abstract = "Quantum theory, explained again."
  takeaways = ["It is complicated.", "Cats are involved."]`
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		CheckDestroy:             noSummaryOf(t, env, videoID),
		Steps: []resource.TestStep{
			{
				Config: summaryConfig(env, videoID, first),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					acctest.IdOf(testSummaryAddr, &id),
					statecheck.ExpectKnownValue(testSummaryAddr, tfjsonpath.New("origin"), knownvalue.StringExact("api")),
					statecheck.ExpectKnownValue(testSummaryAddr, tfjsonpath.New("source_status"), knownvalue.StringExact("completed")),
					statecheck.ExpectKnownValue(testSummaryAddr, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^summary_`))),
					summaryTextOnService(t, env, &id, "Quantum theory, explained.", "It is complicated.", "Cats are involved."),
				},
			},
			{ResourceName: testSummaryAddr, ImportState: true, ImportStateVerify: true},
			{
				Config: summaryConfig(env, videoID, second),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(testSummaryAddr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					summaryTextOnService(t, env, &id, "Quantum theory, explained again.", "It is complicated.", "Cats are involved."),
				},
			},
			{
				// The text is corrected in the dashboard: the plan writes the configuration's back.
				PreConfig: func() {
					other := "Changed outside Terraform."
					if _, err := acctest.ServiceClient(t, env).UpdateSummarySource(t.Context(), id, videohost.SummarySourceUpdate{Abstract: &other}); err != nil {
						t.Fatal(err)
					}
				},
				Config: summaryConfig(env, videoID, second),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testSummaryAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(testSummaryAddr, tfjsonpath.New("abstract"), knownvalue.StringExact("Quantum theory, explained again.")),
					},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					summaryTextOnService(t, env, &id, "Quantum theory, explained again.", "It is complicated.", "Cats are involved."),
				},
			},
		},
	})
}

// TestAccVideoSummary_generated has the service generate a summary, then refuses a summary of a
// video whose transcript_summary already made one, naming the summary to import; and refuses a
// written summary without text at plan time.
func TestAccVideoSummary_generated(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	videoID := acctest.CreateVideoOutside(t, env, videohost.VideoCreate{Title: env.Name("Generated")})
	yes := true
	withSummary := acctest.CreateVideoOutside(t, env, videohost.VideoCreate{Title: env.Name("has-one"), TranscriptSummary: &yes})
	existing, err := acctest.ServiceClient(t, env).ListSummaries(t.Context(), videohost.SummaryFilter{VideoID: withSummary})
	if err != nil || len(existing) != 1 {
		t.Fatalf("the summary of transcript_summary: %v, %v", existing, err)
	}
	again := fmt.Sprintf("resource \"videohost_video_summary\" \"again\" {\n  video_id = %s\n  origin   = \"auto\"\n}\n", acctest.Hcl(withSummary))
	var id string
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		CheckDestroy:             noSummaryOf(t, env, videoID),
		Steps: []resource.TestStep{
			{
				Config:      summaryConfig(env, videoID, ""),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`Missing Video Summary Text`),
			},
			{
				Config: summaryConfig(env, videoID, `origin = "auto"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					acctest.IdOf(testSummaryAddr, &id),
					statecheck.ExpectKnownValue(testSummaryAddr, tfjsonpath.New("abstract"), knownvalue.StringRegexp(regexp.MustCompile(`Generated`))),
					statecheck.ExpectKnownValue(testSummaryAddr, tfjsonpath.New("takeaways"), knownvalue.ListSizeExact(3)),
				},
			},
			{
				Config:      summaryConfig(env, videoID, `origin = "auto"`) + again,
				ExpectError: regexp.MustCompile(`(?s)Video Summary Already Exists.*` + existing[0].ID),
			},
			{
				// The summary transcript_summary made is imported, as the error says, and kept.
				Config:             summaryConfig(env, videoID, `origin = "auto"`) + again,
				ResourceName:       "videohost_video_summary.again",
				ImportState:        true,
				ImportStateId:      existing[0].ID,
				ImportStatePersist: true,
			},
			{
				Config: summaryConfig(env, videoID, `origin = "auto"`) + again,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("videohost_video_summary.again", tfjsonpath.New("video_id"), knownvalue.StringExact(withSummary)),
					statecheck.ExpectKnownValue("videohost_video_summary.again", tfjsonpath.New("takeaways"), knownvalue.ListSizeExact(3)),
				},
			},
		},
	})
}

// TestAccSummariesDataSource lists the summaries of its own video by origin, so that it holds
// in a workspace that other tests (or people) use at the same time.
func TestAccSummariesDataSource(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	yes := true
	auto := acctest.CreateVideoOutside(t, env, videohost.VideoCreate{Title: env.Name("a"), TranscriptSummary: &yes})
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: env.ProviderConfig("") + fmt.Sprintf(`
data "videohost_summaries" "auto" {
  origin   = "auto"
  video_id = %[1]q
}
data "videohost_summaries" "written" {
  origin   = "api"
  video_id = %[1]q
}
`, auto),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.videohost_summaries.auto", tfjsonpath.New("summaries").AtSliceIndex(0).AtMapKey("video_id"), knownvalue.StringExact(auto)),
				statecheck.ExpectKnownValue("data.videohost_summaries.auto", tfjsonpath.New("summaries"), knownvalue.ListSizeExact(1)),
				statecheck.ExpectKnownValue("data.videohost_summaries.written", tfjsonpath.New("summaries"), knownvalue.ListSizeExact(0)),
			},
		}},
	})
}

// TestAccVideoSummary_storedThen500: every create is stored and answered 500. The summary the
// first attempt stored is adopted (a video holds one, so a second POST would be a 409), the
// service holds exactly it, and the next plan is empty.
func TestAccVideoSummary_storedThen500(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{Limits: acctest.RaisedLimits})
	env.RequireEmulatorFor(t, "it injects faults: every create stored, then answered 500")
	videoID := acctest.CreateVideoOutside(t, env, videohost.VideoCreate{Title: env.Name("flaky")})
	cfg := summaryConfig(env, videoID, `abstract = "Written once."`)
	oneSummary := func(*terraform.State) error {
		found, err := acctest.ServiceClient(t, env).ListSummaries(context.Background(), videohost.SummaryFilter{VideoID: videoID})
		if err != nil || len(found) != 1 {
			return fmt.Errorf("summaries of the video: %v, %v; want exactly one", found, err)
		}
		return nil
	}
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		CheckDestroy:             noSummaryOf(t, env, videoID),
		Steps: []resource.TestStep{{
			PreConfig: func() { env.Emu.SetFaults(emulator.Faults{CommitThen500Rate: 1}) },
			Config:    cfg,
			Check:     oneSummary,
		}, {
			PreConfig:        func() { env.Emu.SetFaults(emulator.Faults{}) },
			Config:           cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			Check:            oneSummary,
		}},
	})
	if n := env.Emu.RequestCount("POST", "/summaries"); n != 1 {
		t.Errorf("%d POST /summaries; the stored summary must be adopted, not created again", n)
	}
}

// TestAccVideoSummaryFilledInBetweenPlanAndApply: a saved plan that writes a summary's
// takeaways, made while the summary had no abstract, applied after the service filled one in
// (as it does when it finishes generating a summary; here written through the public API between
// the plan and the apply, so that the order is the same every run), applies with no
// inconsistent result and records the abstract the service then holds, and the next plan is
// empty.
func TestAccVideoSummaryFilledInBetweenPlanAndApply(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	videoID := acctest.CreateVideoOutside(t, env, videohost.VideoCreate{Title: env.Name("lecture")})
	var id string
	const abstract = "Filled in by the service meanwhile."
	fill := acctest.PlanCheckFunc(func(*tfjson.Plan) error {
		a := abstract
		_, err := acctest.ServiceClient(t, env).UpdateSummarySource(t.Context(), id, videohost.SummarySourceUpdate{Abstract: &a})
		return err
	})
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		CheckDestroy:             noSummaryOf(t, env, videoID),
		Steps: []resource.TestStep{
			{
				Config: summaryConfig(env, videoID, `takeaways = ["First."]`),
				ConfigStateChecks: []statecheck.StateCheck{
					acctest.IdOf(testSummaryAddr, &id),
					statecheck.ExpectKnownValue(testSummaryAddr, tfjsonpath.New("abstract"), knownvalue.Null()),
				},
			},
			{
				Config: summaryConfig(env, videoID, `takeaways = ["First.", "Second."]`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testSummaryAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectUnknownValue(testSummaryAddr, tfjsonpath.New("abstract")),
						fill,
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testSummaryAddr, tfjsonpath.New("abstract"), knownvalue.StringExact(abstract)),
					summaryTextOnService(t, env, &id, abstract, "First.", "Second."),
				},
			},
		},
	})
}
