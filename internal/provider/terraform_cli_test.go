package provider

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// The acceptance tests run with whichever CLI the testing framework runs: the binary named by
// TF_ACC_TERRAFORM_PATH (Terraform or OpenTofu), else the terraform on PATH. The helpers here
// let a test run that same binary itself and branch where the two CLIs differ by design.

// terraformCLI returns the CLI binary the testing framework uses, so that a test which runs the
// CLI directly runs the same one. It skips the test when there is none.
func terraformCLI(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("TF_ACC_TERRAFORM_PATH"); p != "" {
		return p
	}
	p, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("no CLI to run: TF_ACC_TERRAFORM_PATH is not set and terraform is not on PATH")
	}
	return p
}

// cliVersionLine is the first line of `<cli> version` ("Terraform v1.15.9", "OpenTofu
// v1.11.14"), read once per test binary.
var cliVersionLine = sync.OnceValues(func() (string, error) {
	bin := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if bin == "" {
		var err error
		if bin, err = exec.LookPath("terraform"); err != nil {
			return "", err
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "version")
	cmd.Env = append(os.Environ(), "CHECKPOINT_DISABLE=1")
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s version: %w", bin, err)
	}
	line, _, _ := strings.Cut(string(out), "\n")
	return strings.TrimSpace(line), nil
})

// cliIsOpenTofu reports whether the acceptance tests run OpenTofu rather than Terraform.
func cliIsOpenTofu(t *testing.T) bool {
	t.Helper()
	line, err := cliVersionLine()
	if err != nil {
		t.Fatalf("finding out which CLI runs the tests: %v", err)
	}
	return strings.HasPrefix(line, "OpenTofu")
}

// openTofuOpensInPlan reports whether the CLI is an OpenTofu that lists every ephemeral resource
// of the configuration in the plan's resource_changes with the action "open", and prints "No
// changes" for such a plan: OpenTofu before 1.12, which kept the ephemeral resources in the plan
// to rebuild its apply graph from it (opentofu/opentofu#3799; reworked in #3897 for 1.12).
// Terraform leaves them out.
func openTofuOpensInPlan(t *testing.T) bool {
	t.Helper()
	if !cliIsOpenTofu(t) {
		return false
	}
	line, _ := cliVersionLine()
	var major, minor int
	if _, err := fmt.Sscanf(line, "OpenTofu v%d.%d", &major, &minor); err != nil {
		t.Fatalf("reading the version of %q: %v", line, err)
	}
	return major == 1 && minor < 12
}

// onlyEphemeralOpens fails a plan that changes anything, leaving out the "open" actions of
// ephemeral resources that OpenTofu before 1.12 lists (see openTofuOpensInPlan).
var onlyEphemeralOpens = planCheckFunc(func(p *tfjson.Plan) error {
	for _, rc := range p.ResourceChanges {
		for _, a := range rc.Change.Actions {
			if a == tfjson.ActionNoop || (a == "open" && rc.Mode == "ephemeral") {
				continue
			}
			return fmt.Errorf("the plan after apply is not empty: %s %s", a, rc.Address)
		}
	}
	for name, oc := range p.OutputChanges {
		if !oc.Actions.NoOp() {
			return fmt.Errorf("the plan after apply changes output %s: %v", name, oc.Actions)
		}
	}
	return nil
})

// emptyPlanAfterApply returns the step unchanged on Terraform. On an OpenTofu whose plan lists
// ephemeral resources as opened, the framework's own empty-plan check would fail a plan that
// OpenTofu reports as "No changes", so the step expects a non-empty plan from the framework's
// point of view and checks itself that both plans after apply change nothing else.
func emptyPlanAfterApply(t *testing.T, step resource.TestStep) resource.TestStep {
	t.Helper()
	if os.Getenv("TF_ACC") == "" || !openTofuOpensInPlan(t) {
		return step
	}
	step.ExpectNonEmptyPlan = true
	step.ConfigPlanChecks.PostApplyPreRefresh = append(step.ConfigPlanChecks.PostApplyPreRefresh, onlyEphemeralOpens)
	step.ConfigPlanChecks.PostApplyPostRefresh = append(step.ConfigPlanChecks.PostApplyPostRefresh, onlyEphemeralOpens)
	return step
}

// TestAccEmptyImportID shows what a user gets from an import block whose id is an empty
// string, on each CLI. Terraform refuses the configuration. OpenTofu 1.11 drops the import
// block without a word and plans a create of the resource; the provider is never asked to
// import and is not told that an import block existed, so it cannot warn. The README says so.
func TestAccEmptyImportID(t *testing.T) {
	env := newAccEnv(t, emulator.Options{})
	env.requireEmulator(t)
	config := env.providerConfig("") + importBlock(`""`)

	if !cliIsOpenTofu(t) {
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
			Steps: []resource.TestStep{{
				Config:      config,
				ExpectError: regexp.MustCompile(`(?s)Invalid import id argument.*empty string`),
			}},
		})
		if n := env.Emu.RequestCount("", ""); n != 0 {
			t.Errorf("Terraform refused the configuration, yet the service saw %d requests", n)
		}
		return
	}

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("videohost_webhook.test", plancheck.ResourceActionCreate),
					planCheckFunc(func(p *tfjson.Plan) error {
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
	if n := env.Emu.RequestCount(http.MethodPost, "/webhooks"); n != 1 {
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
			onlyEphemeralOpens.CheckPlan(t.Context(), plancheck.CheckPlanRequest{Plan: &tc.plan}, &resp)
			if (resp.Error != nil) != tc.wantErr {
				t.Errorf("error %v, want an error: %v", resp.Error, tc.wantErr)
			}
		})
	}
}
