package video_test

// Tests of the Video Restore feature: the destroy's warning, the videohost_video_restore action,
// and the import of a restored video.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/provider/video"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// restoredVideoResource is the video of the restore tests of t, named by its run and test, and
// the output of its id.
func restoredVideoResource(t *testing.T) string {
	return fmt.Sprintf(`
resource "videohost_video" "kept" {
  title      = %q
  source_url = "https://media.example.test/kept.mp4"
}

output "id" {
  value = videohost_video.kept.id
}
`, acctest.RunName(t, "kept for restore"))
}

// destroyDiscards creates the video of restoredVideoResource in w, then removes it from the
// configuration: the apply's warning says that the service discarded it, and until when (the
// deletesAt the service gives; in-process, 90 days later: the tests run a production emulator,
// whose videos do not expire after a day). It returns the video's id. Against a real endpoint
// whose workspace has no Video Restore feature (the destroyed video is not among the discarded
// videos) it skips the test, which has nothing to restore.
func destroyDiscards(t *testing.T, env *acctest.AccEnv, w *acctest.CliWorkdir, rest string) string {
	t.Helper()
	w.WriteConfig(env, "", restoredVideoResource(t))
	w.Run("apply", "-auto-approve", "-no-color", "-input=false")
	id := strings.TrimSpace(w.Run("output", "-raw", "id"))
	w.WriteConfig(env, "", rest)
	out := w.Run("apply", "-auto-approve", "-no-color", "-input=false")
	d := discardedOrSkip(t, env, id)
	until := d.DeletesAt.UTC().Format("2006-01-02T")
	if env.Emu != nil {
		if want := env.Emu.Now().Add(emulator.DiscardRetention).UTC().Format("2006-01-02T"); until != want {
			t.Errorf("video %s is kept until %s, want %s... (90 days)", id, d.DeletesAt, want)
		}
	}
	if !strings.Contains(out, video.VideoDiscardedSummary) || !strings.Contains(out, id) || !strings.Contains(out, until) {
		t.Errorf("the destroy of video %s does not warn that it was discarded until %s...:\n%s", id, until, out)
	}
	return id
}

// discardedOrSkip reads video id, just destroyed, among the discarded videos through the public
// API. Not found there, the workspace has no Video Restore feature: a failure in-process (the
// tests' emulator has it), a skip against a real endpoint, which may not.
func discardedOrSkip(t *testing.T, env *acctest.AccEnv, id string) videohost.Video {
	t.Helper()
	d, err := acctest.ServiceClient(t, env).GetDiscardedVideo(t.Context(), id)
	switch {
	case errors.Is(err, videohost.ErrNotFound) && env.Emu == nil:
		t.Logf("video %s, destroyed, is not among the discarded videos", id)
		t.Skip("the workspace has no Video Restore feature (a destroyed video is not among its discarded videos): " +
			"there is nothing to restore; the emulator has it with -video-restore")
	case err != nil:
		t.Fatalf("reading video %s among the discarded videos: %v", id, err)
	case !d.Discarded || d.DeletesAt == nil:
		t.Fatalf("video %s among the discarded videos: discarded %v, deletesAt %v; want discarded with a date", id, d.Discarded, d.DeletesAt)
	}
	return d
}

// importRestored imports the restored video id into the configuration it was destroyed from,
// with an import block; the plan after it is empty.
func importRestored(t *testing.T, env *acctest.AccEnv, w *acctest.CliWorkdir, id string) {
	t.Helper()
	w.WriteConfig(env, "", restoredVideoResource(t)+fmt.Sprintf(`
import {
  to = videohost_video.kept
  id = %q
}
`, id))
	out := w.Run("apply", "-auto-approve", "-no-color", "-input=false")
	if !strings.Contains(out, "1 imported") {
		t.Errorf("the apply did not import the restored video:\n%s", out)
	}
	w.Run("plan", "-detailed-exitcode", "-no-color", "-input=false")
	// The test leaves nothing: the restored video goes (discarded again where the workspace
	// keeps discarded videos, as the run's ledger says).
	w.Run("destroy", "-auto-approve", "-no-color", "-input=false")
}

