package livestream_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// TestAccLiveStreamIdentityImport imports a live stream and a player theme with import blocks that
// give their identities; the framework checks that each plan imports and changes nothing.
// Identity needs Terraform 1.12; the test is skipped below it.
func TestAccLiveStreamIdentityImport(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	acctest.RequireCLIFeature(t, acctest.FeatureIdentity)
	config := streamConfig(env, true, "name", acctest.Hcl(env.Name("studio")), "player_id", "videohost_player_theme.brand.id",
		"restreams", restreamsHCL("a", "rtmp://h.example.test/live", "k"))
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectIdentityValueMatchesState(testStreamAddr, tfjsonpath.New("id")),
					statecheck.ExpectIdentityValueMatchesState(acctest.TestThemeAddr, tfjsonpath.New("id")),
				},
			},
			{
				ResourceName:    testStreamAddr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithResourceIdentity,
			},
			{
				ResourceName:    acctest.TestThemeAddr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithResourceIdentity,
			},
		},
	})
}
