package framework_test

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// rateWaitLine is the part of the warning's detail that gives the writes' figures: the limit,
// the window, the requests held, the sum of their waits and the wall time (captured).
var rateWaitLine = regexp.MustCompile(`writes\s+rate\s+limit\s+\(2\s+per\s+2\s+s\)\s+held\s+[0-9]+\s+requests?,\s+which\s+waited\s+[0-9.]+\s+s\s+in\s+total\s+\(([0-9.]+)\s+s\s+of\s+wall\s+time\)`)

// TestAccRateLimitWaitWarning applies six webhooks under a limit of 2 writes per 2 s window
// with the real terraform and reads its default output, as a user would: the apply must say,
// once and without a line per resource, that it waited on the service's rate limit, naming the
// limit and its window and how long the requests were held in all. The destroy says it once
// too (its warnings point at no configuration, so Terraform does not fold them), and so does
// the apply of a video whose upload the uploads class holds.
func TestAccRateLimitWaitWarning(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{Limits: emulator.Limits{Writes: 2, Uploads: 1}, RateWindow: 2 * time.Second})
	env.RequireEmulator(t)
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	cli := acctest.NewCLIWorkdir(ctx, t, "1.0.0")
	cli.WriteConfig(env, "", `
resource "videohost_webhook" "many" {
  count  = 6
  url    = "https://hooks.example.test/`+env.Name("rate")+`/${count.index}"
  events = ["video.source.recorded"]
}
`)
	out := cli.Run("apply", "-no-color", "-auto-approve")
	if !strings.Contains(out, "Apply complete! Resources: 6 added") {
		t.Fatalf("the apply did not create the six webhooks:\n%s", out)
	}
	if n := strings.Count(out, "Warning: "+framework.RateWaitSummary); n != 1 {
		t.Fatalf("the output holds %d warnings %q, want exactly one (the others folded into it):\n%s", n, framework.RateWaitSummary, out)
	}
	m := rateWaitLine.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("the warning does not give the writes limit, its window and the time held (%s):\n%s", rateWaitLine, out)
	}
	// Six writes at two a window: the last two wait about two windows, 4 s, and the warning that
	// Terraform shows must give that total, not a part of it.
	if held, err := strconv.ParseFloat(m[1], 64); err != nil || held < 3 {
		t.Errorf("the warning says the limit held the run %s s of wall time, want about 4 s (at least 3 s)", m[1])
	}
	if !regexp.MustCompile(`Nothing\s+failed`).MatchString(out) || !regexp.MustCompile(`TF_LOG_PROVIDER=INFO`).MatchString(out) {
		t.Errorf("the warning does not say that nothing failed and where to see every wait:\n%s", out)
	}
	if i := strings.Index(out, "Warning: "+framework.RateWaitSummary); i >= 0 {
		t.Logf("what the user reads:\n%s", out[i:])
	}

	out = cli.Run("destroy", "-no-color", "-auto-approve")
	if n := strings.Count(out, "Warning: "+framework.RateWaitSummary); !strings.Contains(out, "Resources: 6 destroyed") || n != 1 {
		t.Fatalf("the destroy of six webhooks under the limit prints %d warnings %q, want exactly one:\n%s", n, framework.RateWaitSummary, out)
	}

	// Three chunks at one a window: the last waits about two windows, all of it in the uploads
	// class.
	source, _ := acctest.WriteRandomFile(t, t.TempDir(), "rate.mp4", 11<<20)
	cli.WriteConfig(env, "upload_chunk_size_mib = 5\nupload_chunks_in_flight = 1", `
resource "videohost_video" "held" {
  title       = `+acctest.Hcl(env.Name("held"))+`
  source_file = `+acctest.Hcl(source)+`
}
`)
	out = cli.Run("apply", "-no-color", "-auto-approve")
	uploads := regexp.MustCompile(`uploads\s+rate\s+limit\s+\(1\s+per\s+2\s+s\)\s+held\s+[0-9]+\s+requests?,\s+which\s+waited\s+[0-9.]+\s+s\s+in\s+total\s+\([0-9.]+\s+s\s+of\s+wall\s+time\)`)
	if n := strings.Count(out, "Warning: "+framework.RateWaitSummary); n != 1 || !uploads.MatchString(out) {
		t.Fatalf("the upload held by the uploads class prints %d warnings %q, want one that names the uploads limit:\n%s", n, framework.RateWaitSummary, out)
	}
}

// TestRateWaitDetail: an operation warns only when the limiter held requests while it ran, none
// is held any more when it ends, and the run has waited at least a second in all; the detail
// names each class that waited with its limit and window.
func TestRateWaitDetail(t *testing.T) {
	stats := func(readsWaited, writesWaited time.Duration, writesWaiting int) []videohost.RateLimitWaits {
		return []videohost.RateLimitWaits{
			{Class: videohost.ClassReads, Waited: readsWaited, WaitedSum: readsWaited, Waits: 1, Limit: 100, Window: time.Minute},
			{Class: videohost.ClassWrites, Waited: writesWaited, WaitedSum: 5 * writesWaited, Waits: 33, Waiting: writesWaiting, Limit: 8, Window: 10 * time.Second},
		}
	}
	cases := []struct {
		name   string
		after  []videohost.RateLimitWaits
		warns  bool
		detail []string
	}{
		{"the end of a stretch of waiting", stats(0, 62*time.Second, 0), true,
			[]string{"the writes rate limit (8 per 10 s) held 33 requests, which waited 310 s in total (62 s of wall time)"}},
		{"others still held", stats(0, 62*time.Second, 3), false, nil},
		{"reads too", stats(1500*time.Millisecond, 30*time.Second, 0), true,
			[]string{"the reads rate limit (100 per minute) held 1 request, which waited 1.5 s in total (1.5 s of wall time); " +
				"the writes rate limit (8 per 10 s) held 33 requests, which waited 150 s in total (30 s of wall time)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			detail, warns := framework.RateWaitDetail(c.after)
			if warns != c.warns {
				t.Fatalf("warns = %v, want %v", warns, c.warns)
			}
			acctest.RequireContains(t, detail, c.detail...)
		})
	}
	if _, warns := framework.RateWaitDetail(stats(0, 800*time.Millisecond, 0)); warns {
		t.Error("a run that waited less than a second in all warns")
	}
}

// TestAccRateLimitExhaustedNamesTheWindow: when 429s outlast max_retries under a 2 s window,
// the error gives the limit per the window the service's headers told, and the window's
// length to wait, not "a minute".
func TestAccRateLimitExhaustedNamesTheWindow(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{
		Limits: emulator.Limits{Writes: 8}, RateWindow: 2 * time.Second, Faults: emulator.Faults{Burst429: 10},
	})
	env.RequireEmulator(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: acctest.WebhookConfig(env, "max_retries = 1", "https://hooks.example.test/"+env.Name("exhausted"), "video.source.recorded"),
			ExpectError: acctest.WrappedPhrases("Unable to Create Webhook", "The writes rate limit (8 per 2 s) of the sandbox environment "+
				"stayed exhausted after every retry", "Waiting for the window to reset (2 s)"),
		}},
	})
}
