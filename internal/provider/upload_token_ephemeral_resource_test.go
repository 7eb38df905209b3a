package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// TestAccUploadTokenEphemeral opens the ephemeral upload token in a plan and an apply: the echo
// provider shows the token it gave (a real one, whose id is its fingerprint), every token it
// made was deleted when it was closed, and the service holds no token after the test. Nothing
// of it is in the state but the echo's copy.
func TestAccUploadTokenEphemeral(t *testing.T) {
	env := newAccEnv(t, emulator.Options{})
	env.requireEmulator(t)
	noTokenLeft := func() error {
		toks, err := serviceClient(t, env).ListUploadTokens(context.Background(), videohost.UploadTokenFilter{})
		if err != nil {
			return err
		}
		if len(toks) != 0 {
			return fmt.Errorf("%d upload tokens left on the service, want none: every token opened is deleted when closed", len(toks))
		}
		made, deleted := env.Emu.RequestCount(http.MethodPost, "/upload-tokens"), env.Emu.RequestCount(http.MethodDelete, "/upload-tokens")
		if made < 2 || deleted != made {
			return fmt.Errorf("%d tokens made and %d deleted; want one per plan and apply, each deleted", made, deleted)
		}
		return nil
	}
	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: accessTokenProviderFactories(),
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_10_0)},
		CheckDestroy:             func(*terraform.State) error { return noTokenLeft() },
		Steps: []resource.TestStep{
			// OpenTofu 1.11 lists an ephemeral resource's opening in the plan (see
			// emptyPlanAfterApply).
			emptyPlanAfterApply(t, resource.TestStep{
				Config: env.providerConfig("") + `
ephemeral "videohost_upload_token" "run" {
  ttl = 900
}

provider "echo" {
  data = ephemeral.videohost_upload_token.run
}

resource "echo" "token" {}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("echo.token", tfjsonpath.New("data").AtMapKey("token"),
						knownvalue.StringRegexp(regexp.MustCompile(`^to[0-9A-Za-z]{22}$`))),
					statecheck.ExpectKnownValue("echo.token", tfjsonpath.New("data").AtMapKey("ttl"), knownvalue.Int64Exact(900)),
					stateCheckFunc(func(s *tfjson.State) error {
						r, err := stateResource(s, "echo.token")
						if err != nil {
							return err
						}
						data, _ := r.AttributeValues["data"].(map[string]any)
						token, _ := data["token"].(string)
						if id, _ := data["id"].(string); id != uploadTokenFingerprint(token) {
							return fmt.Errorf("id %q is not the token's fingerprint", id)
						}
						if data["expires_at"] == nil {
							return errors.New("expires_at is null for a token with a ttl")
						}
						for _, other := range s.Values.RootModule.Resources {
							if other.Address != "echo.token" && other.Type != "echo" {
								return fmt.Errorf("%s in the state: an ephemeral resource is never in it", other.Address)
							}
						}
						// Closed at the end of the apply: the token the apply used is gone.
						if _, err := serviceClient(t, env).GetUploadToken(context.Background(), token); !errors.Is(err, videohost.ErrNotFound) {
							return fmt.Errorf("the token the apply opened is still on the service after it (%v)", err)
						}
						return noTokenLeft()
					}),
				},
			}),
		},
	})
}

// TestAccUploadTokenEphemeralBadTTL: a ttl of 0 (a token that would outlive a killed run
// forever) is an error on ttl before any request.
func TestAccUploadTokenEphemeralBadTTL(t *testing.T) {
	env := newAccEnv(t, emulator.Options{})
	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_10_0)},
		Steps: []resource.TestStep{{
			Config: env.providerConfig("") + `
ephemeral "videohost_upload_token" "run" {
  ttl = 0
}
`,
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)ttl.*between 1 and 2147483647`),
		}},
	})
}
