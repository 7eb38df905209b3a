package analytics

// The videohost_analytics_breakdown data source: one metric per value of a dimension of the
// views (GET /data/buckets/{metric}/{breakdown}), every page.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

type analyticsBreakdownModel struct {
	Metric    types.String `tfsdk:"metric"`
	Breakdown types.String `tfsdk:"breakdown"`
	SortBy    types.String `tfsdk:"sort_by"`
	SortOrder types.String `tfsdk:"sort_order"`
	Buckets   types.List   `tfsdk:"buckets"`
	analyticsCommonModel
}

// AnalyticsBreakdownSummary titles the error of a breakdown that the metric does not take.
const AnalyticsBreakdownSummary = "Breakdown Not Available for This Metric"

// bucketAttrTypes are the attribute types of one element of buckets.
var bucketAttrTypes = map[string]attr.Type{"dimension_value": types.StringType, "metric_value": types.Float64Type}

// NewAnalyticsBreakdownDataSource returns the videohost_analytics_breakdown data source.
func NewAnalyticsBreakdownDataSource() datasource.DataSource {
	return &analyticsDataSource[analyticsBreakdownModel]{
		DataSourceBase: framework.DataSourceBase{TypeName: "_analytics_breakdown"},
		description: "Reads one metric of the workspace's views over a period for each value of a dimension (video, " +
			"country, device, browser...), every page. The parameters are checked at plan as the service checks them.",
		attributes: func() map[string]schema.Attribute {
			attrs := sortAttributes(analyticsCommonAttributes("ccv-peak", "ccv-average", "view"), "metricValue", "dimensionValue")
			attrs["metric"] = pathEnum("What is measured: `play`, `play-rate` (plays per impression), `play-total` "+
				"(every play, whatever the period; with the `media-id` breakdown only), `start`, `end`, `impression`, "+
				"`ccv-peak`, `ccv-average` (concurrent viewers) or `view`.", analyticsBucketMetrics...)
			attrs["breakdown"] = pathEnum("The dimension the views are grouped by.", "media-id", "media-type",
				"continent", "country", "device-type", "operating-system", "browser", "referrer")
			attrs["buckets"] = schema.ListNestedAttribute{
				MarkdownDescription: "The metric for each value of the dimension, in the order asked for.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"dimension_value": framework.ComputedString("The dimension's value, such as `FR` for the country."),
					"metric_value":    schema.Float64Attribute{MarkdownDescription: "The metric's value.", Computed: true},
				}},
			}
			return attrs
		},
		validate: validateAnalyticsBreakdown,
		read:     readAnalyticsBreakdown,
	}
}

// analyticsBucketMetrics are the metrics of a breakdown.
var analyticsBucketMetrics = []string{"play", "play-rate", "play-total", "start", "end", "impression", "ccv-peak", "ccv-average", "view"}

// validateAnalyticsBreakdown checks that play-total is broken down by media-id, and the shared
// parameters.
func validateAnalyticsBreakdown(ctx context.Context, m analyticsBreakdownModel, diags *diag.Diagnostics) {
	total := m.Metric.ValueString() == "play-total"
	m.validate(m.Metric, analyticsRules{uniqueMetrics: []string{"ccv-peak", "ccv-average", "view"}, allTime: total}, diags)
	if total && !m.Breakdown.IsUnknown() && m.Breakdown.ValueString() != "media-id" {
		diags.AddAttributeError(path.Root("breakdown"), AnalyticsBreakdownSummary, "The metric play-total is "+
			"broken down by media-id only: set breakdown = \"media-id\", or choose the metric play.")
	}
}

func readAnalyticsBreakdown(ctx context.Context, c *videohost.Client, m *analyticsBreakdownModel) (diag.Diagnostics, error) {
	q, diags := m.query(ctx)
	if diags.HasError() {
		return diags, nil
	}
	q.SortBy, q.SortOrder = m.SortBy.ValueString(), m.SortOrder.ValueString()
	got, err := c.GetMetricsBreakdown(ctx, m.Metric.ValueString(), m.Breakdown.ValueString(), q)
	if err != nil {
		return diags, err
	}
	m.setTimeframe(got.Timeframe)
	list, d := metricValueList(got.Buckets, bucketAttrTypes, func(b videohost.MetricBucket) map[string]attr.Value {
		return map[string]attr.Value{"dimension_value": types.StringValue(b.DimensionValue), "metric_value": types.Float64Value(b.MetricValue)}
	})
	diags.Append(d...)
	m.Buckets = list
	return diags, nil
}
