package analytics

// What the three analytics data sources (videohost_analytics_metric, _breakdown and
// _timeseries) share: the timeframe, the counting options and filter_by, their checks at plan,
// the client's query made of them, and the shell that reads and sets the state.

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// Summaries of the analytics' diagnostics.
const (
	AnalyticsDateSummary        = "Invalid Analytics Date-Time"
	analyticsTimeframeSummary   = "Invalid Analytics Timeframe"
	AnalyticsNotForMetric       = "Option Not Available for This Metric"
	AnalyticsFilterNotForMetric = "Filter Not Available for This Metric"
	analyticsReadSummary        = "Unable to Read Analytics"
)

// countryCode is an ISO 3166 alpha-2 code, as the service's country filter takes it.
var countryCode = regexp.MustCompile(`^[A-Z]{2}$`)

// objectAsOptions reads filter_by into its model: every attribute of it is known at read.
var objectAsOptions = basetypes.ObjectAsOptions{}

// analyticsMaxAge is how far back the service keeps analytics: from may be at most 30 days ago.
const analyticsMaxAge = 30 * 24 * time.Hour

// analyticsCommonModel is what every analytics data source's model holds.
type analyticsCommonModel struct {
	From          types.String `tfsdk:"from"`
	To            types.String `tfsdk:"to"`
	Unique        types.Bool   `tfsdk:"unique"`
	ViewDuration  types.String `tfsdk:"view_duration"`
	FilterBy      types.Object `tfsdk:"filter_by"`
	TimeframeFrom types.String `tfsdk:"timeframe_from"`
	TimeframeTo   types.String `tfsdk:"timeframe_to"`
}

// analyticsFilterModel is filter_by.
type analyticsFilterModel struct {
	MediaID         types.List   `tfsdk:"media_id"`
	MediaType       types.String `tfsdk:"media_type"`
	Continent       types.List   `tfsdk:"continent"`
	Country         types.List   `tfsdk:"country"`
	DeviceType      types.List   `tfsdk:"device_type"`
	OperatingSystem types.List   `tfsdk:"operating_system"`
	Browser         types.List   `tfsdk:"browser"`
	Tag             types.String `tfsdk:"tag"`
	Referrer        types.List   `tfsdk:"referrer"`
}

// analyticsCommonAttributes are the attributes of analyticsCommonModel; uniqueMetrics are the
// metrics that take unique.
func analyticsCommonAttributes(uniqueMetrics ...string) map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"from": schema.StringAttribute{
			MarkdownDescription: "Start of the period, RFC 3339 with an offset (`2024-02-05T00:00:00+01:00`); at most 30 days " +
				"ago. Unset: a day before `to`.",
			Optional: true, Validators: []validator.String{rfc3339Validator()},
		},
		"to": schema.StringAttribute{
			MarkdownDescription: "End of the period, RFC 3339 with an offset; the views before it count. Unset: now.",
			Optional:            true, Validators: []validator.String{rfc3339Validator()},
		},
		"unique": schema.BoolAttribute{
			MarkdownDescription: "Whether a viewer who watched several times counts once (viewers are unique for a day). " +
				"Only with the metrics " + quotedList(uniqueMetrics) + ". Unset: every view counts.",
			Optional: true,
		},
		"view_duration": schema.StringAttribute{
			MarkdownDescription: "How long a view must last to count: `3s`, `5s`, `10s` or `30s`. Only with the metric " +
				"`view`. Unset: `5s`.",
			Optional: true, Validators: []validator.String{stringvalidator.OneOf("3s", "5s", "10s", "30s")},
		},
		"filter_by":      analyticsFilterAttribute(),
		"timeframe_from": framework.ComputedString("Start of the period that the service answered for, RFC 3339."),
		"timeframe_to":   framework.ComputedString("End of the period that the service answered for, RFC 3339."),
	}
}

