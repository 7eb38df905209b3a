package videohost

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// The analytics: a metric aggregated over a timeframe (GET /data/metrics/{metric}/{aggregation}),
// broken down by a dimension (GET /data/buckets/{metric}/{breakdown}) or over time
// (GET /data/timeseries/{metric}).

// AnalyticsQuery are the parameters of the analytics; zero fields are not sent, so that the
// service applies its defaults (to: now; from: a day before to; viewDuration: 5s). Interval is
// read by the timeseries only; SortBy, SortOrder by the breakdowns and the timeseries.
type AnalyticsQuery struct {
	From, To     *time.Time
	Unique       *bool
	ViewDuration string // 3s|5s|10s|30s, with the view metric only
	Filter       AnalyticsFilter
	Interval     string // minute|hour|day
	SortBy       string
	SortOrder    string // asc|desc
}

// AnalyticsFilter is filterBy: the views whose dimensions hold one of each list's values (and
// the media type and tag given). A nil list does not filter; Referrer []string{""} selects the
// views without a referrer.
type AnalyticsFilter struct {
	MediaID         []string
	MediaType       string // video|live-stream
	Continent       []string
	Country         []string
	DeviceType      []string
	OperatingSystem []string
	Browser         []string
	Tag             string
	Referrer        []string
}

// AnalyticsTimeframe is the period that the service answered for; nil members when it did not
// say.
type AnalyticsTimeframe struct {
	From, To *time.Time
}

// UnmarshalJSON accepts the date-times with an offset or Z.
func (t *AnalyticsTimeframe) UnmarshalJSON(b []byte) error { return decodeRecord(b, t) }

// analyticsContext is the context of an analytics answer.
type analyticsContext struct {
	Interval  string             `json:"interval"`
	Timeframe AnalyticsTimeframe `json:"timeframe"`
}

// AggregatedMetric is a metric aggregated over the timeframe.
type AggregatedMetric struct {
	Timeframe AnalyticsTimeframe
	Value     float64
}

// MetricBucket is the metric's value for one value of the breakdown's dimension.
type MetricBucket struct {
	DimensionValue string  `json:"dimensionValue"`
	MetricValue    float64 `json:"metricValue"`
}

// MetricsBreakdown is a metric broken down by a dimension: every bucket, all pages read.
type MetricsBreakdown struct {
	Timeframe AnalyticsTimeframe
	Buckets   []MetricBucket
}

// MetricPoint is the metric's value over one interval, which begins at EmittedAt (the service's
// words, kept as sent).
type MetricPoint struct {
	EmittedAt   string  `json:"emittedAt"`
	MetricValue float64 `json:"metricValue"`
}

// MetricsOverTime is a metric over time: every point, all pages read.
type MetricsOverTime struct {
	Interval  string
	Timeframe AnalyticsTimeframe
	Points    []MetricPoint
}

// GetAggregatedMetric reads GET /data/metrics/{metric}/{aggregation}.
func (c *Client) GetAggregatedMetric(ctx context.Context, metric, aggregation string, q AnalyticsQuery) (AggregatedMetric, error) {
	var out struct {
		Context analyticsContext `json:"context"`
		Data    float64          `json:"data"`
	}
	err := c.do(ctx, request{
		method: http.MethodGet, path: "/data/metrics/" + url.PathEscape(metric) + "/" + url.PathEscape(aggregation), query: q.values(),
	}, &out)
	if err != nil {
		return AggregatedMetric{}, err
	}
	return AggregatedMetric{Timeframe: out.Context.Timeframe, Value: out.Data}, nil
}

// GetMetricsBreakdown reads every page of GET /data/buckets/{metric}/{breakdown}.
func (c *Client) GetMetricsBreakdown(ctx context.Context, metric, breakdown string, q AnalyticsQuery) (MetricsBreakdown, error) {
	var out MetricsBreakdown
	buckets, err := collect(paginate[MetricBucket](ctx, c, "/data/buckets/"+url.PathEscape(metric)+"/"+url.PathEscape(breakdown),
		q.values(), out.keepContext))
	if err != nil {
		return MetricsBreakdown{}, err
	}
	out.Buckets = buckets
	return out, nil
}

func (m *MetricsBreakdown) keepContext(raw json.RawMessage) error {
	var c analyticsContext
	if err := json.Unmarshal(raw, &c); err != nil {
		return err
	}
	m.Timeframe = c.Timeframe
	return nil
}

// GetMetricsOverTime reads every page of GET /data/timeseries/{metric}.
func (c *Client) GetMetricsOverTime(ctx context.Context, metric string, q AnalyticsQuery) (MetricsOverTime, error) {
	var out MetricsOverTime
	points, err := collect(paginate[MetricPoint](ctx, c, "/data/timeseries/"+url.PathEscape(metric), q.values(), out.keepContext))
	if err != nil {
		return MetricsOverTime{}, err
	}
	out.Points = points
	return out, nil
}

func (m *MetricsOverTime) keepContext(raw json.RawMessage) error {
	var c analyticsContext
	if err := json.Unmarshal(raw, &c); err != nil {
		return err
	}
	m.Interval, m.Timeframe = c.Interval, c.Timeframe
	return nil
}

// values is the query of q: the dates in RFC 3339 with their offset (the service's ATOM), and
// filterBy as a deep object, each item of a list with its index (filterBy[country][0]), as the
// service's own clients send it and as the published document's deepObject reads it.
func (q AnalyticsQuery) values() url.Values {
	v := url.Values{}
	for name, t := range map[string]*time.Time{"from": q.From, "to": q.To} {
		if t != nil {
			v.Set(name, t.Format(time.RFC3339))
		}
	}
	if q.Unique != nil {
		v.Set("unique", strconv.FormatBool(*q.Unique))
	}
	setIf(v, "viewDuration", q.ViewDuration)
	setIf(v, "interval", q.Interval)
	setIf(v, "sortBy", q.SortBy)
	setIf(v, "sortOrder", q.SortOrder)
	f := q.Filter
	for name, list := range map[string][]string{
		"mediaId": f.MediaID, "continent": f.Continent, "country": f.Country, "deviceType": f.DeviceType,
		"operatingSystem": f.OperatingSystem, "browser": f.Browser, "referrer": f.Referrer,
	} {
		for i, item := range list {
			v.Set("filterBy["+name+"]["+strconv.Itoa(i)+"]", item)
		}
	}
	setIf(v, "filterBy[mediaType]", f.MediaType)
	setIf(v, "filterBy[tag]", f.Tag)
	return v
}
