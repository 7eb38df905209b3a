package provider

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/events"
)

// TestAccWebhookGenerateConfig runs what a user runs to adopt an existing webhook:
// terraform plan -generate-config-out with an import block, then validate, apply and plan on
// the generated configuration. The testing framework cannot run these commands on a file it
// did not write, so the test builds the provider, points Terraform at it with dev_overrides in
// its own CLI configuration, and runs the real terraform binary.
func TestAccWebhookGenerateConfig(t *testing.T) {
	env := newAccEnv(t, emulator.Options{})
	env.requireEmulator(t)
	parallel(t)
	tfBin := terraformCLI(t)
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()

	w, err := env.Emu.CreateWebhook("https://hooks.example.test/adopt?team=video", []string{events.VideoCaptionGenerated, events.VideoSummaryGenerated})
	if err != nil {
		t.Fatal(err)
	}

	cliConfig := devOverrideCLI(ctx, t)
	work := t.TempDir()
	writeFile(t, filepath.Join(work, "main.tf"), fmt.Sprintf(`terraform {
  required_providers {
    videohost = { source = "videohost/videohost" }
  }
}
%s
import {
  to = videohost_webhook.adopted
  id = %s
}
`, env.providerConfig(""), hcl(w.WebhookID)))

	run := func(wantCode int, args ...string) string {
		t.Helper()
		cmd := exec.CommandContext(ctx, tfBin, args...)
		cmd.Dir, cmd.Env = work, terraformEnv(cliConfig)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("terraform %v: %v", args, err)
		}
		if code != wantCode {
			t.Fatalf("terraform %s exited %d, want %d:\n%s", strings.Join(args, " "), code, wantCode, out.String())
		}
		return out.String()
	}

	run(0, "plan", "-no-color", "-generate-config-out=generated.tf")
	generated, err := os.ReadFile(filepath.Join(work, "generated.tf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`resource "videohost_webhook" "adopted" \{`),
		regexp.MustCompile(`url\s+=\s+"https://hooks.example.test/adopt\?team=video"`),
		regexp.MustCompile(`events\s+=\s+\["video.caption.generated", "video.summary.generated"\]`),
	} {
		if !want.Match(generated) {
			t.Errorf("generated.tf does not match %s:\n%s", want, generated)
		}
	}
	if bytes.Contains(generated, []byte(w.SignatureSecret)) {
		t.Error("generated.tf holds the signature secret")
	}

	run(0, "validate", "-no-color")
	out := run(0, "apply", "-no-color", "-auto-approve")
	if !strings.Contains(out, "1 imported, 0 added, 0 changed, 0 destroyed") {
		t.Errorf("apply of the generated configuration did more than import:\n%s", out)
	}
	run(0, "plan", "-no-color", "-detailed-exitcode")
	if len(env.Emu.Webhooks()) != 1 {
		t.Errorf("%d webhooks on the service, want the one adopted", len(env.Emu.Webhooks()))
	}
}
