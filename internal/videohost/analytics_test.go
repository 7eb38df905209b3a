package videohost

import (
	"net/http"
	"net/url"
	"testing"
	"time"
)

// TestAnalyticsQueryValues: the dates keep their offset, filterBy is a deep object with each
// item of a list at its index, and what is not set is not sent.
func TestAnalyticsQueryValues(t *testing.T) {
	from := time.Date(2026, 2, 5, 0, 0, 0, 0, time.FixedZone("", 3600))
	unique := true
	q := AnalyticsQuery{From: &from, Unique: &unique, ViewDuration: "10s", Filter: AnalyticsFilter{
		Country: []string{"FR", "DE"}, MediaType: "video", Referrer: []string{""},
	}}
	want := url.Values{
		"from": {"2026-02-05T00:00:00+01:00"}, "unique": {"true"}, "viewDuration": {"10s"},
		"filterBy[country][0]": {"FR"}, "filterBy[country][1]": {"DE"}, "filterBy[mediaType]": {"video"}, "filterBy[referrer][0]": {""},
	}
	if got := q.values(); got.Encode() != want.Encode() {
		t.Errorf("values = %s, want %s", got.Encode(), want.Encode())
	}
}

// TestMetricsBreakdownWalksPages reads every page of a breakdown and keeps the period of its
// context.
func TestMetricsBreakdownWalksPages(t *testing.T) {
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		page := r.URL.Query().Get("currentPage")
		body := map[string]any{
			"context": map[string]any{"metric": "play", "breakdown": "country",
				"timeframe": map[string]any{"from": "2026-02-04T00:00:00+00:00", "to": "2026-02-05T00:00:00+00:00"}},
			"data": []map[string]any{{"dimensionValue": "FR", "metricValue": 3}},
			"pagination": map[string]any{"currentPage": 1, "pagesTotal": 2, "links": []map[string]string{
				{"rel": "next", "uri": "/data/buckets/play/country?currentPage=2"}}},
		}
		if page == "2" {
			body["data"] = []map[string]any{{"dimensionValue": "US", "metricValue": 1.5}}
			body["pagination"] = map[string]any{"currentPage": 2, "pagesTotal": 2}
		}
		writeJSON(w, http.StatusOK, body)
	})
	got, err := f.client(t, basic).GetMetricsBreakdown(t.Context(), "play", "country", AnalyticsQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Buckets) != 2 || got.Buckets[1] != (MetricBucket{DimensionValue: "US", MetricValue: 1.5}) {
		t.Errorf("buckets = %+v", got.Buckets)
	}
	if got.Timeframe.From == nil || got.Timeframe.From.Day() != 4 || got.Timeframe.To == nil {
		t.Errorf("timeframe = %+v", got.Timeframe)
	}
}
