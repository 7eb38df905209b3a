package track_test

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// TestAccTrackReplacedOutside: a caption's or chapter's file uploaded again outside Terraform
// (its address on the service changes with every upload) is drift. The plan is an in-place
// update that uploads the configured file again, never a replacement; after it the service
// holds the configured file and the next plan is empty.
func TestAccTrackReplacedOutside(t *testing.T) {
	for _, tc := range []struct {
		kind, collection, addr string
		upload                 func(*videohost.Client, context.Context, string, string, videohost.UploadSource) error
	}{
		{"caption", "captions", acctest.TestCaptionAddr, func(c *videohost.Client, ctx context.Context, v, l string, src videohost.UploadSource) error {
			_, err := c.UploadCaption(ctx, v, l, src)
			return err
		}},
		{"chapter", "chapters", "videohost_video_chapter.test", func(c *videohost.Client, ctx context.Context, v, l string, src videohost.UploadSource) error {
			_, err := c.UploadChapter(ctx, v, l, src)
			return err
		}},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			env, rec := acctest.NewTrackEnv(t)
			videoID := acctest.NewTestVideo(t, env)
			ours := acctest.WebVTT("Declared " + tc.kind + ".")
			config := acctest.TrackConfig(env, tc.kind, videoID, "en", acctest.TempFile(t, t.TempDir(), "en.vtt", ours))
			path := acctest.TrackPath(videoID, tc.collection, "en")
			acctest.AccTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{
					{
						Config:            config,
						ConfigStateChecks: []statecheck.StateCheck{acctest.HoldsUpload(env, rec, path, ours, 1)},
					},
					{
						PreConfig: func() {
							outside := acctest.WebVTT("Uploaded outside Terraform.")
							if err := tc.upload(acctest.ServiceClient(t, env), t.Context(), videoID, "en", videohost.UploadSource{
								Name: "en.vtt", Reader: strings.NewReader(outside), Size: int64(len(outside)),
							}); err != nil {
								t.Fatal(err)
							}
						},
						Config: config,
						ConfigPlanChecks: resource.ConfigPlanChecks{
							PreApply: []plancheck.PlanCheck{
								plancheck.ExpectResourceAction(tc.addr, plancheck.ResourceActionUpdate),
								plancheck.ExpectKnownValue(tc.addr, tfjsonpath.New("source_sha256"), knownvalue.StringExact(acctest.Sha256Hex(ours))),
								plancheck.ExpectUnknownValue(tc.addr, tfjsonpath.New("src")),
							},
							PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
						},
						ConfigStateChecks: []statecheck.StateCheck{
							statecheck.ExpectKnownValue(tc.addr, tfjsonpath.New("source_sha256"), knownvalue.StringExact(acctest.Sha256Hex(ours))),
							// Ours, the one outside Terraform, then ours again.
							acctest.HoldsUpload(env, rec, path, ours, 3),
						},
					},
				},
			})
		})
	}
}
