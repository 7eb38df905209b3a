package analytics_test

// Tests of the analytics data sources (metric, breakdown, time series): what they refuse at plan
// and what they read of a video nobody has played, anywhere; what they read of plays, only
// in-process, since the plays are recorded through the emulator's control API.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/provider/analytics"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// TestAccAnalyticsOfUnplayedVideo reads the analytics of a video made outside Terraform a moment
// ago, which nobody has played: no play as a metric, no bucket of a breakdown by country, and
// no play in any point of a time series. It runs against any endpoint.
func TestAccAnalyticsOfUnplayedVideo(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	id := acctest.CreateVideoOutside(t, env, videohost.VideoCreate{Title: env.Name("unwatched")})
	config := env.ProviderConfig("") + fmt.Sprintf(`
data "videohost_analytics_metric" "plays" {
  metric      = "play"
  aggregation = "count"
  filter_by   = { media_id = [%[1]q] }
}

data "videohost_analytics_breakdown" "countries" {
  metric    = "play"
  breakdown = "country"
  filter_by = { media_id = [%[1]q] }
}

data "videohost_analytics_timeseries" "hours" {
  metric    = "play"
  filter_by = { media_id = [%[1]q] }
}
`, id)
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.videohost_analytics_metric.plays", tfjsonpath.New("value"), knownvalue.Float64Exact(0)),
				statecheck.ExpectKnownValue("data.videohost_analytics_metric.plays", tfjsonpath.New("timeframe_to"), knownvalue.NotNull()),
				statecheck.ExpectKnownValue("data.videohost_analytics_breakdown.countries", tfjsonpath.New("buckets"), knownvalue.ListSizeExact(0)),
				statecheck.ExpectKnownValue("data.videohost_analytics_timeseries.hours", tfjsonpath.New("interval"), knownvalue.StringExact("hour")),
				noPlayInPoints("data.videohost_analytics_timeseries.hours"),
			},
		}},
	})
}

// noPlayInPoints checks that every point of the time series at address counts no play: the
// service may answer the intervals without plays as points of 0, or leave them out.
func noPlayInPoints(address string) statecheck.StateCheck {
	return acctest.StateCheckFunc(func(s *tfjson.State) error {
		r, err := acctest.StateResource(s, address)
		if err != nil {
			return err
		}
		points, _ := r.AttributeValues["points"].([]any)
		for _, p := range points {
			if v, _ := p.(map[string]any)["metric_value"].(float64); v != 0 {
				return fmt.Errorf("%s has a point of %v plays, want none: %v", address, v, points)
			}
		}
		return nil
	})
}

// TestAccAnalyticsDataSources records plays of a video from two countries and reads them as a
// metric (filtered and not), a breakdown by country and a time series by hour. The plays are
// recorded through the emulator's control API (a real endpoint counts only real players'
// plays), so it runs only in-process.
func TestAccAnalyticsDataSources(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	env.RequireEmulatorFor(t, "it records plays through the emulator's control API")
	v, err := acctest.ServiceClient(t, env).CreateVideo(t.Context(), videohost.VideoCreate{Title: env.Name("watched"), Tags: []string{"launch"}})
	if err != nil {
		t.Fatal(err)
	}
	watch := 30.0
	for _, in := range []emulator.PlayInput{
		{MediaID: v.ID, Country: "FR", Browser: "firefox", Count: 3, WatchTime: &watch},
		{MediaID: v.ID, Country: "US", Browser: "chrome", Ended: true},
	} {
		if _, err := env.Emu.RecordPlays(in); err != nil {
			t.Fatal(err)
		}
	}
	from := env.Emu.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	config := env.ProviderConfig("") + fmt.Sprintf(`
data "videohost_analytics_metric" "plays" {
  metric      = "play"
  aggregation = "count"
}

data "videohost_analytics_metric" "french" {
  metric      = "watch-time"
  aggregation = "sum"
  from        = %[1]q
  filter_by = {
    country = ["FR"]
    tag     = "launch"
  }
}

data "videohost_analytics_breakdown" "countries" {
  metric    = "play"
  breakdown = "country"
}

data "videohost_analytics_timeseries" "hours" {
  metric = "play"
  from   = %[1]q
}
`, from)
	value := func(addr string, p tfjsonpath.Path, want knownvalue.Check) statecheck.StateCheck {
		return statecheck.ExpectKnownValue(addr, p, want)
	}
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				value("data.videohost_analytics_metric.plays", tfjsonpath.New("value"), knownvalue.Float64Exact(4)),
				value("data.videohost_analytics_metric.plays", tfjsonpath.New("timeframe_to"), knownvalue.NotNull()),
				value("data.videohost_analytics_metric.french", tfjsonpath.New("value"), knownvalue.Float64Exact(90)),
				value("data.videohost_analytics_breakdown.countries", tfjsonpath.New("buckets"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectExact(map[string]knownvalue.Check{"dimension_value": knownvalue.StringExact("FR"), "metric_value": knownvalue.Float64Exact(3)}),
					knownvalue.ObjectExact(map[string]knownvalue.Check{"dimension_value": knownvalue.StringExact("US"), "metric_value": knownvalue.Float64Exact(1)}),
				})),
				value("data.videohost_analytics_timeseries.hours", tfjsonpath.New("interval"), knownvalue.StringExact("hour")),
				value("data.videohost_analytics_timeseries.hours", tfjsonpath.New("points"), knownvalue.ListSizeExact(1)),
				value("data.videohost_analytics_timeseries.hours", tfjsonpath.New("points").AtSliceIndex(0).AtMapKey("metric_value"), knownvalue.Float64Exact(4)),
			},
		}},
	})
}