// analyticsFilterAttribute is filter_by, the service's filterBy.
func analyticsFilterAttribute() schema.Attribute {
	list := func(description string, v ...validator.String) schema.Attribute {
		return schema.ListAttribute{
			MarkdownDescription: description, Optional: true, ElementType: types.StringType,
			Validators: []validator.List{listvalidator.SizeAtLeast(1), listvalidator.ValueStringsAre(v...)},
		}
	}
	return schema.SingleNestedAttribute{
		MarkdownDescription: "Only the views that match every filter given (a list matches any of its values). The total " +
			"of plays (metric `play` with aggregation `total`, or metric `play-total`) takes only `media_id` and " +
			"`media_type`. Unset: every view.",
		Optional: true,
		Attributes: map[string]schema.Attribute{
			"media_id": list("Ids of videos or live streams."),
			"media_type": schema.StringAttribute{
				MarkdownDescription: "`video` or `live-stream`.", Optional: true,
				Validators: []validator.String{stringvalidator.OneOf("video", "live-stream")},
			},
			"continent": list("Continents of the viewers: `AS`, `AF`, `NA`, `SA`, `AN`, `EU`, `AZ`.",
				stringvalidator.OneOf("AS", "AF", "NA", "SA", "AN", "EU", "AZ")),
			"country": list("Countries of the viewers, ISO 3166 alpha-2 codes such as `FR`.",
				stringvalidator.RegexMatches(countryCode, "must be an ISO 3166 alpha-2 code in capitals, such as FR")),
			"device_type":      list("Device types, such as `computer`, `phone`, `tablet`, `tv`, `console`, `wearable`, `unknown`."),
			"operating_system": list("Operating systems, such as `windows`, `mac osx`, `android`, `ios`, `linux`."),
			"browser":          list("Browsers, such as `chrome`, `firefox`, `edge`, `opera`."),
			"tag": schema.StringAttribute{
				MarkdownDescription: "A tag of the videos (one, case sensitive).", Optional: true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"referrer": list("Addresses the views came from, exactly (`\"\"` for views without one); at most 2048 characters each.",
				stringvalidator.LengthAtMost(2048)),
		},
	}
}

// quotedList is names in backticks, joined by commas and a final "or".
func quotedList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + n + "`"
	}
	if len(q) < 2 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// rfc3339Validator refuses a date-time that is not RFC 3339 with an offset or Z.
func rfc3339Validator() validator.String {
	return framework.StringCheck{
		Desc:    "an RFC 3339 date-time, such as 2024-02-05T00:00:00+01:00",
		Summary: AnalyticsDateSummary,
		Check: func(s string) string {
			if _, err := time.Parse(time.RFC3339, s); err != nil {
				return fmt.Sprintf("%q is not an RFC 3339 date-time with an offset, such as 2024-02-05T00:00:00+01:00 or 2024-02-05T00:00:00Z", s)
			}
			return ""
		},
		Detail: func(subject, why string) string { return "Set " + subject + " to a date-time: " + why + "." },
	}
}

// analyticsRules are the checks that depend on the metric: the metrics that take unique, and
// whether the metric counts every play whatever the period (play total, play-total), which
// only media_id and media_type filter.
type analyticsRules struct {
	uniqueMetrics []string
	allTime       bool
}

// validate checks c at plan for metric (unknown values are skipped): the period's order and age,
// unique and view_duration for the metric, and the filters the metric takes.
func (c analyticsCommonModel) validate(metric types.String, rules analyticsRules, diags *diag.Diagnostics) {
	c.validatePeriod(diags)
	if metric.IsUnknown() || metric.IsNull() {
		return
	}
	m := metric.ValueString()
	if !c.Unique.IsNull() && !slices.Contains(rules.uniqueMetrics, m) {
		diags.AddAttributeError(path.Root("unique"), AnalyticsNotForMetric, fmt.Sprintf("The service counts unique "+
			"viewers only for the metrics %s, not %q: remove unique, or choose one of those metrics.",
			strings.Join(rules.uniqueMetrics, ", "), m))
	}
	if !c.ViewDuration.IsNull() && m != "view" {
		diags.AddAttributeError(path.Root("view_duration"), AnalyticsNotForMetric, fmt.Sprintf("view_duration "+
			"applies to the metric view only, not %q: remove it, or set metric = \"view\".", m))
	}
	if rules.allTime && !c.FilterBy.IsNull() && !c.FilterBy.IsUnknown() {
		for name, v := range c.FilterBy.Attributes() {
			if name != "media_id" && name != "media_type" && !v.IsNull() {
				diags.AddAttributeError(path.Root("filter_by").AtName(name), AnalyticsFilterNotForMetric,
					"The total of plays takes only the media_id and media_type filters: remove filter_by."+name+".")
			}
		}
	}
}