// TestAccVideoDestroyDiscards destroys a video of a workspace with the Video Restore feature on
// any CLI: the destroy warns that the video was discarded and until when, the
// videohost_discarded_videos data source lists it, and once restored by the service's own call
// (what OpenTofu and older Terraform users send, as the action's page shows) it is imported back
// with an empty plan after. Against a real endpoint it needs a workspace with the feature, and
// skips, saying so, without it.
func TestAccVideoDestroyDiscards(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{VideoRestore: true, Environment: emulator.EnvProduction})
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	w := acctest.NewCLIWorkdir(ctx, t, "1.11.0")
	listed := fmt.Sprintf(`
data "videohost_discarded_videos" "kept" {
  title = %q
}

output "discarded" {
  value = [for v in data.videohost_discarded_videos.kept.videos : "${v.id} ${v.discarded} ${v.deletes_at}"]
}
`, acctest.RunName(t, "kept for restore"))
	id := destroyDiscards(t, env, w, listed)
	w.Run("apply", "-auto-approve", "-no-color", "-input=false", "-refresh-only")
	out := w.Run("output", "-json", "discarded")
	if !strings.Contains(out, id+" true 20") {
		t.Errorf("videohost_discarded_videos does not list video %s as discarded, with its deletes_at: %s", id, out)
	}
	if _, err := acctest.ServiceClient(t, env).RestoreVideo(ctx, id); err != nil {
		t.Fatalf("restoring video %s: %v", id, err)
	}
	importRestored(t, env, w, id)
}

// TestAccVideoRestoreAction destroys a video, restores it with the videohost_video_restore
// action (terraform apply -invoke, Terraform 1.14 and later), and imports it back; the action
// run again on the restored video completes with the warning "Video Not Discarded", and on an
// unknown id fails on video_id. Against a real endpoint it needs a workspace with the feature, and skips, saying
// so, without it.
func TestAccVideoRestoreAction(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{VideoRestore: true, Environment: emulator.EnvProduction})
	acctest.RequireCLIFeature(t, acctest.FeatureActions)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	w := acctest.NewCLIWorkdir(ctx, t, "1.14.0")
	action := func(id string) string {
		return fmt.Sprintf(`
action "videohost_video_restore" "kept" {
  config {
    video_id = %q
  }
}
`, id)
	}
	id := destroyDiscards(t, env, w, "")
	w.WriteConfig(env, "", action(id))
	out := w.Run("apply", "-auto-approve", "-no-color", "-input=false", "-invoke=action.videohost_video_restore.kept")
	if !strings.Contains(out, "Restored video "+id) {
		t.Errorf("the action does not say it restored video %s:\n%s", id, out)
	}
	if v, err := acctest.ServiceClient(t, env).GetVideo(ctx, id); err != nil || v.Discarded {
		t.Fatalf("video %s after the action: %+v, %v; want a video that is not discarded", id, v, err)
	}
	out = w.Run("apply", "-auto-approve", "-no-color", "-input=false", "-invoke=action.videohost_video_restore.kept")
	if !strings.Contains(out, video.VideoNotDiscardedSummary) || !strings.Contains(out, "restored already") {
		t.Errorf("the action run again does not warn that the video is not discarded (restored already):\n%s", out)
	}
	importRestored(t, env, w, id)

	w.WriteConfig(env, "", action("vi0000000000000000none"))
	out = w.RunFailing("apply", "-auto-approve", "-no-color", "-input=false", "-invoke=action.videohost_video_restore.kept")
	if !strings.Contains(out, video.DiscardedVideoNotFoundSummary) {
		t.Errorf("the action on an unknown id does not fail with %q:\n%s", video.DiscardedVideoNotFoundSummary, out)
	}
}

// TestVideoDiscardedWarningSaysHow: the warning names the video, the date, the action, the
// service's call for other CLIs and the import.
func TestVideoDiscardedWarningSaysHow(t *testing.T) {
	var diags diag.Diagnostics
	at := time.Date(2026, 2, 26, 10, 0, 0, 0, time.UTC)
	video.AddVideoDiscardedWarning(&diags, "vi123", &at)
	got := diags.Warnings()[0].Detail()
	for _, want := range []string{"vi123", "until 2026-02-26T10:00:00Z", "videohost_video_restore", "PATCH /discarded/videos/vi123",
		`{"discarded": false}`, "terraform import videohost_video.<name> vi123"} {
		if !strings.Contains(got, want) {
			t.Errorf("the warning does not hold %q: %s", want, got)
		}
	}
}