// TestAccAnalyticsPlanChecks: what the service would refuse is an error at plan, on the
// attribute, before any request. It runs against any endpoint.
func TestAccAnalyticsPlanChecks(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	step := func(body, want string) resource.TestStep {
		return resource.TestStep{Config: env.ProviderConfig("") + body, PlanOnly: true, ExpectError: regexp.MustCompile(want)}
	}
	defer acctest.NoRequestsTo(t, env, "/data/", "a configuration refused at plan")()
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			step(`data "videohost_analytics_metric" "x" {
  metric      = "start"
  aggregation = "rate"
}`, analytics.AnalyticsAggregationSummary),
			step(`data "videohost_analytics_metric" "x" {
  metric      = "play"
  aggregation = "count"
  unique      = true
}`, analytics.AnalyticsNotForMetric),
			step(`data "videohost_analytics_metric" "x" {
  metric      = "play"
  aggregation = "total"
  filter_by   = { country = ["FR"] }
}`, analytics.AnalyticsFilterNotForMetric),
			step(`data "videohost_analytics_metric" "x" {
  metric      = "view"
  aggregation = "count"
  from        = "2026-02-05"
}`, analytics.AnalyticsDateSummary),
			step(`data "videohost_analytics_breakdown" "x" {
  metric    = "play-total"
  breakdown = "country"
}`, analytics.AnalyticsBreakdownSummary),
			step(`data "videohost_analytics_timeseries" "x" {
  metric   = "play"
  interval = "minute"
}`, analytics.AnalyticsIntervalSummary),
			step(`data "videohost_analytics_timeseries" "x" {
  metric    = "play"
  filter_by = { continent = ["EU", "XX"] }
}`, `value must be one of`),
		},
	})
}

// TestAccAnalyticsExample applies examples/analytics against the emulator as its comment says:
// no play at first, then the plays recorded through the control API, counted in all and per
// country. The control API is the emulator's, so it runs only in-process.
func TestAccAnalyticsExample(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	env.RequireEmulatorFor(t, "it records plays through the emulator's control API")
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	w := acctest.NewCLIWorkdir(ctx, t, "1.11.0")
	example, err := os.ReadFile(filepath.Join(acctest.RepoRoot(t), "examples", "analytics", "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	// The example's own provider block takes the address and the key from the environment.
	w.Write("main.tf", strings.Replace(string(example), `provider "videohost" {}`, env.ProviderConfig(""), 1))
	w.Run("apply", "-auto-approve", "-no-color", "-input=false")
	if got := strings.TrimSpace(w.Run("output", "-raw", "plays")); got != "0" {
		t.Errorf("plays before any play = %s, want 0", got)
	}
	id := strings.TrimSpace(w.Run("output", "-raw", "video_id"))
	if _, err := env.Emu.RecordPlays(emulator.PlayInput{MediaID: id, Country: "FR", Count: 3}); err != nil {
		t.Fatal(err)
	}
	w.Run("apply", "-auto-approve", "-no-color", "-input=false")
	if got := strings.TrimSpace(w.Run("output", "-raw", "plays")); got != "3" {
		t.Errorf("plays after 3 recorded = %s, want 3", got)
	}
	if got := w.Run("output", "-json", "plays_by_country"); !strings.Contains(strings.ReplaceAll(got, " ", ""), `"FR":3`) {
		t.Errorf("plays_by_country = %s, want FR = 3", got)
	}
}
