package provider_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/localfile/localfiletest"
)

// Set by make upgrade-test (scripts/upgrade-test.sh): a filesystem mirror that holds an earlier
// build of the provider, and that build's version.
const (
	envUpgradeMirror  = "VIDEOHOST_UPGRADE_MIRROR"
	envUpgradeVersion = "VIDEOHOST_UPGRADE_VERSION"
)

// TestAccUpgradeFromEarlierBuild: every resource kind, applied by an earlier build of the provider
// (a recorded release, or the build that pilots run), is planned by this build with no change,
// no replacement and no warning: what a user meets on terraform init -upgrade. The earlier build
// is installed from a filesystem mirror as users install a release; this build runs through
// dev_overrides, as the other CLI tests run it. make upgrade-test builds the earlier versions
// and runs this test once for each.
func TestAccUpgradeFromEarlierBuild(t *testing.T) {
	mirror, version := os.Getenv(envUpgradeMirror), os.Getenv(envUpgradeVersion)
	if mirror == "" || version == "" {
		t.Skipf("needs an earlier build in a filesystem mirror (%s, %s): make upgrade-test builds them and runs it", envUpgradeMirror, envUpgradeVersion)
	}
	env := acctest.NewAccEnv(t, emulator.Options{})
	bin := acctest.TerraformCLI(t)
	dir := t.TempDir()
	files := t.TempDir()
	vtt := acctest.TempFile(t, files, "en.vtt", acctest.WebVTT("Hello."))
	png := localfiletest.WritePNG(t, files, "mark.png", 16, 16, 7)
	clip, _ := acctest.WriteRandomFile(t, files, "clip.mp4", 256<<10)
	resources := fmt.Sprintf(`
resource "videohost_webhook" "w" {
  url    = %[1]q
  events = ["video.encoding.quality.completed"]
}

resource "videohost_player_theme" "t" {
  name = %[2]q
}

resource "videohost_live_stream" "s" {
  name      = %[3]q
  player_id = videohost_player_theme.t.id
}

resource "videohost_video" "url" {
  title      = %[4]q
  source_url = "https://media.example.test/upgrade.mp4"
  tags       = ["upgrade"]
  metadata   = { kept = "yes" }
}

resource "videohost_video" "file" {
  title       = %[5]q
  source_file = %[6]q
}

resource "videohost_video_caption" "c" {
  video_id    = videohost_video.url.id
  language    = "en"
  source_file = %[7]q
}

resource "videohost_video_chapter" "ch" {
  video_id    = videohost_video.url.id
  language    = "en"
  source_file = %[7]q
}

resource "videohost_watermark" "wm" {
  source_file = %[8]q
}

resource "videohost_upload_token" "ut" {}

resource "videohost_video_summary" "sum" {
  video_id = videohost_video.url.id
  abstract = "Upgraded."
}
`, "https://hooks.example.test/"+env.Name("upgrade"), env.Name("theme"), env.Name("studio"), env.Name("url"),
		env.Name("file"), clip, vtt, png)
	write := func(constraint string) {
		t.Helper()
		acctest.WriteFile(t, filepath.Join(dir, "main.tf"), fmt.Sprintf(`terraform {
  required_providers {
    videohost = {
      source  = "videohost/videohost"
      version = %q
    }
  }
}
`, constraint)+env.ProviderConfig("")+resources)
	}
	run := func(cliConfig string, args ...string) (string, int) {
		t.Helper()
		cmd := exec.CommandContext(t.Context(), bin, args...)
		cmd.Dir, cmd.Env = dir, acctest.TerraformEnv(cliConfig)
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%s %s: %v", bin, strings.Join(args, " "), err)
		}
		return string(out), code
	}

	// The earlier build, from the mirror, as a release is installed.
	mirrorConfig := filepath.Join(t.TempDir(), "mirror.tfrc")
	acctest.WriteFile(t, mirrorConfig, fmt.Sprintf(`provider_installation {
  filesystem_mirror {
    path    = %q
    include = ["videohost/videohost"]
  }
  direct {
    exclude = ["videohost/videohost"]
  }
}
`, mirror))
	write("= " + version)
	if out, code := run(mirrorConfig, "init", "-input=false"); code != 0 {
		t.Fatalf("init with the earlier build %s exited %d:\n%s", version, code, out)
	} else if !strings.Contains(out, version) {
		t.Fatalf("init did not install the earlier build %s:\n%s", version, out)
	}
	if out, code := run(mirrorConfig, "apply", "-input=false", "-auto-approve"); code != 0 {
		t.Fatalf("apply with the earlier build %s exited %d:\n%s", version, code, out)
	}

	// This build, on the state the earlier one wrote.
	write(">= 0.0.0")
	out, code := run(acctest.DevOverrideCLI(t.Context(), t), "plan", "-input=false", "-detailed-exitcode", "-no-color")
	switch code {
	case 0:
	case 2:
		t.Fatalf("this build plans changes over the state that %s wrote: an upgrade must change nothing:\n%s", version, out)
	default:
		t.Fatalf("this build's plan over the state that %s wrote exited %d:\n%s", version, code, out)
	}
	if w := providerWarnings(out); len(w) > 0 {
		t.Errorf("this build's plan over the state that %s wrote warns: %q\n%s", version, w, out)
	}
	// What the test made is destroyed by this build, as a user who upgraded would.
	if out, code := run(acctest.DevOverrideCLI(t.Context(), t), "destroy", "-input=false", "-auto-approve"); code != 0 {
		t.Errorf("destroy with this build exited %d:\n%s", code, out)
	}
}

// warningLine is a warning's summary as the CLI prints it without colour.
var warningLine = regexp.MustCompile(`(?m)^(?:│ )?Warning: (.+)$`)

// providerWarnings are the summaries of the warnings in a CLI's output, but the CLI's own about
// the dev_overrides that run this build.
func providerWarnings(out string) []string {
	var ws []string
	for _, m := range warningLine.FindAllStringSubmatch(out, -1) {
		if !strings.Contains(m[1], "Provider development overrides are in effect") {
			ws = append(ws, m[1])
		}
	}
	return ws
}

// TestProviderWarnings: the CLI's warning about dev_overrides is not the provider's.
func TestProviderWarnings(t *testing.T) {
	out := "╷\n│ Warning: Provider development overrides are in effect\n│\n╵\n╷\n│ Warning: Video Upload Incomplete\n╵\nWarning: Deprecated Attribute\n"
	if got := providerWarnings(out); len(got) != 2 || got[0] != "Video Upload Incomplete" || got[1] != "Deprecated Attribute" {
		t.Errorf("providerWarnings = %q", got)
	}
}
