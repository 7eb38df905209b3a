package livestream_test

import (
	"context"
	"fmt"
	"os"
	"strings"
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

const testLiveThumbAddr = "videohost_live_stream.thumb"

func liveStreamThumbnailConfig(env *acctest.AccEnv, file string) string {
	thumb := ""
	if file != "" {
		thumb = "thumbnail_file = " + acctest.Hcl(file)
	}
	return env.ProviderConfig("") + fmt.Sprintf(`
resource "videohost_live_stream" "thumb" {
  name = "with a thumbnail"
  %s
}
`, thumb)
}

// liveThumbnailIs checks the thumbnail address the service shows for the live stream: an
// uploaded one (?v=version), or the service's own with version 0.
func liveThumbnailIs(t *testing.T, env *acctest.AccEnv, id *string, version int) statecheck.StateCheck {
	return acctest.OnService(acctest.ServiceClient(t, env).GetLiveStream, id, func(l videohost.LiveStream) error {
		got := l.Assets.Thumbnail
		want := "/thumbnail.jpg"
		if version > 0 {
			want += fmt.Sprintf("?v=%d", version)
		}
		if !strings.HasSuffix(got, want) {
			return fmt.Errorf("the live stream's thumbnail is %s, want one ending in %s", got, want)
		}
		return nil
	})
}

// TestAccLiveStreamThumbnail uploads a thumbnail, imports the live stream, uploads a new image in
// place, sees another image set outside Terraform and uploads the file again, and removes
// thumbnail_file, which deletes the thumbnail.
func TestAccLiveStreamThumbnail(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	dir := t.TempDir()
	file := acctest.WritePNG(t, dir, "thumb.png", 64, 36, 1)
	var id string
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: liveStreamThumbnailConfig(env, file),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectKnownValue(testLiveThumbAddr, tfjsonpath.New("thumbnail_sha256"), knownvalue.StringExact(acctest.FileSHA256(t, file))),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{acctest.IdOf(testLiveThumbAddr, &id), liveThumbnailIs(t, env, &id, 1)},
			},
			{
				ResourceName: testLiveThumbAddr, ImportState: true, ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"thumbnail_file", "thumbnail_sha256"},
			},
			{
				// Another image at the same path: uploaded in place.
				PreConfig: func() { acctest.WritePNG(t, dir, "thumb.png", 64, 36, 2) },
				Config:    liveStreamThumbnailConfig(env, file),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(testLiveThumbAddr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					liveThumbnailIs(t, env, &id, 2),
					statecheck.ExpectKnownValue(testLiveThumbAddr, tfjsonpath.New("assets").AtMapKey("thumbnail"), knownvalue.StringRegexp(acctest.ThumbnailVersionRe(2))),
				},
			},
			{
				// Another image is uploaded in the dashboard: the plan uploads the file again.
				PreConfig: func() {
					other := acctest.WritePNG(t, t.TempDir(), "other.png", 8, 8, 9)
					f, err := os.Open(other)
					if err != nil {
						t.Fatal(err)
					}
					defer f.Close()
					st, _ := f.Stat()
					if _, err := acctest.ServiceClient(t, env).UploadLiveStreamThumbnail(context.Background(), id,
						videohost.UploadSource{Name: "other.png", Reader: f, Size: st.Size()}); err != nil {
						t.Fatal(err)
					}
				},
				Config: liveStreamThumbnailConfig(env, file),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(testLiveThumbAddr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{liveThumbnailIs(t, env, &id, 4)},
			},
			{
				Config: liveStreamThumbnailConfig(env, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(testLiveThumbAddr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					liveThumbnailIs(t, env, &id, 0),
					statecheck.ExpectKnownValue(testLiveThumbAddr, tfjsonpath.New("thumbnail_sha256"), knownvalue.Null()),
				},
			},
		},
	})
}
