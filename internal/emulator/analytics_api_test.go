package emulator_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// recordPlays records plays through the control API and fails the test unless it took them.
func recordPlays(t *testing.T, e *env, body map[string]any) {
	t.Helper()
	r := e.ctl("POST", "/plays", body)
	expectStatus(t, r, http.StatusCreated)
}

// TestAnalyticsCountRecordedPlays records plays of a video from two countries and reads them
// back as a metric, a breakdown by country and a time series, filtered and not.
func TestAnalyticsCountRecordedPlays(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	e := newEnv(t, emulator.Options{Now: func() time.Time { return now }})
	id := e.api("POST", "/videos", map[string]any{"title": "watched", "tags": []string{"demo"}}).str("videoId")
	recordPlays(t, e, map[string]any{"mediaId": id, "country": "FR", "browser": "firefox", "count": 3, "watchTime": 20})
	recordPlays(t, e, map[string]any{"mediaId": id, "country": "US", "browser": "chrome", "ended": true, "watchTime": 4})
	recordPlays(t, e, map[string]any{"mediaId": id, "country": "US", "played": false})

	metric := func(path string, want float64) {
		t.Helper()
		r := e.api("GET", path, nil)
		expectStatus(t, r, http.StatusOK)
		if got, _ := r.body["data"].(float64); got != want {
			t.Errorf("GET %s: data %v, want %v (%s)", path, r.body["data"], want, r.raw)
		}
	}
	metric("/data/metrics/play/count", 4)
	metric("/data/metrics/impression/count", 5)
	metric("/data/metrics/end/count", 1)
	metric("/data/metrics/play/rate", 0.8)
	metric("/data/metrics/watch-time/sum", 64)
	metric("/data/metrics/view/count", 3)
	metric("/data/metrics/view/count?viewDuration=3s", 4)
	metric("/data/metrics/play/count?filterBy[country][]=US", 1)
	metric("/data/metrics/play/count?filterBy[browser][]=Firefox&filterBy[tag]=demo", 3)
	metric("/data/metrics/play/count?filterBy[continent][]=EU", 3)
	metric("/data/metrics/play/count?from="+url.QueryEscape(now.Add(-time.Hour).Format(time.RFC3339))+"&to="+url.QueryEscape(now.Format(time.RFC3339)), 0)
	metric("/data/metrics/play/total?filterBy[mediaId][]="+id, 4)
	metric("/data/metrics/play/total?filterBy[mediaId][0]="+id+"&filterBy[mediaType]=live-stream", 0)
	metric("/data/metrics/ccv/peak", 4)
	metric("/data/metrics/ccv/live", 4)
	metric("/data/metrics/impression-time/average", 500)

	b := e.api("GET", "/data/buckets/play/country", nil)
	expectStatus(t, b, http.StatusOK)
	if d := b.data(); len(d) != 2 || d[0]["dimensionValue"] != "FR" || d[0]["metricValue"] != 3.0 || d[1]["metricValue"] != 1.0 {
		t.Errorf("breakdown by country = %s; want FR 3 then US 1", b.raw)
	}
	ts := e.api("GET", "/data/timeseries/play", nil)
	expectStatus(t, ts, http.StatusOK)
	ctx, _ := ts.body["context"].(map[string]any)
	if d := ts.data(); len(d) != 1 || d[0]["metricValue"] != 4.0 || d[0]["emittedAt"] != "2026-03-01T12:00:00+00:00" || ctx["interval"] != "hour" {
		t.Errorf("time series = %s; want one hour of 4 plays", ts.raw)
	}
}

// TestAnalyticsRefuseWhatTheDocumentRefuses answers 400 naming the parameter for what the
// document does not accept.
func TestAnalyticsRefuseWhatTheDocumentRefuses(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	old := url.QueryEscape(e.emu.Now().Add(-31 * 24 * time.Hour).Format(time.RFC3339))
	for path, name := range map[string]string{
		"/data/metrics/plays/count":                         "metric",
		"/data/metrics/start/rate":                          "aggregation",
		"/data/metrics/play/count?unique=true":              "unique",
		"/data/metrics/view/count?viewDuration=7s":          "viewDuration",
		"/data/metrics/play/count?viewDuration=5s":          "viewDuration",
		"/data/metrics/play/count?from=yesterday":           "from",
		"/data/metrics/play/count?from=" + old:              "from",
		"/data/metrics/play/count?filterBy[continent][]=XX": "filterBy[continent][]",
		"/data/metrics/play/count?filterBy[colour]=red":     "filterBy[colour]",
		"/data/metrics/play/total?filterBy[country][]=FR":   "filterBy[country][]",
		"/data/metrics/play/count?sortBy=metricValue":       "sortBy",
		"/data/buckets/play-total/country":                  "breakdown",
		"/data/buckets/play/city":                           "breakdown",
		"/data/timeseries/play?interval=week":               "interval",
		"/data/timeseries/play?interval=minute":             "interval",
	} {
		r := e.api("GET", path, nil)
		expectStatus(t, r, http.StatusBadRequest)
		if r.str("name") != name || r.str("detail") == "" {
			t.Errorf("GET %s: %s; want a 400 naming %s with a detail", path, r.raw, name)
		}
	}
}
