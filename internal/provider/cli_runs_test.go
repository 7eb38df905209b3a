package provider_test

import (
	"fmt"
	"net/http"
	"regexp"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// TestAccEmptyImportID shows what a user gets from an import block whose id is an empty
// string, on each CLI. Terraform refuses the configuration. OpenTofu 1.11 drops the import
// block without a word and plans a create of the resource; the provider is never asked to
// import and is not told that an import block existed, so it cannot warn. The README says so.
func TestAccEmptyImportID(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	config := env.ProviderConfig("") + acctest.ImportBlock(`""`)

	if !acctest.CliIsOpenTofu(t) {
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
			Steps: []resource.TestStep{{
				Config:      config,
				ExpectError: regexp.MustCompile(`(?s)Invalid import id argument.*empty string`),
			}},
		})
		if n := env.RequestCount("", ""); n != 0 {
			t.Errorf("Terraform refused the configuration, yet the service saw %d requests", n)
		}
		return
	}

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("videohost_webhook.test", plancheck.ResourceActionCreate),
					acctest.PlanCheckFunc(func(p *tfjson.Plan) error {
						for _, rc := range p.ResourceChanges {
							if rc.Change.Importing != nil {
								return fmt.Errorf("OpenTofu planned an import of %s (id %q); this test records that it drops an empty id", rc.Address, rc.Change.Importing.ID)
							}
						}
						return nil
					}),
				},
			},
		}},
	})
	// The user ends up with a new webhook, created rather than adopted: one create was sent.
	if n := env.RequestCount(http.MethodPost, "/webhooks"); n != 1 {
		t.Errorf("OpenTofu sent %d creates of the webhook, want the 1 its plan showed", n)
	}
}

// TestOnlyEphemeralOpens checks the plan check that stands in for the framework's empty-plan
// check on OpenTofu 1.11: it lets through only no-ops and the opening of ephemeral resources.
func TestOnlyEphemeralOpens(t *testing.T) {
	change := func(mode tfjson.ResourceMode, address string, actions ...tfjson.Action) *tfjson.ResourceChange {
		return &tfjson.ResourceChange{Address: address, Mode: mode, Change: &tfjson.Change{Actions: actions}}
	}
	for _, tc := range []struct {
		name    string
		plan    tfjson.Plan
		wantErr bool
	}{
		{name: "ephemeral opened, the rest unchanged", plan: tfjson.Plan{ResourceChanges: []*tfjson.ResourceChange{
			change("ephemeral", "ephemeral.videohost_access_token.current", "open"),
			change(tfjson.ManagedResourceMode, "echo.token", tfjson.ActionNoop),
		}}},
		{name: "a create", wantErr: true, plan: tfjson.Plan{ResourceChanges: []*tfjson.ResourceChange{
			change("ephemeral", "ephemeral.videohost_access_token.current", "open"),
			change(tfjson.ManagedResourceMode, "videohost_webhook.a", tfjson.ActionCreate),
		}}},
		{name: "open on a managed resource", wantErr: true, plan: tfjson.Plan{ResourceChanges: []*tfjson.ResourceChange{
			change(tfjson.ManagedResourceMode, "videohost_webhook.a", "open"),
		}}},
		{name: "an output changes", wantErr: true, plan: tfjson.Plan{OutputChanges: map[string]*tfjson.Change{
			"live_stream_count": {Actions: tfjson.Actions{tfjson.ActionUpdate}},
		}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var resp plancheck.CheckPlanResponse
			acctest.OnlyEphemeralOpens.CheckPlan(t.Context(), plancheck.CheckPlanRequest{Plan: &tc.plan}, &resp)
			if (resp.Error != nil) != tc.wantErr {
				t.Errorf("error %v, want an error: %v", resp.Error, tc.wantErr)
			}
		})
	}
}
