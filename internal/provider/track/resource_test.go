package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

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
		{"caption", "captions", testCaptionAddr, func(c *videohost.Client, ctx context.Context, v, l string, src videohost.UploadSource) error {
			_, err := c.UploadCaption(ctx, v, l, src)
			return err
		}},
		{"chapter", "chapters", "videohost_video_chapter.test", func(c *videohost.Client, ctx context.Context, v, l string, src videohost.UploadSource) error {
			_, err := c.UploadChapter(ctx, v, l, src)
			return err
		}},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			env, rec := newTrackEnv(t)
			videoID := newTestVideo(t, env)
			ours := webVTT("Declared " + tc.kind + ".")
			config := trackConfig(env, tc.kind, videoID, "en", tempFile(t, t.TempDir(), "en.vtt", ours))
			path := trackPath(videoID, tc.collection, "en")
			accTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{
					{
						Config:            config,
						ConfigStateChecks: []statecheck.StateCheck{holdsUpload(env, rec, path, ours, 1)},
					},
					{
						PreConfig: func() {
							outside := webVTT("Uploaded outside Terraform.")
							if err := tc.upload(serviceClient(t, env), t.Context(), videoID, "en", videohost.UploadSource{
								Name: "en.vtt", Reader: strings.NewReader(outside), Size: int64(len(outside)),
							}); err != nil {
								t.Fatal(err)
							}
						},
						Config: config,
						ConfigPlanChecks: resource.ConfigPlanChecks{
							PreApply: []plancheck.PlanCheck{
								plancheck.ExpectResourceAction(tc.addr, plancheck.ResourceActionUpdate),
								plancheck.ExpectKnownValue(tc.addr, tfjsonpath.New("source_sha256"), knownvalue.StringExact(sha256Hex(ours))),
								plancheck.ExpectUnknownValue(tc.addr, tfjsonpath.New("src")),
							},
							PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
						},
						ConfigStateChecks: []statecheck.StateCheck{
							statecheck.ExpectKnownValue(tc.addr, tfjsonpath.New("source_sha256"), knownvalue.StringExact(sha256Hex(ours))),
							// Ours, the one outside Terraform, then ours again.
							holdsUpload(env, rec, path, ours, 3),
						},
					},
				},
			})
		})
	}
}
