package analytics

// The videohost_analytics_timeseries data source: one metric per interval of a period
// (GET /data/timeseries/{metric}), every page.

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

type analyticsTimeseriesModel struct {
	Metric    types.String `tfsdk:"metric"`
	Interval  types.String `tfsdk:"interval"`
	SortBy    types.String `tfsdk:"sort_by"`
	SortOrder types.String `tfsdk:"sort_order"`
	Points    types.List   `tfsdk:"points"`
	analyticsCommonModel
}

// AnalyticsIntervalSummary titles the error of an interval of a minute over a long period.
const AnalyticsIntervalSummary = "Interval Too Fine for the Period"

// pointAttrTypes are the attribute types of one element of points.
var pointAttrTypes = map[string]attr.Type{"emitted_at": types.StringType, "metric_value": types.Float64Type}

// NewAnalyticsTimeseriesDataSource returns the videohost_analytics_timeseries data source.
func NewAnalyticsTimeseriesDataSource() datasource.DataSource {
	return &analyticsDataSource[analyticsTimeseriesModel]{
		DataSourceBase: framework.DataSourceBase{TypeName: "_analytics_timeseries"},
		description: "Reads one metric of the workspace's views for each minute, hour or day of a period, every " +
			"page. The parameters are checked at plan as the service checks them.",
		attributes: func() map[string]schema.Attribute {
			attrs := sortAttributes(analyticsCommonAttributes("ccv-peak", "ccv-average", "view"), "metricValue", "emittedAt")
			attrs["metric"] = pathEnum("What is measured: `play`, `play-rate` (plays per impression), `start`, `end`, "+
				"`impression`, `ccv-peak`, `ccv-average` (concurrent viewers) or `view`.",
				"play", "play-rate", "start", "end", "impression", "ccv-peak", "ccv-average", "view")
			attrs["interval"] = schema.StringAttribute{
				MarkdownDescription: "Length of each point: `minute` (for a period shorter than 60 minutes), `hour` or " +
					"`day`. Unset: the service's choice, `hour` for a period of at most 2 days, else `day`; the " +
					"attribute then holds it.",
				Optional: true, Computed: true,
				Validators: []validator.String{stringvalidator.OneOf("minute", "hour", "day")},
			}
			attrs["points"] = schema.ListNestedAttribute{
				MarkdownDescription: "The metric for each interval that had views, in the order asked for.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"emitted_at":   framework.ComputedString("Start of the interval, as the service gives it (RFC 3339)."),
					"metric_value": schema.Float64Attribute{MarkdownDescription: "The metric's value.", Computed: true},
				}},
			}
			return attrs
		},
		validate: validateAnalyticsTimeseries,
		read:     readAnalyticsTimeseries,
	}
}

// validateAnalyticsTimeseries checks that a minute's interval has a period shorter than an hour,
// and the shared parameters.
func validateAnalyticsTimeseries(ctx context.Context, m analyticsTimeseriesModel, diags *diag.Diagnostics) {
	m.validate(m.Metric, analyticsRules{uniqueMetrics: []string{"ccv-peak", "ccv-average", "view"}}, diags)
	if m.Interval.ValueString() != "minute" || m.From.IsUnknown() || m.To.IsUnknown() {
		return
	}
	from, fromOK := knownTime(m.From)
	to, toOK := knownTime(m.To)
	if !fromOK || !toOK || to.Sub(from) >= time.Hour {
		diags.AddAttributeError(path.Root("interval"), AnalyticsIntervalSummary, "The service gives "+
			"points of a minute only over a period shorter than 60 minutes: set from and to less than an hour apart "+
			"(the default period is a day), or set interval to \"hour\" or \"day\".")
	}
}

func readAnalyticsTimeseries(ctx context.Context, c *videohost.Client, m *analyticsTimeseriesModel) (diag.Diagnostics, error) {
	q, diags := m.query(ctx)
	if diags.HasError() {
		return diags, nil
	}
	q.Interval, q.SortBy, q.SortOrder = m.Interval.ValueString(), m.SortBy.ValueString(), m.SortOrder.ValueString()
	got, err := c.GetMetricsOverTime(ctx, m.Metric.ValueString(), q)
	if err != nil {
		return diags, err
	}
	m.setTimeframe(got.Timeframe)
	if m.Interval.IsNull() || m.Interval.IsUnknown() {
		m.Interval = framework.OptionalString(got.Interval)
	}
	list, d := metricValueList(got.Points, pointAttrTypes, func(p videohost.MetricPoint) map[string]attr.Value {
		return map[string]attr.Value{"emitted_at": types.StringValue(p.EmittedAt), "metric_value": types.Float64Value(p.MetricValue)}
	})
	diags.Append(d...)
	m.Points = list
	return diags, nil
}
