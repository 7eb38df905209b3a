package tag_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// TestAccTagsDataSource lists the tags by a part of their value, ignoring accents and case, most
// used first. Its tags carry a suffix of the run, so that it holds in a workspace that other
// tests (or people) use at the same time.
func TestAccTagsDataSource(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	sfx := acctest.RunSuffix(t)
	maths, ecole, physics := "Maths-"+sfx, "école-"+sfx, "physics-"+sfx
	acctest.CreateVideoOutside(t, env, videohost.VideoCreate{Title: env.Name("a"), Tags: []string{maths, ecole}})
	acctest.CreateVideoOutside(t, env, videohost.VideoCreate{Title: env.Name("b"), Tags: []string{maths}})
	acctest.CreateVideoOutside(t, env, videohost.VideoCreate{Title: env.Name("c"), Tags: []string{physics}})
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: env.ProviderConfig("") + fmt.Sprintf(`
data "videohost_tags" "all" {
  value = %[1]q
}
data "videohost_tags" "ecole" {
  value = %[2]q
}
data "videohost_tags" "by_use" {
  value      = %[1]q
  sort_by    = "videoCount"
  sort_order = "desc"
}
`, sfx, strings.ToUpper("ECOLE-"+sfx)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.videohost_tags.all", tfjsonpath.New("tags"), knownvalue.ListSizeExact(3)),
				statecheck.ExpectKnownValue("data.videohost_tags.ecole", tfjsonpath.New("tags"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectExact(map[string]knownvalue.Check{"value": knownvalue.StringExact(ecole), "video_count": knownvalue.Int64Exact(1)}),
				})),
				statecheck.ExpectKnownValue("data.videohost_tags.by_use", tfjsonpath.New("tags").AtSliceIndex(0),
					knownvalue.ObjectExact(map[string]knownvalue.Check{"value": knownvalue.StringExact(maths), "video_count": knownvalue.Int64Exact(2)})),
			},
		}},
	})
}
