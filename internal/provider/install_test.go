package provider_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// installEnv is the environment of make install and of the CLI in an empty home: the test's
// own without HOME, the XDG directories and every TF_ and VIDEOHOST_ variable (no CLI
// configuration, no dev_overrides), with Go's caches kept where they are, so that the build in
// the empty home is the cached one.
func installEnv(t *testing.T, home string, extra ...string) []string {
	t.Helper()
	goEnv, err := exec.CommandContext(t.Context(), "go", "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	dirs := strings.Split(strings.TrimSpace(string(goEnv)), "\n")
	if len(dirs) != 3 {
		t.Fatalf("go env GOCACHE GOMODCACHE GOPATH printed %q", goEnv)
	}
	env := []string{"HOME=" + home, "GOCACHE=" + dirs[0], "GOMODCACHE=" + dirs[1], "GOPATH=" + dirs[2],
		"CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "TF_INPUT=0"}
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case name == "HOME", strings.HasPrefix(name, "XDG_"), strings.HasPrefix(name, "TF_"),
			strings.HasPrefix(name, "VIDEOHOST_"), name == "GOCACHE", name == "GOMODCACHE", name == "GOPATH":
		default:
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

// installVersion is the version make install builds in this checkout (scripts/version.sh: the
// release on its tag, X.Y.Z+dev.COMMIT elsewhere), so that the test follows a development build.
func installVersion(ctx context.Context, t *testing.T) string {
	t.Helper()
	cmd := exec.CommandContext(ctx, filepath.Join("..", "..", "scripts", "version.sh"))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("scripts/version.sh: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// installTime bounds TestAccInstallPlainInit: two builds, an init, an apply and a destroy.
const installTime = 8 * time.Minute

// runMake runs make TARGET at the root of the module in env, and fails the test with its output
// unless it succeeds.
func runMake(ctx context.Context, t *testing.T, env []string, target string) {
	t.Helper()
	cmd := exec.CommandContext(ctx, "make", "--no-print-directory", target)
	cmd.Dir, cmd.Env = filepath.Join("..", ".."), env
	if res := acctest.RunInGroup(ctx, t, cmd); res.Err != nil {
		t.Fatalf("make %s: %s", target, res.Describe(installTime))
	}
}

// TestAccInstallPlainInit: make install in an empty home puts the provider where a plain init
// finds it, with no CLI configuration (no dev_overrides, no TF_CLI_CONFIG_FILE): a configuration
// that requires videohost/videohost "~> 0.1.0" (the recommended constraint) inits, applies and destroys against the emulator
// with the CLI of the tests (Terraform or OpenTofu, whose host differs), in-process or against
// the remote endpoint; make uninstall removes the provider and leaves another provider of the
// same directory alone.
func TestAccInstallPlainInit(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not on PATH")
	}
	ctx, cancel := context.WithTimeout(t.Context(), installTime)
	defer cancel()
	home := t.TempDir()
	plugins := filepath.Join(home, ".terraform.d", "plugins")
	other := filepath.Join(plugins, "example.com", "other", "thing", "1.0.0", runtime.GOOS+"_"+runtime.GOARCH, "terraform-provider-thing_v1.0.0")
	if err := os.MkdirAll(filepath.Dir(other), 0o755); err != nil {
		t.Fatal(err)
	}
	acctest.WriteFile(t, other, "another provider's binary, which make uninstall must leave")
	menv := installEnv(t, home)
	version := installVersion(ctx, t)
	runMake(ctx, t, menv, "install")
	host := "registry.terraform.io"
	if acctest.CliIsOpenTofu(t) {
		host = "registry.opentofu.org"
	}
	for _, h := range []string{"registry.terraform.io", "registry.opentofu.org"} {
		bin := filepath.Join(plugins, h, "videohost", "videohost", version, runtime.GOOS+"_"+runtime.GOARCH, "terraform-provider-videohost_v"+version)
		if fi, err := os.Stat(bin); err != nil || fi.Mode()&0o111 == 0 {
			t.Fatalf("make install did not put an executable at %s: %v", bin, err)
		}
	}

	w := &acctest.CliWorkdir{T: t, Ctx: ctx, Bin: acctest.TerraformCLI(t), Dir: t.TempDir(),
		Env: installEnv(t, home, framework.EnvBaseURL+"="+env.BaseURL, framework.EnvAPIKey+"="+env.APIKey)}
	w.Write("main.tf", `terraform {
  required_providers {
    videohost = {
      source  = "videohost/videohost"
      version = "~> 0.1.0"
    }
  }
}

provider "videohost" {}

resource "videohost_webhook" "installed" {
  url    = "https://hooks.example.test/`+acctest.RunName(t, "installed")+`"
  events = ["video.encoding.quality.completed"]
}

output "id" {
  value = videohost_webhook.installed.id
}
`)
	out := w.Run("init", "-no-color")
	if !strings.Contains(out, "Installing videohost/videohost v"+version) || strings.Contains(out, "dev_overrides") {
		t.Fatalf("init did not install videohost/videohost v%s from the local directory:\n%s", version, out)
	}
	lock := acctest.ReadText(t, filepath.Join(w.Dir, ".terraform.lock.hcl"))
	if !strings.Contains(lock, `provider "`+host+`/videohost/videohost"`) || !strings.Contains(lock, `version     = "`+version+`"`) {
		t.Errorf("the lock file does not hold %s/videohost/videohost %s:\n%s", host, version, lock)
	}
	client := acctest.ServiceClient(t, env)
	if out = w.Run("apply", "-no-color", "-auto-approve"); !strings.Contains(out, "1 added") {
		t.Fatalf("the apply did not create the webhook:\n%s", out)
	}
	id := strings.TrimSpace(w.Run("output", "-raw", "id"))
	if _, err := client.LookupWebhook(ctx, id); err != nil {
		t.Fatalf("the webhook %q the apply created is not on the service: %v", id, err)
	}
	if out = w.Run("destroy", "-no-color", "-auto-approve"); !strings.Contains(out, "1 destroyed") {
		t.Fatalf("the destroy did not delete the webhook:\n%s", out)
	}
	// GetWebhook reads the service now; LookupWebhook would answer from the list it read above.
	if _, err := client.GetWebhook(ctx, id); !errors.Is(err, videohost.ErrNotFound) {
		t.Fatalf("the webhook %s is still on the service after the destroy: %v", id, err)
	}

	runMake(ctx, t, menv, "uninstall")
	for _, h := range []string{"registry.terraform.io", "registry.opentofu.org"} {
		if _, err := os.Stat(filepath.Join(plugins, h)); !os.IsNotExist(err) {
			t.Errorf("make uninstall left %s (%v)", filepath.Join(plugins, h), err)
		}
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("make uninstall removed another provider: %v", err)
	}
}
