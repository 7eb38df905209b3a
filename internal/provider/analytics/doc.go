// Package analytics holds the data sources of the service's analytics: `videohost_analytics_metric`
// (one number over a period), `videohost_analytics_breakdown` (a metric split by a dimension) and
// `videohost_analytics_timeseries` (a metric over time), with the checks of the combinations of
// metric, aggregation, breakdown and interval that the service refuses, made at plan time
// (query.go).
package analytics
