package acctest

import (
	"bytes"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/sweep"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// TestSweepDeletesWhatCarriesThePrefix: the sweeper deletes, in a workspace with Video Restore,
// the videos, live streams, player themes and webhooks whose name (a webhook's URL) carries
// the test prefix and the watermark whose id a run's ledger holds, prints each, and leaves
// everything else: a user's objects, another watermark, and the discarded video its own
// delete made (the API has no delete of discarded videos).
func TestSweepDeletesWhatCarriesThePrefix(t *testing.T) {
	c := sweptWorkspace(t, emulator.Options{VideoRestore: true})
	ctx := t.Context()
	must := func(_ any, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	swept := RunPrefix() + "-TestX-clip"
	sweptVideo, err := c.CreateVideo(ctx, videohost.VideoCreate{Title: swept})
	if err != nil {
		t.Fatal(err)
	}
	// A summary the ledger holds, of a video the sweeper deletes first: gone with its video.
	summary, err := c.CreateSummary(ctx, videohost.SummaryCreate{VideoID: sweptVideo.ID})
	if err != nil {
		t.Fatal(err)
	}
	must(c.CreateVideo(ctx, videohost.VideoCreate{Title: "my holiday " + TestPrefix}))
	must(c.CreateLiveStream(ctx, videohost.CreateLiveStreamInput{Name: swept}))
	must(c.CreateLiveStream(ctx, videohost.CreateLiveStreamInput{Name: "made in the dashboard"}))
	must(c.CreatePlayerTheme(ctx, videohost.PlayerThemeInput{Name: videohost.Value(swept)}))
	must(c.CreateWebhook(ctx, videohost.CreateWebhookInput{URL: "https://hooks.example.test/" + swept, Events: []string{"video.encoding.quality.completed"}}))
	must(c.CreateWebhook(ctx, videohost.CreateWebhookInput{URL: "https://" + TestPrefix + "host.example.test/mine", Events: []string{"video.encoding.quality.completed"}}))
	png := []byte(ReadText(t, WritePNG(t, t.TempDir(), "w.png", 8, 8, 1)))
	mark, err := c.CreateWatermark(ctx, videohost.UploadSource{Name: "w.png", Reader: bytes.NewReader(png), Size: int64(len(png))})
	if err != nil {
		t.Fatal(err)
	}
	must(c.CreateWatermark(ctx, videohost.UploadSource{Name: "w.png", Reader: bytes.NewReader(png), Size: int64(len(png))}))

	var out strings.Builder
	deleted, err := Sweep(ctx, c, nil, map[string]bool{"watermark " + mark.ID: true, "summary " + summary.ID: true}, &out)
	if err != nil {
		t.Fatal(err)
	}
	if len(deleted) < 5 || len(deleted) > 6 {
		t.Errorf("deleted %d objects, want 5 (a video, a live stream, a player theme, a webhook, a watermark) and the summary unless it went with its video:\n%s", len(deleted), out.String())
	}
	if !strings.Contains(out.String(), "deleted summary "+summary.ID) && !strings.Contains(out.String(), "already gone: summary "+summary.ID) {
		t.Errorf("the sweeper's output does not account for the summary %s:\n%s", summary.ID, out.String())
	}
	for _, want := range []string{`deleted video `, `deleted live stream `, `deleted player theme `, `deleted webhook `, `deleted watermark ` + mark.ID, swept} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the sweeper's output does not say %q:\n%s", want, out.String())
		}
	}
	left, err := Inventory(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, o := range left {
		kinds[o.Kind]++
		if o.Kind == "discarded video" && (o.Name != swept || o.Until == nil) {
			t.Errorf("discarded video %+v: want %q with the date it is purged", o, swept)
		}
	}
	want := map[string]int{"video": 1, "live stream": 1, "webhook": 1, "watermark": 1, "discarded video": 1}
	for k, n := range want {
		if kinds[k] != n {
			t.Errorf("%d %ss left, want %d (all left: %+v)", kinds[k], k, n, left)
		}
	}
}

// TestSweepOrder: every sweeper runs after those it depends on (a summary's before the videos',
// the live streams' and the videos' before the player themes'), each once; -sweep-run's names
// bring their dependencies along; an unknown name is refused, listing the sweepers.
func TestSweepOrder(t *testing.T) {
	names := func(order []sweep.Sweeper) string {
		var n []string
		for _, s := range order {
			n = append(n, s.Name)
		}
		return strings.Join(n, " ")
	}
	all, err := SweepOrder(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != len(sweep.Sweepers()) {
		t.Errorf("all sweepers: %s, want each of the %d once", names(all), len(sweep.Sweepers()))
	}
	pos := map[string]int{}
	for i, s := range all {
		pos[s.Name] = i
	}
	for _, s := range sweep.Sweepers() {
		for _, d := range s.Dependencies {
			if pos[d] > pos[s.Name] {
				t.Errorf("%s runs after %s, which depends on it: %s", d, s.Name, names(all))
			}
		}
	}
	if pos["videohost_video_summary"] > pos["videohost_video"] || pos["videohost_live_stream"] > pos["videohost_player_theme"] {
		t.Errorf("order %s: summaries before videos and live streams before player themes", names(all))
	}
	picked, err := SweepOrder([]string{"videohost_player_theme"})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(picked); got != "videohost_live_stream videohost_video_summary videohost_video videohost_player_theme" {
		t.Errorf("-sweep-run videohost_player_theme: %s, want its dependencies first", got)
	}
	if _, err := SweepOrder([]string{"videohost_nothing"}); err == nil || !strings.Contains(err.Error(), "videohost_webhook") {
		t.Errorf("an unknown sweeper: %v, want a refusal that lists the sweepers", err)
	}
}

// TestSweepRunDeletesOnlyItsKinds: a sweep of the webhooks alone deletes the test's webhook and
// leaves its video.
func TestSweepRunDeletesOnlyItsKinds(t *testing.T) {
	c := sweptWorkspace(t, emulator.Options{})
	name := RunName(t, "x")
	if _, err := c.CreateVideo(t.Context(), videohost.VideoCreate{Title: name}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateWebhook(t.Context(), videohost.CreateWebhookInput{URL: "https://hooks.example.test/" + name, Events: []string{"video.encoding.quality.completed"}}); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	deleted, err := Sweep(t.Context(), c, []string{"videohost_webhook"}, nil, &out)
	if err != nil {
		t.Fatal(err)
	}
	if len(deleted) != 1 || deleted[0].Kind != "webhook" || !strings.Contains(out.String(), "videohost_webhook: 1 deleted") {
		t.Errorf("deleted %+v, want the webhook alone:\n%s", deleted, out.String())
	}
	left, err := c.ListVideos(t.Context(), videohost.VideoFilter{Title: name})
	if err != nil || len(left) != 1 {
		t.Errorf("the test's video: %d left (%v), want it kept", len(left), err)
	}
}

// sweptWorkspace is a client of an emulator of opts on a loopback port, stopped when t ends: the
// workspace a sweep test fills and sweeps.
func sweptWorkspace(t *testing.T, opts emulator.Options) *videohost.Client {
	t.Helper()
	emu, err := emulator.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(emu)
	t.Cleanup(func() { srv.Close(); _ = emu.Close() })
	c, err := videohost.New(videohost.Config{BaseURL: srv.URL, APIKey: emu.APIKeys()[0], AuthScheme: videohost.AuthBasic, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
