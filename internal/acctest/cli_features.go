package acctest

import (
	"fmt"
	"strings"
	"testing"
)

// Not every CLI has every feature the provider offers. Each feature below names the first
// Terraform and OpenTofu versions that have it, as the acceptance tests found it on the CLIs of
// the matrix (Terraform 1.11.4 and 1.15.9, OpenTofu 1.11.14 and 1.12.6), and the tests that
// show it. Those tests call requireCLIFeature, which skips them on a CLI without the feature,
// naming both; so the matrix runs each where it should pass, and a CLI that claims a feature and
// does not have it fails there. The README's support table is made from the same list
// (TestREADMESupportTable).

// CliFeature is one feature, the first versions that have it ("" when no version does yet), and
// the tests that show it.
type CliFeature struct {
	Name      string
	terraform string
	openTofu  string
	// Ident is the name of the variable that holds it, which its tests pass to requireCLIFeature.
	Ident string
	Tests []string
}

var (
	FeatureIdentity = CliFeature{
		Name: "Resource identity (`import` by `identity`)", terraform: "1.12.0", openTofu: "1.12.0", Ident: "FeatureIdentity",
		Tests: []string{"TestAccWebhookIdentity", "TestAccLiveStreamIdentityImport"},
	}
	FeatureQuery = CliFeature{
		Name: "List resources, `terraform query`", terraform: "1.14.0", openTofu: "", Ident: "FeatureQuery",
		Tests: []string{"TestAccWebhookListResource", "TestAccLiveStreamQuery", "TestAccWebhookQueryGenerateConfig"},
	}
	FeatureEphemeral = CliFeature{
		Name: "Ephemeral resources (`videohost_access_token`)", terraform: "1.10.0", openTofu: "1.11.0", Ident: "FeatureEphemeral",
		Tests: []string{"TestAccAccessTokenEphemeralResource", "TestAccAccessTokenNotInPlanOrState"},
	}
	FeatureWriteOnly = CliFeature{
		Name: "Write-only attributes (`stream_key_wo`)", terraform: "1.11.0", openTofu: "1.11.0", Ident: "FeatureWriteOnly",
		Tests: []string{"TestAccLiveStreamWriteOnlyRestreamKey"},
	}
	FeatureMoveFromRestapi = CliFeature{
		Name: "`moved` from `restapi_object`", terraform: "1.8.0", openTofu: "1.10.0", Ident: "FeatureMoveFromRestapi",
		Tests: []string{"TestAccMoveFromRestapi"},
	}
	FeatureActions = CliFeature{
		Name: "Actions (`action_trigger`, `-invoke`)", terraform: "1.14.0", openTofu: "", Ident: "FeatureActions",
		Tests: []string{"TestAccWebhookCheckAction", "TestAccLiveStreamCompleteAction", "TestAccActionsInvoked"},
	}
	CliFeatures = []CliFeature{FeatureIdentity, FeatureQuery, FeatureEphemeral, FeatureWriteOnly, FeatureMoveFromRestapi, FeatureActions}
)

// SupportedBy reports whether the CLI (OpenTofu or Terraform) of version has the feature.
func (f CliFeature) SupportedBy(openTofu bool, version string) bool {
	first := f.terraform
	if openTofu {
		first = f.openTofu
	}
	return first != "" && versionAtLeast(version, first)
}

// since says which versions have the feature, for messages.
func (f CliFeature) since() string {
	tofu := "no OpenTofu yet"
	if f.openTofu != "" {
		tofu = "OpenTofu " + strings.TrimSuffix(f.openTofu, ".0") + " and later"
	}
	return "Terraform " + strings.TrimSuffix(f.terraform, ".0") + " and later, " + tofu
}

// RequireCLIFeature skips the test when the CLI of the tests lacks f, naming the CLI and the
// feature. Call it after newAccEnv, which skips first without TF_ACC.
func RequireCLIFeature(t *testing.T, f CliFeature) {
	t.Helper()
	if line, ok := CLIHas(t, f); !ok {
		t.Skipf("%s does not have %s (%s): skipped on this CLI", line, f.Name, f.since())
	}
}

// CLIHas reports whether the CLI of the tests has f, and that CLI's version line, for a test
// that leaves out only its part that needs f.
func CLIHas(t *testing.T, f CliFeature) (string, bool) {
	t.Helper()
	line, err := CliVersionLine()
	if err != nil {
		t.Fatalf("finding out which CLI runs the tests: %v", err)
	}
	openTofu := strings.HasPrefix(line, "OpenTofu")
	var version string
	if _, err := fmt.Sscanf(strings.TrimPrefix(strings.TrimPrefix(line, "OpenTofu "), "Terraform "), "v%s", &version); err != nil {
		t.Fatalf("reading the version of %q: %v", line, err)
	}
	return line, f.SupportedBy(openTofu, version)
}

// supportTableCLIs are the CLIs of the README's support table: those of the matrix.
var supportTableCLIs = []struct {
	name     string
	openTofu bool
	version  string
}{
	{"Terraform 1.11", false, "1.11.4"},
	{"Terraform 1.15", false, "1.15.9"},
	{"OpenTofu 1.11", true, "1.11.14"},
	{"OpenTofu 1.12", true, "1.12.6"},
}

// SupportTable is the README's table of which CLI has which feature.
func SupportTable() string {
	var b strings.Builder
	b.WriteString("| Feature |")
	for _, c := range supportTableCLIs {
		b.WriteString(" " + c.name + " |")
	}
	b.WriteString(" Shown by |\n|---|")
	for range supportTableCLIs {
		b.WriteString("---|")
	}
	b.WriteString("---|\n")
	for _, f := range CliFeatures {
		b.WriteString("| " + f.Name + " |")
		for _, c := range supportTableCLIs {
			if f.SupportedBy(c.openTofu, c.version) {
				b.WriteString(" yes |")
			} else {
				b.WriteString(" no |")
			}
		}
		b.WriteString(" `" + strings.Join(f.Tests, "`, `") + "` |\n")
	}
	return b.String()
}
