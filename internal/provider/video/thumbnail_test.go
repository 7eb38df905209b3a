package video_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

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
  title      = %s
  public     = false
  source_url = "https://media.example.test/thumb.mp4"
  %s
}
`, acctest.Hcl(env.Name("thumb")), attrs)
}

// TestAccVideoThumbnail goes through the thumbnail steps of every kind (acctest.ThumbnailLifecycle:
// the file uploaded, a new image in place, an image set outside Terraform replaced by the file)
// with a private video, whose token changes at every read without being a thumbnail set
// outside; refuses thumbnail_timecode beside thumbnail_file; and keeps the image when
// thumbnail_file is removed (the service has no delete).
func TestAccVideoThumbnail(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	client := acctest.ServiceClient(t, env)
	steps := acctest.ThumbnailLifecycle(t, acctest.ThumbnailKind[videohost.Video]{
		Addr:   testVideoThumbAddr,
		Config: func(attrs string) string { return videoThumbnailConfig(env, attrs) },
		Get:    client.GetVideo, Upload: client.UploadVideoThumbnail,
		Thumbnail: func(v videohost.Video) string {
			if v.Assets == nil {
				return ""
			}
			return v.Assets.Thumbnail
		},
		KeptOnRemoval: true,
	})
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			steps.Upload,
			steps.Rewritten,
			steps.SetOutside,
			{
				Config:      videoThumbnailConfig(env, steps.Attr+"\n  thumbnail_timecode = \"00:00:01\""),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Invalid Attribute Combination.*thumbnail_timecode`),
			},
			steps.Removed,
		},
	})
}
