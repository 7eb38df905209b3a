package provider

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// runFailing runs terraform with args, fails the test unless terraform fails, and returns what
// it printed, standard error included.
func (w *cliWorkdir) runFailing(args ...string) string {
	w.t.Helper()
	cmd := exec.CommandContext(w.ctx, w.bin, args...)
	cmd.Dir, cmd.Env = w.dir, w.env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		w.t.Fatalf("terraform %s: want it to fail, got %v:\n%s", strings.Join(args, " "), err, out.String())
	}
	return out.String()
}

// generatedKey is the line -generate-config-out writes for a restream's key that Terraform
// keeps in the state: a sensitive value is never written, so it is null.
var generatedKey = regexp.MustCompile(`(?m)^(\s*stream_key\s*=\s*)null\b.*$`)

// TestAccLiveStreamGenerateConfig runs the import path of Terraform 1.5 to 1.13 (and OpenTofu)
// on a live stream with a restream made outside Terraform: terraform plan -generate-config-out.
// The generated restream has stream_key = null and stream_key_wo = null (Terraform never writes
// a sensitive value), so the plan must fail with a message that says which key to fill in; once
// the key is filled in, the import applies and the next plan is empty. The resource's docs say
// the same.
func TestAccLiveStreamGenerateConfig(t *testing.T) {
	env := newAccEnv(t, emulator.Options{})
	env.requireEmulator(t)
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	cli := newCLIWorkdir(ctx, t, "1.5.0")

	const key = "rk-generated-config-1"
	ls, err := serviceClient(t, env).CreateLiveStream(ctx, videohost.CreateLiveStreamInput{
		Name:      "made in the dashboard",
		Restreams: []videohost.Restream{{Name: "YouTube", ServerURL: "rtmp://a.rtmp.youtube.com/live2", StreamKey: key}},
	})
	if err != nil {
		t.Fatal(err)
	}
	cli.write("main.tf", `terraform {
  required_providers {
    videohost = { source = "videohost/videohost" }
  }
}
`+env.providerConfig("")+`
import {
  to = videohost_live_stream.studio
  id = `+hcl(ls.ID)+`
}
`)
	out := cli.runFailing("plan", "-no-color", "-generate-config-out=generated.tf")
	generated, err := os.ReadFile(filepath.Join(cli.dir, "generated.tf"))
	if err != nil {
		t.Fatalf("no generated.tf: %v\n%s", err, out)
	}
	if bytes.Contains(generated, []byte(key)) {
		t.Fatal("generated.tf holds the restream's key")
	}
	if !generatedKey.Match(generated) {
		t.Fatalf("generated.tf has no stream_key = null; what this test documents has changed:\n%s", generated)
	}
	want := wrappedPhrases("Missing Stream Key for a Restream", `Restream 1 of restreams, "YouTube" (restreams[0]) has no stream key:`,
		"set restreams[0].stream_key to the key the destination gave for its ingest",
		"-generate-config-out (terraform plan or terraform query) has stream_key = null here", "fill in the key")
	if !want.MatchString(out) {
		t.Fatalf("the plan of the generated configuration does not say which key to fill in (want %s):\n%s", want, out)
	}

	// What the docs tell the user to do: fill in the key.
	cli.write("generated.tf", generatedKey.ReplaceAllString(string(generated), "${1}"+hcl(key)))
	if out := cli.run("apply", "-no-color", "-auto-approve"); !strings.Contains(out, "1 imported, 0 added, 0 changed, 0 destroyed") {
		t.Errorf("the apply of the completed configuration did not import the live stream alone:\n%s", out)
	}
	cli.run("plan", "-no-color", "-detailed-exitcode")
}
