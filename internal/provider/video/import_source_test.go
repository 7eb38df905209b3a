package video_test

// Tests of the import of a video that has no source: one made through the API and never
// uploaded. The import says what it lacks and what to set, the plan of a configuration that
// sets a source plans that source (never an empty plan for a video that cannot play), and the
// configuration that -generate-config-out writes for it fails naming the sources to choose from.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/provider/video"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// importedVideo is a videohost_video "clip" resource with an import block for id, and attrs.
func importedVideo(id string, attrs ...string) string {
	return fmt.Sprintf(`
import {
  to = videohost_video.clip
  id = %q
}

resource "videohost_video" "clip" {
%s}
`, id, acctest.HclAttrs(attrs...))
}

// noSourceCLI makes a video without a source through the API, as a script or the dashboard
// would, and a working directory for the CLI.
func noSourceCLI(t *testing.T, title string) (*acctest.AccEnv, *acctest.CliWorkdir, string) {
	t.Helper()
	env := acctest.NewAccEnv(t, emulator.Options{})
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	t.Cleanup(cancel)
	cli := acctest.NewCLIWorkdir(ctx, t, "1.5.0")
	id := acctest.CreateVideoOutside(t, env, videohost.VideoCreate{Title: env.Name(title)})
	return env, cli, id
}

// requireNoSourceWarning fails unless out has the import's warning about video id, naming
// what it lacks and every source to set.
func requireNoSourceWarning(t *testing.T, out, id string) {
	t.Helper()
	flat := strings.Join(strings.Fields(strings.ReplaceAll(out, "│", "")), " ")
	acctest.RequireContains(t, flat, "Warning: "+video.VideoHasNoSourceSummary, id, "source_file", "source_url",
		"source_video_id", "keeps its id", "replaces")
}

// TestAccVideoImportWithoutSourceURL imports a video that has no source into a configuration
// that gives it a source_url: the plan warns that the video has none and replaces it with one
// made from the address (the service takes a URL only when it creates a video), rather than
// planning nothing for a video that never plays. After the apply the plan is empty.
func TestAccVideoImportWithoutSourceURL(t *testing.T) {
	env, cli, id := noSourceCLI(t, "no source, url")
	cli.WriteConfig(env, "", importedVideo(id, "title", acctest.Hcl(env.Name("no source, url")),
		"source_url", acctest.Hcl("https://media.example.test/made-up.mp4")))
	out := cli.Run("plan", "-no-color", "-input=false")
	requireNoSourceWarning(t, out, id)
	if !strings.Contains(out, "Warning: Imported Video Has No Source") {
		t.Errorf("the plan does not warn that it replaces the video, which has no source:\n%s", out)
	}
	if !strings.Contains(out, "1 to import, 1 to add, 0 to change, 1 to destroy") {
		t.Errorf("the plan does not import the video and replace it with one made from source_url:\n%s", out)
	}
	cli.Run("apply", "-auto-approve", "-no-color", "-input=false")
	cli.Run("plan", "-detailed-exitcode", "-no-color", "-input=false")
	got, _ := videoStateOf(t, cli)
	if got == id {
		t.Errorf("video %s, which had no source, is still the one in the state", id)
	}
	v, err := acctest.ServiceClient(t, env).GetVideo(t.Context(), got)
	if err != nil || v.Source == nil || v.Source.URI != "https://media.example.test/made-up.mp4" {
		t.Errorf("the video of the state, %s, is %+v (%v); want one made from source_url", got, v.Source, err)
	}
	cli.Run("destroy", "-auto-approve", "-no-color", "-input=false")
}

// TestAccVideoImportWithoutSourceFile imports a video that has no source into a configuration
// that gives it a source_file: the plan warns, and updates the video in place to upload the
// file into it (it keeps its id); after the apply the service holds the file and the plan is
// empty.
func TestAccVideoImportWithoutSourceFile(t *testing.T) {
	env, cli, id := noSourceCLI(t, "no source, file")
	file, sum := acctest.WriteRandomFile(t, cli.Dir, "clip.mp4", 64<<10)
	cli.WriteConfig(env, "", importedVideo(id, "title", acctest.Hcl(env.Name("no source, file")), "source_file", acctest.Hcl(file)))
	out := cli.Run("plan", "-no-color", "-input=false")
	requireNoSourceWarning(t, out, id)
	if !strings.Contains(out, "1 to import, 0 to add, 1 to change, 0 to destroy") {
		t.Errorf("the plan does not import the video and upload the file into it:\n%s", out)
	}
	cli.Run("apply", "-auto-approve", "-no-color", "-input=false")
	cli.Run("plan", "-detailed-exitcode", "-no-color", "-input=false")
	if got, missing := videoStateOf(t, cli); got != id || missing == nil || *missing != 0 {
		t.Errorf("the state holds video %s with %v bytes missing, want %s with 0", got, missing, id)
	}
	// The service's status shows the whole file arrived; the emulator also shows which bytes.
	st, err := acctest.ServiceClient(t, env).GetVideoStatus(t.Context(), id)
	if err != nil || !st.Complete() || st.Ingest == nil || st.Ingest.Filesize == nil || *st.Ingest.Filesize != 64<<10 {
		t.Errorf("video %s's status after the apply: %+v, %v; want the whole file of %d bytes", id, st, err, 64<<10)
	}
	if env.Emu == nil {
		return
	}
	if _, got, complete, _ := env.Emu.VideoSource(id); !complete || got != sum {
		t.Errorf("video %s holds SHA-256 %s (complete %t), want the file's %s", id, got, complete, sum)
	}
}

// TestAccVideoImportWithoutSourceGenerateConfig runs terraform plan -generate-config-out on an
// import block for a video that has no source: the generated resource has no source (the
// service has none to give), and the plan fails with "Missing Video Source", whose words name
// the sources to choose from for an imported video, beside the import's own warning.
func TestAccVideoImportWithoutSourceGenerateConfig(t *testing.T) {
	env, cli, id := noSourceCLI(t, "no source, generated")
	cli.WriteConfig(env, "", fmt.Sprintf("\nimport {\n  to = videohost_video.clip\n  id = %q\n}\n", id))
	out := cli.RunFailing("plan", "-no-color", "-input=false", "-generate-config-out=generated.tf")
	flat := strings.Join(strings.Fields(strings.ReplaceAll(out, "│", "")), " ")
	acctest.RequireContains(t, flat, "Error: Missing Video Source", "imported", "source_file", "keeps its id",
		"source_url", "source_video_id", "replace")
	requireNoSourceWarning(t, out, id)
	generated, err := os.ReadFile(filepath.Join(cli.Dir, "generated.tf"))
	if err != nil {
		t.Fatalf("no generated configuration: %v\n%s", err, out)
	}
	if !regexp.MustCompile(`source_file\s+= null`).Match(generated) {
		t.Errorf("the generated configuration gives the video a source it does not have:\n%s", generated)
	}
}