// validatePeriod checks that from comes before to, and is at most 30 days ago.
func (c analyticsCommonModel) validatePeriod(diags *diag.Diagnostics) {
	from, fromOK := knownTime(c.From)
	to, toOK := knownTime(c.To)
	if fromOK && toOK && !from.Before(to) {
		diags.AddAttributeError(path.Root("from"), analyticsTimeframeSummary, fmt.Sprintf("from (%s) must come "+
			"before to (%s): the period is the views from from until to.", c.From.ValueString(), c.To.ValueString()))
	}
	if fromOK && time.Since(from) > analyticsMaxAge {
		diags.AddAttributeError(path.Root("from"), analyticsTimeframeSummary, fmt.Sprintf("from (%s) is more than "+
			"30 days ago: the service keeps analytics for 30 days. Set a later from.", c.From.ValueString()))
	}
}

// knownTime is the date-time of a known, valid s.
func knownTime(s types.String) (time.Time, bool) {
	if s.IsNull() || s.IsUnknown() {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339, s.ValueString())
	return t, err == nil
}

// query is the client's query of c.
func (c analyticsCommonModel) query(ctx context.Context) (videohost.AnalyticsQuery, diag.Diagnostics) {
	var q videohost.AnalyticsQuery
	var diags diag.Diagnostics
	if t, ok := knownTime(c.From); ok {
		q.From = &t
	}
	if t, ok := knownTime(c.To); ok {
		q.To = &t
	}
	if !c.Unique.IsNull() {
		u := c.Unique.ValueBool()
		q.Unique = &u
	}
	q.ViewDuration = c.ViewDuration.ValueString()
	if c.FilterBy.IsNull() {
		return q, diags
	}
	var f analyticsFilterModel
	diags.Append(c.FilterBy.As(ctx, &f, objectAsOptions)...)
	q.Filter = videohost.AnalyticsFilter{MediaType: f.MediaType.ValueString(), Tag: f.Tag.ValueString()}
	for _, l := range []struct {
		from types.List
		to   *[]string
	}{
		{f.MediaID, &q.Filter.MediaID}, {f.Continent, &q.Filter.Continent}, {f.Country, &q.Filter.Country},
		{f.DeviceType, &q.Filter.DeviceType}, {f.OperatingSystem, &q.Filter.OperatingSystem},
		{f.Browser, &q.Filter.Browser}, {f.Referrer, &q.Filter.Referrer},
	} {
		if !l.from.IsNull() {
			diags.Append(l.from.ElementsAs(ctx, l.to, false)...)
		}
	}
	return q, diags
}

// setTimeframe sets the computed period from the service's answer.
func (c *analyticsCommonModel) setTimeframe(t videohost.AnalyticsTimeframe) {
	c.TimeframeFrom, c.TimeframeTo = framework.TimeString(t.From), framework.TimeString(t.To)
}

