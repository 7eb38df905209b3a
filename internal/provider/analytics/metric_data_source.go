package analytics

// The videohost_analytics_metric data source: one metric aggregated over a period
// (GET /data/metrics/{metric}/{aggregation}).

import (
	"context"
	"fmt"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

type analyticsMetricModel struct {
	Metric      types.String  `tfsdk:"metric"`
	Aggregation types.String  `tfsdk:"aggregation"`
	Value       types.Float64 `tfsdk:"value"`
	analyticsCommonModel
}

// metricAggregations are the metrics of the data source and the aggregations each takes, as the
// service lists them.
var metricAggregations = map[string][]string{
	"play": {"count", "rate", "total"}, "start": {"count"}, "end": {"count"}, "impression": {"count"},
	"impression-time": {"average", "sum"}, "watch-time": {"average", "sum"}, "ccv": {"peak", "live"}, "view": {"count"},
}

// AnalyticsAggregationSummary titles the error of an aggregation that the metric does not take.
const AnalyticsAggregationSummary = "Aggregation Not Available for This Metric"

// NewAnalyticsMetricDataSource returns the videohost_analytics_metric data source.
func NewAnalyticsMetricDataSource() datasource.DataSource {
	return &analyticsDataSource[analyticsMetricModel]{
		DataSourceBase: framework.DataSourceBase{TypeName: "_analytics_metric"},
		description: "Reads one metric of the workspace's views aggregated over a period: plays, starts, ends, " +
			"impressions, watch time, concurrent viewers or views, counted, summed, averaged or at their peak. The " +
			"parameters are checked at plan as the service checks them.",
		attributes: func() map[string]schema.Attribute {
			attrs := analyticsCommonAttributes("ccv", "view")
			attrs["metric"] = pathEnum("What is measured: `play` (plays), `start`, `end` (views watched to the end), "+
				"`impression` (player loads), `impression-time` (milliseconds until the first frame), `watch-time` "+
				"(seconds watched), `ccv` (concurrent viewers) or `view` (views that lasted `view_duration`).",
				slices.Sorted(mapKeysOf(metricAggregations))...)
			attrs["aggregation"] = pathEnum("How it is aggregated: `count`, `rate` (plays per impression) and `total` "+
				"(every play, whatever the period) for `play`; `count` for `start`, `end`, `impression` and `view`; "+
				"`average` and `sum` for `impression-time` and `watch-time`; `peak` and `live` (the last 20 seconds) for `ccv`.",
				"count", "rate", "total", "average", "sum", "peak", "live")
			attrs["value"] = schema.Float64Attribute{MarkdownDescription: "The metric's value.", Computed: true}
			return attrs
		},
		validate: validateAnalyticsMetric,
		read:     readAnalyticsMetric,
	}
}

// validateAnalyticsMetric checks the aggregation for the metric, and the shared parameters.
func validateAnalyticsMetric(ctx context.Context, m analyticsMetricModel, diags *diag.Diagnostics) {
	total := m.Metric.ValueString() == "play" && m.Aggregation.ValueString() == "total"
	m.validate(m.Metric, analyticsRules{uniqueMetrics: []string{"ccv", "view"}, allTime: total}, diags)
	if m.Metric.IsUnknown() || m.Aggregation.IsUnknown() || m.Metric.IsNull() || m.Aggregation.IsNull() {
		return
	}
	aggs, ok := metricAggregations[m.Metric.ValueString()]
	if ok && !slices.Contains(aggs, m.Aggregation.ValueString()) {
		diags.AddAttributeError(path.Root("aggregation"), AnalyticsAggregationSummary, fmt.Sprintf("The metric %q "+
			"takes the aggregations %s, not %q: set aggregation to one of them.",
			m.Metric.ValueString(), quotedList(aggs), m.Aggregation.ValueString()))
	}
}

func readAnalyticsMetric(ctx context.Context, c *videohost.Client, m *analyticsMetricModel) (diag.Diagnostics, error) {
	q, diags := m.query(ctx)
	if diags.HasError() {
		return diags, nil
	}
	got, err := c.GetAggregatedMetric(ctx, m.Metric.ValueString(), m.Aggregation.ValueString(), q)
	if err != nil {
		return diags, err
	}
	m.Value = types.Float64Value(got.Value)
	m.setTimeframe(got.Timeframe)
	return diags, nil
}

// mapKeysOf is the keys of m, for slices.Sorted.
func mapKeysOf[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}
