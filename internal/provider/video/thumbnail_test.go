package video_test

import (
	"context"
	"fmt"
	"os"
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

const testVideoThumbAddr = "videohost_video.thumb"

// videoThumbnailConfig is a private video (its addresses carry a new token at every read) with
// the given thumbnail attributes.
func videoThumbnailConfig(env *acctest.AccEnv, attrs string) string {
	return env.ProviderConfig("") + fmt.Sprintf(`
resource "videohost_video" "thumb" {
  title      = "with a thumbnail"
  public     = false
  source_url = "https://media.example.test/thumb.mp4"
  %s
}
`, attrs)
}

// videoThumbnailIs checks that the service's thumbnail of the video is the version'th upload.
func videoThumbnailIs(t *testing.T, env *acctest.AccEnv, id *string, version int) statecheck.StateCheck {
	return acctest.OnService(acctest.ServiceClient(t, env).GetVideo, id, func(v videohost.Video) error {
		if v.Assets == nil || !acctest.ThumbnailVersionRe(version).MatchString(v.Assets.Thumbnail) {
			return fmt.Errorf("the video's thumbnail is %+v, want upload %d", v.Assets, version)
		}
		return nil
	})
}

// uploadThumbnailOutside uploads a new image as the thumbnail of video id, as the dashboard would.
func uploadThumbnailOutside(t *testing.T, env *acctest.AccEnv, id string) {
	other := acctest.WriteJPEG(t, t.TempDir(), "other.jpg", 8, 8, 7)
	f, err := os.Open(other)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := acctest.ServiceClient(t, env).UploadVideoThumbnail(context.Background(), id,
		videohost.UploadSource{Name: "other.jpg", Reader: f, Size: st.Size()}); err != nil {
		t.Fatal(err)
	}
}

// TestAccVideoThumbnail uploads a video's thumbnail file, uploads a new image in place, sees an
// image set outside Terraform and uploads the file again, refuses thumbnail_timecode beside
// it, and keeps the image when thumbnail_file is removed (the service has no delete).
func TestAccVideoThumbnail(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	dir := t.TempDir()
	file := acctest.WritePNG(t, dir, "poster.png", 64, 36, 1)
	withFile := "thumbnail_file = " + acctest.Hcl(file)
	var id string
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: videoThumbnailConfig(env, withFile),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectKnownValue(testVideoThumbAddr, tfjsonpath.New("thumbnail_sha256"), knownvalue.StringExact(acctest.FileSHA256(t, file))),
					},
					// The private video's token changes at every read: not a thumbnail set outside.
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{acctest.IdOf(testVideoThumbAddr, &id), videoThumbnailIs(t, env, &id, 1)},
			},
			{
				PreConfig: func() { acctest.WritePNG(t, dir, "poster.png", 64, 36, 2) },
				Config:    videoThumbnailConfig(env, withFile),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(testVideoThumbAddr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					videoThumbnailIs(t, env, &id, 2),
					statecheck.ExpectKnownValue(testVideoThumbAddr, tfjsonpath.New("assets").AtMapKey("thumbnail"), knownvalue.StringRegexp(acctest.ThumbnailVersionRe(2))),
				},
			},
			{
				PreConfig: func() { uploadThumbnailOutside(t, env, id) },
				Config:    videoThumbnailConfig(env, withFile),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(testVideoThumbAddr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{videoThumbnailIs(t, env, &id, 4)},
			},
			{
				Config:      videoThumbnailConfig(env, withFile+"\n  thumbnail_timecode = \"00:00:01\""),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Invalid Attribute Combination.*thumbnail_timecode`),
			},
			{
				Config: videoThumbnailConfig(env, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(testVideoThumbAddr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					videoThumbnailIs(t, env, &id, 4),
					statecheck.ExpectKnownValue(testVideoThumbAddr, tfjsonpath.New("thumbnail_sha256"), knownvalue.Null()),
				},
			},
		},
	})
}