// analyticsErrorPaths points the parameters that the service's 400s name at the attributes: an
// item of a filter's list (filterBy[country][2], as the client sends it) at that item, for the
// first ten items; a 400 on a later item is an error on the data source, in the service's words.
var analyticsErrorPaths = func() map[string]path.Path {
	m := map[string]path.Path{
		"metric": path.Root("metric"), "aggregation": path.Root("aggregation"), "breakdown": path.Root("breakdown"),
		"from": path.Root("from"), "to": path.Root("to"), "unique": path.Root("unique"),
		"viewDuration": path.Root("view_duration"), "interval": path.Root("interval"),
		"sortBy": path.Root("sort_by"), "sortOrder": path.Root("sort_order"),
	}
	for wire, name := range map[string]string{
		"mediaId": "media_id", "mediaType": "media_type", "continent": "continent", "country": "country",
		"deviceType": "device_type", "operatingSystem": "operating_system", "browser": "browser", "tag": "tag",
		"referrer": "referrer",
	} {
		m["filterBy["+wire+"]"] = path.Root("filter_by").AtName(name)
		m["filterBy["+wire+"][]"] = path.Root("filter_by").AtName(name)
		for i := range 10 {
			m["filterBy["+wire+"]["+strconv.Itoa(i)+"]"] = path.Root("filter_by").AtName(name).AtListIndex(i)
		}
	}
	return m
}()

// analyticsDataSource is one analytics data source: M is its model, which embeds
// analyticsCommonModel.
type analyticsDataSource[M any] struct {
	framework.DataSourceBase
	description string
	attributes  func() map[string]schema.Attribute
	// validate checks the configuration at plan.
	validate func(context.Context, M, *diag.Diagnostics)
	// read asks the service and sets the computed attributes of m.
	read func(context.Context, *videohost.Client, *M) (diag.Diagnostics, error)
}

var _ datasource.DataSourceWithValidateConfig = (*analyticsDataSource[analyticsMetricModel])(nil)

func (d *analyticsDataSource[M]) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{MarkdownDescription: d.description, Attributes: d.attributes()}
}

func (d *analyticsDataSource[M]) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var m M
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	d.validate(ctx, m, &resp.Diagnostics)
}

// Read asks the service for the analytics that the configuration describes; a parameter the
// service refuses is an error on its attribute.
func (d *analyticsDataSource[M]) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	m, ok := framework.ConfiguredModel[M](ctx, d.Pd, req.Config, &resp.Diagnostics)
	if !ok {
		return
	}
	diags, err := d.read(ctx, d.Pd.Client, &m)
	resp.Diagnostics.Append(diags...)
	if err != nil {
		framework.AddAPIErrorDiagnostics(&resp.Diagnostics, analyticsReadSummary, err, d.Pd, analyticsErrorPaths)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// pathEnum is a required path parameter of the service: one of values.
func pathEnum(description string, values ...string) schema.Attribute {
	return schema.StringAttribute{
		MarkdownDescription: description + " One of " + quotedList(values) + ". Required.",
		Required:            true,
		Validators:          []validator.String{stringvalidator.OneOf(values...)},
	}
}

// sortAttributes are sort_by (one of keys) and sort_order of a list of analytics.
func sortAttributes(attrs map[string]schema.Attribute, keys ...string) map[string]schema.Attribute {
	attrs["sort_by"] = schema.StringAttribute{
		MarkdownDescription: "Order of the list: " + quotedList(keys) + ". Unset: the service's default order.",
		Optional:            true, Validators: []validator.String{stringvalidator.OneOf(keys...)},
	}
	attrs["sort_order"] = schema.StringAttribute{
		MarkdownDescription: "Direction of the order: `asc` or `desc`. Unset: the service's default.",
		Optional:            true, Validators: []validator.String{stringvalidator.OneOf("asc", "desc")},
	}
	return attrs
}

// metricValueList is a computed list of objects of attrs, built from rows by row.
func metricValueList[T any](rows []T, attrs map[string]attr.Type, row func(T) map[string]attr.Value) (types.List, diag.Diagnostics) {
	elem := types.ObjectType{AttrTypes: attrs}
	return framework.ListValue(elem, rows, func(r T) (types.Object, diag.Diagnostics) { return types.ObjectValue(attrs, row(r)) })
}
