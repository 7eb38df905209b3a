package acctest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
)

// The acceptance tests run with whichever CLI the testing framework runs: the binary named by
// TF_ACC_TERRAFORM_PATH (Terraform or OpenTofu), else the terraform on PATH. The helpers here
// let a test run that same binary itself and branch where the two CLIs differ by design.

// cliPath is the CLI binary the testing framework uses: the one TF_ACC_TERRAFORM_PATH names,
// else the terraform on PATH.
func cliPath() (string, error) {
	if p := os.Getenv("TF_ACC_TERRAFORM_PATH"); p != "" {
		return p, nil
	}
	return exec.LookPath("terraform")
}

// TerraformCLI returns the CLI binary the testing framework uses, so that a test which runs the
// CLI directly runs the same one. It skips the test when there is none.
func TerraformCLI(t *testing.T) string {
	t.Helper()
	p, err := cliPath()
	if err != nil {
		t.Skip("no CLI to run: TF_ACC_TERRAFORM_PATH is not set and terraform is not on PATH")
	}
	return p
}

// CliVersionLine is the first line of `<cli> version` ("Terraform v1.15.9", "OpenTofu
// v1.11.14"), read once per test binary.
var CliVersionLine = sync.OnceValues(func() (string, error) {
	bin, err := cliPath()
	if err != nil {
		return "", err
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

// CliIsOpenTofu reports whether the acceptance tests run OpenTofu rather than Terraform.
func CliIsOpenTofu(t *testing.T) bool {
	t.Helper()
	line, err := CliVersionLine()
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
	if !CliIsOpenTofu(t) {
		return false
	}
	line, _ := CliVersionLine()
	var major, minor int
	if _, err := fmt.Sscanf(line, "OpenTofu v%d.%d", &major, &minor); err != nil {
		t.Fatalf("reading the version of %q: %v", line, err)
	}
	return major == 1 && minor < 12
}

// OnlyEphemeralOpens fails a plan that changes anything, leaving out the "open" actions of
// ephemeral resources that OpenTofu before 1.12 lists (see openTofuOpensInPlan).
var OnlyEphemeralOpens = PlanCheckFunc(func(p *tfjson.Plan) error {
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

// EmptyPlanAfterApply returns the step unchanged on Terraform. On an OpenTofu whose plan lists
// ephemeral resources as opened, the framework's own empty-plan check would fail a plan that
// OpenTofu reports as "No changes", so the step expects a non-empty plan from the framework's
// point of view and checks itself that both plans after apply change nothing else.
func EmptyPlanAfterApply(t *testing.T, step resource.TestStep) resource.TestStep {
	t.Helper()
	if os.Getenv("TF_ACC") == "" || !openTofuOpensInPlan(t) {
		return step
	}
	step.ExpectNonEmptyPlan = true
	step.ConfigPlanChecks.PostApplyPreRefresh = append(step.ConfigPlanChecks.PostApplyPreRefresh, OnlyEphemeralOpens)
	step.ConfigPlanChecks.PostApplyPostRefresh = append(step.ConfigPlanChecks.PostApplyPostRefresh, OnlyEphemeralOpens)
	return step
}

// DevOverrideCLI builds the provider into a temporary directory and writes a CLI configuration
// whose dev_overrides point Terraform at it, so that a test can run the real terraform binary on
// files it writes itself. It returns the CLI configuration's path; terraformEnv turns it into
// the environment of a terraform command.
func DevOverrideCLI(ctx context.Context, t *testing.T) string {
	t.Helper()
	return devOverrideCLIWith(ctx, t, nil)
}

// devOverrideCLIWith is devOverrideCLI with more dev_overrides, source address to directory
// (another provider that a test runs beside this one).
func devOverrideCLIWith(ctx context.Context, t *testing.T, others map[string]string) string {
	t.Helper()
	binDir := t.TempDir()
	installProvider(ctx, t, filepath.Join(binDir, "terraform-provider-videohost"))
	cliConfig := filepath.Join(t.TempDir(), "terraform.rc")
	var more strings.Builder
	for _, source := range slices.Sorted(maps.Keys(others)) {
		fmt.Fprintf(&more, "    %s = %s\n", Hcl(source), Hcl(others[source]))
	}
	WriteFile(t, cliConfig, fmt.Sprintf(`provider_installation {
  dev_overrides {
    "videohost/videohost" = %s
%s  }
  direct {}
}
`, Hcl(binDir), more.String()))
	return cliConfig
}

// providerBuild is the development build of the provider that the tests of one test binary
// share: built once into dir (set by RunWithOwnCLIConfig, in the directory it removes at the
// end) and linked into each test's own directory, rather than built again for each test (a link
// of 34 MB: 4 s of CPU, and 16 s of wall on a loaded 2-core machine, for each of about 20
// tests a CLI's run).
var providerBuild struct {
	dir  string
	once sync.Once
	err  error
}

// providerBuildTimeout bounds the shared build, which runs on no test's context: a test that
// ends early must not fail the build that the others wait for.
const providerBuildTimeout = 10 * time.Minute

// installProvider puts a development build of the provider at path: a link to (or, across file
// systems, a copy of) the shared build when the test binary has one, else a build of its own.
// A test may remove or replace its file: the shared build stays whole.
func installProvider(ctx context.Context, t *testing.T, path string) {
	t.Helper()
	if providerBuild.dir == "" {
		if err := goBuild(ctx, RepoRoot(t), path); err != nil {
			t.Fatal(err)
		}
		return
	}
	shared := filepath.Join(providerBuild.dir, "terraform-provider-videohost")
	providerBuild.once.Do(func() {
		bctx, cancel := context.WithTimeout(context.Background(), providerBuildTimeout)
		defer cancel()
		providerBuild.err = goBuild(bctx, RepoRoot(t), shared)
	})
	if providerBuild.err != nil {
		t.Fatal(providerBuild.err)
	}
	if os.Link(shared, path) == nil {
		return
	}
	raw, err := os.ReadFile(shared)
	if err == nil {
		err = os.WriteFile(path, raw, 0o700)
	}
	if err != nil {
		t.Fatalf("copying the provider's build: %v", err)
	}
}

// ProviderBinary puts a development build of the provider into a directory of the test's own and
// returns its path, for a test that starts the provider itself, as Terraform does.
func ProviderBinary(ctx context.Context, t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "terraform-provider-videohost")
	installProvider(ctx, t, path)
	return path
}

// goBuild builds the provider of the repository at root into path.
func goBuild(ctx context.Context, root, path string) error {
	build := exec.CommandContext(ctx, "go", "build", "-o", path, ".")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("building the provider: %w\n%s", err, out)
	}
	return nil
}

// TerraformEnv is the environment of a terraform command run with cliConfig: the test's own
// environment without its TF_ and VIDEOHOST_ variables, plus extra.
func TerraformEnv(cliConfig string, extra ...string) []string {
	env := []string{"TF_CLI_CONFIG_FILE=" + cliConfig, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "TF_INPUT=0"}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TF_") && !strings.HasPrefix(kv, "VIDEOHOST_") {
			env = append(env, kv)
		}
	}
	// Against a real endpoint the key stays out of the configuration files (providerConfig):
	// the provider takes it from the environment.
	if key := os.Getenv(framework.EnvAPIKey); key != "" && os.Getenv("VIDEOHOST_EMULATOR") == "0" {
		env = append(env, framework.EnvAPIKey+"="+key)
	}
	return append(env, extra...)
}

// CliWorkdir is a directory where a test runs a real terraform against a development build of
// the provider, with a CLI configuration of its own and an environment without TF_ and
// VIDEOHOST_ variables.
type CliWorkdir struct {
	T   *testing.T
	Ctx context.Context
	Bin string
	Dir string
	Env []string
}

// NewCLIWorkdir builds the provider and prepares a directory for the terraform of
// TF_ACC_TERRAFORM_PATH, else the one on PATH; it skips the test when there is none or when it
// is older than minVersion, naming the version found.
func NewCLIWorkdir(ctx context.Context, t *testing.T, minVersion string) *CliWorkdir {
	t.Helper()
	return NewCLIWorkdirWith(ctx, t, minVersion, nil)
}

// NewCLIWorkdirWith is newCLIWorkdir with more dev_overrides (see devOverrideCLI).
func NewCLIWorkdirWith(ctx context.Context, t *testing.T, minVersion string, others map[string]string) *CliWorkdir {
	t.Helper()
	bin := TerraformCLI(t)
	raw, err := exec.CommandContext(ctx, bin, "version", "-json").Output()
	if err != nil {
		t.Fatalf("%s version -json: %v", bin, err)
	}
	var v struct {
		Version string `json:"terraform_version"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%s version -json: %v", bin, err)
	}
	if !versionAtLeast(v.Version, minVersion) {
		t.Skipf("Terraform CLI version %s (%s) is below minimum version %s: skipping test", v.Version, bin, minVersion)
	}

	return &CliWorkdir{T: t, Ctx: ctx, Bin: bin, Dir: t.TempDir(), Env: TerraformEnv(devOverrideCLIWith(ctx, t, others))}
}

// versionAtLeast compares the major, minor and patch numbers of two versions; a pre-release
// counts as its release.
func versionAtLeast(have, want string) bool {
	var h, w [3]int
	_, _ = fmt.Sscanf(have, "%d.%d.%d", &h[0], &h[1], &h[2])
	_, _ = fmt.Sscanf(want, "%d.%d.%d", &w[0], &w[1], &w[2])
	return slices.Compare(h[:], w[:]) >= 0
}

// WriteConfig writes main.tf: the provider's requirement, its block for env with extra
// arguments, and resources.
func (w *CliWorkdir) WriteConfig(env *AccEnv, providerExtra, resources string) {
	w.T.Helper()
	w.Write("main.tf", `terraform {
  required_providers {
    videohost = { source = "videohost/videohost" }
  }
}
`+env.ProviderConfig(providerExtra)+resources)
}

func (w *CliWorkdir) Write(name, content string) {
	w.T.Helper()
	WriteFile(w.T, filepath.Join(w.Dir, name), content)
}

// Run runs terraform with args and fails the test unless it succeeds (a plan with
// -detailed-exitcode: unless it finds nothing to change); it returns what terraform printed on
// its standard output.
func (w *CliWorkdir) Run(args ...string) string {
	w.T.Helper()
	cmd := exec.CommandContext(w.Ctx, w.Bin, args...)
	cmd.Dir, cmd.Env = w.Dir, w.Env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		w.T.Fatalf("terraform %s exited %d:\n%s%s", strings.Join(args, " "), ee.ExitCode(), stdout.String(), stderr.String())
	} else if err != nil {
		w.T.Fatalf("terraform %v: %v", args, err)
	}
	return stdout.String()
}

// RunFailing runs terraform with args, fails the test unless terraform fails, and returns what
// it printed, standard error included.
func (w *CliWorkdir) RunFailing(args ...string) string {
	w.T.Helper()
	cmd := exec.CommandContext(w.Ctx, w.Bin, args...)
	cmd.Dir, cmd.Env = w.Dir, w.Env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		w.T.Fatalf("terraform %s: want it to fail, got %v:\n%s", strings.Join(args, " "), err, out.String())
	}
	return out.String()
}

// State is the state of the directory, as terraform show -json gives it.
func (w *CliWorkdir) State() *tfjson.State {
	w.T.Helper()
	var s tfjson.State
	if err := json.Unmarshal([]byte(w.Run("show", "-json")), &s); err != nil {
		w.T.Fatalf("terraform show -json: %v", err)
	}
	return &s
}

// Plan is the saved plan file, as terraform show -json gives it.
func (w *CliWorkdir) Plan(file string) *tfjson.Plan {
	w.T.Helper()
	var p tfjson.Plan
	if err := json.Unmarshal([]byte(w.Run("show", "-json", file)), &p); err != nil {
		w.T.Fatalf("terraform show -json %s: %v", file, err)
	}
	return &p
}
