package videocaption_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// TestAccVideoCaptionIdentity: with Terraform 1.12 and later a caption records its identity
// (video_id and language), and an import block by that identity plans one upload in place.
func TestAccVideoCaptionIdentity(t *testing.T) {
	env, _ := acctest.NewTrackEnv(t)
	videoID := acctest.NewTestVideo(t, env)
	file := acctest.TempFile(t, t.TempDir(), "en.vtt", acctest.WebVTT("Hello."))
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		Steps: []resource.TestStep{
			{
				Config: acctest.TrackConfig(env, "caption", videoID, "en", file, "default", "true"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectIdentity(acctest.TestCaptionAddr, map[string]knownvalue.Check{
						"video_id": knownvalue.StringExact(videoID), "language": knownvalue.StringExact("en"),
					}),
				},
			},
			{
				ResourceName:       acctest.TestCaptionAddr,
				ImportState:        true,
				ImportStateKind:    resource.ImportBlockWithResourceIdentity,
				ExpectNonEmptyPlan: true, // the service keeps no hash: one upload in place
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(acctest.TestCaptionAddr, plancheck.ResourceActionUpdate),
				}},
			},
		},
	})
}

// TestAccVideoCaptionQuery: with Terraform 1.14 and later terraform query lists the captions
// and chapters of a video, managed by the configuration or not.
func TestAccVideoCaptionQuery(t *testing.T) {
	env, _ := acctest.NewTrackEnv(t)
	c := acctest.ServiceClient(t, env)
	videoID := acctest.NewTestVideo(t, env)
	outside := acctest.WebVTT("Hallo.")
	if _, err := c.UploadCaption(t.Context(), videoID, "de", videohost.UploadSource{
		Name: "de.vtt", Reader: strings.NewReader(outside), Size: int64(len(outside)),
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UploadChapter(t.Context(), videoID, "de", videohost.UploadSource{
		Name: "de.vtt", Reader: strings.NewReader(outside), Size: int64(len(outside)),
	}); err != nil {
		t.Fatal(err)
	}
	file := acctest.TempFile(t, t.TempDir(), "en.vtt", acctest.WebVTT("Hello."))
	config := acctest.TrackConfig(env, "caption", videoID, "en", file, "default", "true")
	query := fmt.Sprintf(`
list "videohost_video_caption" "all" {
  provider         = videohost
  include_resource = true
  config {
    video_id = %[1]q
  }
}

list "videohost_video_chapter" "all" {
  provider = videohost
  config {
    video_id = %[1]q
  }
}
`, videoID)
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		Steps: []resource.TestStep{
			{Config: config},
			{
				Query:  true,
				Config: query,
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("videohost_video_caption.all", 2),
					querycheck.ExpectLength("videohost_video_chapter.all", 1),
					querycheck.ExpectIdentity("videohost_video_chapter.all", map[string]knownvalue.Check{
						"video_id": knownvalue.StringExact(videoID), "language": knownvalue.StringExact("de"),
					}),
					querycheck.ExpectResourceKnownValues("videohost_video_caption.all",
						queryfilter.ByResourceIdentity(map[string]knownvalue.Check{
							"video_id": knownvalue.StringExact(videoID), "language": knownvalue.StringExact("en"),
						}),
						[]querycheck.KnownValueCheck{
							{Path: tfjsonpath.New("default"), KnownValue: knownvalue.Bool(true)},
							{Path: tfjsonpath.New("language_name"), KnownValue: knownvalue.StringExact("English")},
						}),
				},
			},
		},
	})
}
