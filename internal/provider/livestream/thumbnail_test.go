package livestream_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

const testLiveThumbAddr = "videohost_live_stream.thumb"

func liveStreamThumbnailConfig(env *acctest.AccEnv, attrs string) string {
	return env.ProviderConfig("") + fmt.Sprintf(`
resource "videohost_live_stream" "thumb" {
  name = %s
  %s
}
`, acctest.Hcl(env.Name("thumb")), attrs)
}

// TestAccLiveStreamThumbnail goes through the thumbnail steps of every kind
// (acctest.ThumbnailLifecycle: the file uploaded, a new image in place, an image set outside
// Terraform replaced by the file), imports the live stream after the upload, and deletes the
// thumbnail when thumbnail_file is removed, which brings back the service's own.
func TestAccLiveStreamThumbnail(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	client := acctest.ServiceClient(t, env)
	steps := acctest.ThumbnailLifecycle(t, acctest.ThumbnailKind[videohost.LiveStream]{
		Addr:      testLiveThumbAddr,
		Config:    func(attrs string) string { return liveStreamThumbnailConfig(env, attrs) },
		Get:       client.GetLiveStream,
		Upload:    client.UploadLiveStreamThumbnail,
		Thumbnail: func(l videohost.LiveStream) string { return l.Assets.Thumbnail },
	})
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			steps.Upload,
			{
				ResourceName: testLiveThumbAddr, ImportState: true, ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"thumbnail_file", "thumbnail_sha256"},
			},
			steps.Rewritten,
			steps.SetOutside,
			steps.Removed,
		},
	})
}
