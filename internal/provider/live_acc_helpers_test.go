package provider

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// serviceClient is a client of the test's service for what happens outside Terraform: a
// change made in the dashboard, a read of what the service holds.
func serviceClient(t *testing.T, env *accEnv) *videohost.Client {
	t.Helper()
	c, err := videohost.New(videohost.Config{BaseURL: env.BaseURL, APIKey: env.APIKey, AuthScheme: videohost.AuthBasic, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// idOf captures the id of address into *id when the state is checked.
func idOf(address string, id *string) statecheck.StateCheck {
	return stateCheckFunc(func(s *tfjson.State) error {
		r, err := stateResource(s, address)
		if err == nil {
			*id = attrString(r, "id")
		}
		return err
	})
}

// hclAttrs writes attributes as HCL lines, in the order given: pairs of name and literal.
func hclAttrs(pairs ...string) string {
	var b strings.Builder
	for i := 0; i+1 < len(pairs); i += 2 {
		fmt.Fprintf(&b, "  %s = %s\n", pairs[i], pairs[i+1])
	}
	return b.String()
}

// skipWithoutWriteOnly skips a test of write-only arguments under a CLI that has none: OpenTofu
// before the version that added them (TF_ACC_TERRAFORM_PATH naming a tofu binary). Terraform's
// own versions are checked with tfversion.SkipBelow(1.11.0) in the test case.
func skipWithoutWriteOnly(t *testing.T) {
	t.Helper()
	cli := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if cli == "" || !strings.Contains(filepath.Base(cli), "tofu") {
		return
	}
	out, err := exec.CommandContext(t.Context(), cli, "version", "-json").Output()
	if err != nil {
		t.Fatalf("%s version: %v", cli, err)
	}
	var v struct {
		Version string `json:"terraform_version"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("%s version -json: %v", cli, err)
	}
	if !openTofuHasWriteOnly(v.Version) {
		t.Skipf("OpenTofu %s has no write-only arguments (OpenTofu 1.11 added them); skipped", v.Version)
	}
}

// openTofuHasWriteOnly reports whether an OpenTofu version has write-only arguments.
func openTofuHasWriteOnly(version string) bool {
	var major, minor int
	if _, err := fmt.Sscanf(version, "%d.%d", &major, &minor); err != nil {
		return false
	}
	return major > 1 || major == 1 && minor >= 11
}