// TestVideoRestoreActionTellsCasesApart invokes videohost_video_restore through the protocol on
// each case the service answers: a discarded video is restored; the same video again, and a
// video never discarded, complete with the warning "Video Not Discarded" on video_id and change
// nothing; an id of no video fails with "Discarded Video Not Found" on video_id; and a video
// that cannot be read to tell them apart fails with "Unable to Restore the Video", never with a
// claim it cannot make.
func TestVideoRestoreActionTellsCasesApart(t *testing.T) {
	const unreadable = "vi0000000000000unreadable"
	emu, baseURL := acctest.ServeEmulator(t, emulator.Options{VideoRestore: true}, func(e *emulator.Emulator) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodGet && r.URL.Path == "/videos/"+unreadable {
				http.Error(w, `{"status":503,"title":"Unavailable"}`, http.StatusServiceUnavailable)
				return
			}
			e.ServeHTTP(w, r)
		})
	})
	key := emu.APIKeys()[0]
	c, err := videohost.New(videohost.Config{BaseURL: baseURL, APIKey: key, AuthScheme: videohost.AuthBasic, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	discarded, err := c.CreateVideo(ctx, videohost.VideoCreate{Title: "Discarded"})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteVideo(ctx, discarded.ID); err != nil {
		t.Fatal(err)
	}
	kept, err := c.CreateVideo(ctx, videohost.VideoCreate{Title: "Never discarded"})
	if err != nil {
		t.Fatal(err)
	}
	p := acctest.NewProtoServer(t, baseURL, key, map[string]tftypes.Value{
		"auth_scheme": acctest.Str("basic"), "max_retries": tftypes.NewValue(tftypes.Number, 0),
	})
	invoke := func(id string) (string, []*tfprotov6.Diagnostic) {
		progress, diags := p.Invoke("videohost_video_restore", map[string]tftypes.Value{"video_id": acctest.Str(id)})
		return strings.Join(progress, "\n"), diags
	}
	only := func(diags []*tfprotov6.Diagnostic, severity tfprotov6.DiagnosticSeverity, summary string) *tfprotov6.Diagnostic {
		t.Helper()
		if len(diags) != 1 || diags[0].Severity != severity || diags[0].Summary != summary {
			var got []string
			for _, d := range diags {
				got = append(got, fmt.Sprintf("%v %s: %s", d.Severity, d.Summary, d.Detail))
			}
			t.Fatalf("want one %v %q, got %q", severity, summary, got)
		}
		if a := diags[0].Attribute; a == nil || a.String() != tftypes.NewAttributePath().WithAttributeName("video_id").String() {
			t.Errorf("%s is not on video_id: %v", summary, diags[0].Attribute)
		}
		return diags[0]
	}

	progress, diags := invoke(discarded.ID)
	acctest.RequireNoErrors(t, "InvokeAction", diags)
	if len(diags) != 0 || !strings.Contains(progress, "Restored video "+discarded.ID) {
		t.Errorf("restoring a discarded video: progress %q, diagnostics %v", progress, diags)
	}
	if v, err := c.GetVideo(ctx, discarded.ID); err != nil || v.Discarded {
		t.Fatalf("video %s after the action: %+v, %v; want a video that is not discarded", discarded.ID, v, err)
	}

	for _, v := range []videohost.Video{discarded, kept} {
		progress, diags = invoke(v.ID)
		d := only(diags, tfprotov6.DiagnosticSeverityWarning, video.VideoNotDiscardedSummary)
		for _, want := range []string{v.ID, v.Title, "restored already", "never discarded", "Nothing was changed",
			"terraform import videohost_video.<name> " + v.ID} {
			if !strings.Contains(d.Detail, want) {
				t.Errorf("the warning on video %s does not say %q: %s", v.ID, want, d.Detail)
			}
		}
		if !strings.Contains(progress, "is not discarded") {
			t.Errorf("the progress on video %s does not say it is not discarded: %q", v.ID, progress)
		}
	}
	if got, err := c.GetVideo(ctx, kept.ID); err != nil || got.Title != kept.Title {
		t.Errorf("the video never discarded after the action: %+v, %v", got, err)
	}

	_, diags = invoke("vi0000000000000000none")
	d := only(diags, tfprotov6.DiagnosticSeverityError, video.DiscardedVideoNotFoundSummary)
	if !strings.Contains(d.Detail, "no video of that id either") {
		t.Errorf("the error on an unknown id: %s", d.Detail)
	}

	_, diags = invoke(unreadable)
	if len(diags) != 1 || diags[0].Severity != tfprotov6.DiagnosticSeverityError || diags[0].Summary != "Unable to Restore the Video" ||
		!strings.Contains(diags[0].Detail, "GET /videos/"+unreadable) {
		t.Errorf("a video that cannot be read: %v", diags)
	}
}
