package videosummary_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// TestVideoSummaryIdentityAndListProtocol imports a summary by identity (its text read from its
// source) and lists the summaries for terraform query, all of them and those of one video.
func TestVideoSummaryIdentityAndListProtocol(t *testing.T) {
	emu, baseURL := acctest.ServeEmulator(t, emulator.Options{}, nil)
	p := acctest.NewProtoServer(t, baseURL, emu.APIKeys()[0], nil)
	c := acctest.ServiceClient(t, &acctest.AccEnv{BaseURL: baseURL, APIKey: emu.APIKeys()[0], Emu: emu})
	yes := true
	var videoIDs []string
	for _, title := range []string{"one", "two"} {
		v, err := c.CreateVideo(t.Context(), videohost.VideoCreate{Title: acctest.RunName(t, title), TranscriptSummary: &yes})
		if err != nil {
			t.Fatal(err)
		}
		videoIDs = append(videoIDs, v.ID)
	}
	found, err := c.ListSummaries(t.Context(), videohost.SummaryFilter{VideoID: videoIDs[0]})
	if err != nil || len(found) != 1 {
		t.Fatalf("the summary of transcript_summary: %v, %v", found, err)
	}
	id := found[0].ID
	state, identity, diags := p.ImportResource("videohost_video_summary", "", map[string]tftypes.Value{"id": acctest.Str(id)})
	acctest.RequireNoErrors(t, "ImportResourceState", diags)
	if acctest.StringOf(state["id"]) != id || acctest.StringOf(identity["id"]) != id {
		t.Errorf("import by identity: state id %q, identity %q, want %q", acctest.StringOf(state["id"]), acctest.StringOf(identity["id"]), id)
	}
	state, _, diags = p.Read("videohost_video_summary", map[string]tftypes.Value{"id": acctest.Str(id)})
	acctest.RequireNoErrors(t, "ReadResource", diags)
	if acctest.StringOf(state["video_id"]) != videoIDs[0] || acctest.StringOf(state["origin"]) != "auto" || acctest.StringOf(state["abstract"]) == "" {
		t.Errorf("read after import: video %q, origin %q, abstract %q", acctest.StringOf(state["video_id"]), acctest.StringOf(state["origin"]), acctest.StringOf(state["abstract"]))
	}

	all := p.List(acctest.ListQuery{TypeName: "videohost_video_summary", IncludeResource: true, Limit: 100})
	if len(all) != 2 {
		t.Fatalf("%d results, want 2", len(all))
	}
	for _, r := range all {
		acctest.RequireNoErrors(t, "ListResource", r.Diagnostics)
		if acctest.StringOf(r.Resource["id"]) != acctest.StringOf(r.Identity["id"]) || r.DisplayName == "" {
			t.Errorf("result %q (%q): resource id %q", acctest.StringOf(r.Identity["id"]), r.DisplayName, acctest.StringOf(r.Resource["id"]))
		}
	}
	one := p.List(acctest.ListQuery{TypeName: "videohost_video_summary", Limit: 100, Config: map[string]tftypes.Value{"video_id": acctest.Str(videoIDs[1])}})
	if len(one) != 1 || one[0].DisplayName != "summary of video "+videoIDs[1]+" (auto, completed)" {
		t.Errorf("the video_id filter gave %d results: %+v", len(one), one)
	}
}

// TestAccVideoSummaryQuery runs terraform query over the summaries of one video made outside
// Terraform (its transcript_summary generated one), beside a summary written by the
// configuration for another video. The lists are filtered by video, so that it holds in a
// workspace that other tests use at the same time. terraform query needs Terraform 1.14.
func TestAccVideoSummaryQuery(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	acctest.RequireCLIFeature(t, acctest.FeatureQuery)
	yes := true
	generated := acctest.CreateVideoOutside(t, env, videohost.VideoCreate{Title: env.Name("queried"), TranscriptSummary: &yes})
	written := acctest.CreateVideoOutside(t, env, videohost.VideoCreate{Title: env.Name("written")})
	found, err := acctest.ServiceClient(t, env).ListSummaries(t.Context(), videohost.SummaryFilter{VideoID: generated})
	if err != nil || len(found) != 1 {
		t.Fatalf("the summary of transcript_summary: %v, %v", found, err)
	}
	query := fmt.Sprintf(`
list "videohost_video_summary" "generated" {
  provider         = videohost
  include_resource = true
  config {
    video_id = %q
  }
}

list "videohost_video_summary" "written" {
  provider = videohost
  config {
    video_id = %q
  }
}
`, generated, written)
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		Steps: []resource.TestStep{
			{Config: summaryConfig(env, written, `abstract = "Written by hand."`)},
			{
				Query:  true,
				Config: query,
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("videohost_video_summary.generated", 1),
					querycheck.ExpectLength("videohost_video_summary.written", 1),
					querycheck.ExpectIdentity("videohost_video_summary.generated", map[string]knownvalue.Check{
						"id": knownvalue.StringExact(found[0].ID),
					}),
					querycheck.ExpectResourceKnownValues("videohost_video_summary.generated",
						queryfilter.ByResourceIdentity(map[string]knownvalue.Check{"id": knownvalue.StringExact(found[0].ID)}),
						[]querycheck.KnownValueCheck{
							{Path: tfjsonpath.New("video_id"), KnownValue: knownvalue.StringExact(generated)},
							{Path: tfjsonpath.New("origin"), KnownValue: knownvalue.StringExact("auto")},
						}),
					querycheck.ExpectResourceDisplayName("videohost_video_summary.written",
						queryfilter.ByDisplayName(knownvalue.StringRegexp(regexp.MustCompile(`^summary of video `+written+` \(api, `))),
						knownvalue.StringRegexp(regexp.MustCompile(`\(api, completed\)$`))),
				},
			},
		},
	})
}
