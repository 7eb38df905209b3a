package emulator

import (
	"cmp"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// The analytics: GET /data/metrics/{metric}/{aggregation}, /data/buckets/{metric}/{breakdown}
// and /data/timeseries/{metric}, answered from the plays recorded through the control API
// (analytics_plays.go), with the parameters, filters and errors of the published document.

// Request names of the analytics' 400s, as the document shows them.
const (
	slugInvalidQueryParameter  = "request-invalid-query-parameter"
	titleInvalidQueryParameter = "A query parameter is invalid."
	detailNotExpected          = "This field was not expected."
)

// Bounds of the analytics' timeframes.
const (
	analyticsDefaultSpan = 24 * time.Hour
	analyticsMaxAge      = 30 * 24 * time.Hour
	ccvLiveWindow        = 20 * time.Second
)

// metricAggregations are the metrics of /data/metrics and the aggregations each takes.
var metricAggregations = map[string][]string{
	"play": {"count", "rate", "total"}, "start": {"count"}, "end": {"count"}, "impression": {"count"},
	"impression-time": {"average", "sum"}, "watch-time": {"average", "sum"}, "ccv": {"peak", "live"}, "view": {"count"},
}

// Every aggregation, every metric of buckets and timeseries, every breakdown, interval and view
// duration that the document lists.
var (
	analyticsAggregations = []string{"count", "rate", "total", "average", "sum", "peak", "live"}
	bucketMetrics         = []string{"play", "play-rate", "play-total", "start", "end", "impression", "ccv-peak", "ccv-average", "view"}
	timeseriesMetrics     = []string{"play", "play-rate", "start", "end", "impression", "ccv-peak", "ccv-average", "view"}
	analyticsBreakdowns   = []string{"media-id", "media-type", "continent", "country", "device-type", "operating-system", "browser", "referrer"}
	analyticsIntervals    = []string{"minute", "hour", "day"}
	viewDurations         = map[string]float64{"3s": 3, "5s": 5, "10s": 10, "30s": 30}
	analyticsContinents   = []string{"AS", "AF", "NA", "SA", "AN", "EU", "AZ"}
)

// queryError is the 400 of an analytics query parameter, as the document shows it.
func (e *Emulator) queryError(name, detail string) *apiError {
	a := e.newError(http.StatusBadRequest, slugInvalidQueryParameter, titleInvalidQueryParameter)
	a.Name, a.Detail = name, detail
	return &a
}

// pathError is the 400 of an analytics path parameter that is not one the document lists.
func (e *Emulator) pathError(name string, allowed []string) *apiError {
	a := e.newError(http.StatusBadRequest, slugInvalidAttribute, titleAttributeInvalid)
	a.Name, a.Detail = name, "This value must be one of: "+strings.Join(allowed, ", ")+"."
	return &a
}

// analyticsQuery is a valid query of an analytics endpoint.
type analyticsQuery struct {
	metric       string
	from, to     time.Time
	allTime      bool // play/total and play-total: every play, whatever the timeframe
	unique       bool
	viewDuration float64
	filter       playFilter
	interval     string
	sortBy       string
	sortOrder    string
	page         pageParams
	links        url.Values // what the pagination links repeat
}

// analyticsEndpoint is what sets one endpoint's query apart: its own parameters, the metrics
// that take unique, and whether it counts every play whatever the timeframe (play/total and
// play-total), which only mediaId and mediaType filter.
type analyticsEndpoint struct {
	params   []string
	uniqueOf []string
	allTime  bool
}

// parseAnalytics reads q for metric at ep; the first problem is the 400 answered.
func (e *Emulator) parseAnalytics(q url.Values, metric string, ep analyticsEndpoint) (analyticsQuery, *apiError) {
	aq := analyticsQuery{metric: metric, viewDuration: 5, links: url.Values{}, allTime: ep.allTime}
	known := append([]string{"from", "to", "unique", "viewDuration"}, ep.params...)
	for _, k := range slices.Sorted(mapKeys(q)) {
		if !slices.Contains(known, k) && !strings.HasPrefix(k, "filterBy[") {
			return aq, e.queryError(k, detailNotExpected)
		}
		if !strings.HasSuffix(k, "[]") && len(q[k]) != 1 {
			return aq, e.queryError(k, "This parameter must be given once.")
		}
		if k != "currentPage" && k != "pageSize" {
			aq.links[k] = q[k]
		}
	}
	if err := e.parseTimeframe(q, &aq); err != nil {
		return aq, err
	}
	if err := e.parseCounting(q, &aq, ep); err != nil {
		return aq, err
	}
	f, err := e.parseFilter(q, ep.allTime)
	aq.filter = f
	return aq, err
}

// parseTimeframe reads from and to: to defaults to now (the end of the current second, so that
// a play recorded just now counts, though to excludes its own instant), from to a day before
// to; from may be at most 30 days ago and must come before to.
func (e *Emulator) parseTimeframe(q url.Values, aq *analyticsQuery) *apiError {
	now := e.now().UTC().Truncate(time.Second)
	aq.to = now.Add(time.Second)
	for _, name := range []string{"to", "from"} {
		v := q.Get(name)
		if v == "" {
			continue
		}
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			return e.queryError(name, "This value is not a valid ATOM date-time, such as 2024-02-05T00:00:00+01:00.")
		}
		if name == "to" {
			aq.to = t.UTC()
		} else {
			aq.from = t.UTC()
		}
	}
	if aq.from.IsZero() {
		aq.from = aq.to.Add(-analyticsDefaultSpan)
	}
	switch {
	case aq.allTime:
		return nil
	case aq.from.Before(now.Add(-analyticsMaxAge)):
		return e.queryError("from", "This value must not be more than 30 days ago.")
	case !aq.from.Before(aq.to):
		return e.queryError("from", "This value must be before the value of to.")
	}
	return nil
}

// parseCounting reads unique (only for the metrics of ep.uniqueOf) and viewDuration (only for
// view).
func (e *Emulator) parseCounting(q url.Values, aq *analyticsQuery, ep analyticsEndpoint) *apiError {
	if v, ok := q["unique"]; ok {
		if !slices.Contains(ep.uniqueOf, aq.metric) {
			return e.queryError("unique", "This parameter is accepted only with the metrics "+strings.Join(ep.uniqueOf, ", ")+".")
		}
		switch v[0] {
		case "true", "1":
			aq.unique = true
		case "false", "0":
		default:
			return e.queryError("unique", "This value must be true or false.")
		}
	}
	if v, ok := q["viewDuration"]; ok {
		if aq.metric != "view" {
			return e.queryError("viewDuration", "This parameter is accepted only with the view metric.")
		}
		d, ok := viewDurations[v[0]]
		if !ok {
			return e.queryError("viewDuration", `This view duration is invalid. Use one of "3s", "5s", "10s", "30s".`)
		}
		aq.viewDuration = d
	}
	return nil
}

// handleAggregatedMetric serves GET /data/metrics/{metric}/{aggregation}.
func (e *Emulator) handleAggregatedMetric(w http.ResponseWriter, r *http.Request, _ string) {
	metric, agg := r.PathValue("metric"), r.PathValue("aggregation")
	aggs, ok := metricAggregations[metric]
	if !ok {
		writeError(w, *e.pathError("metric", slices.Sorted(mapKeys(metricAggregations))))
		return
	}
	if !slices.Contains(analyticsAggregations, agg) {
		writeError(w, *e.pathError("aggregation", analyticsAggregations))
		return
	}
	if !slices.Contains(aggs, agg) {
		writeError(w, *e.pathError("aggregation", aggs))
		return
	}
	total := metric == "play" && agg == "total"
	aq, aerr := e.parseAnalytics(r.URL.Query(), metric, analyticsEndpoint{uniqueOf: []string{"ccv", "view"}, allTime: total})
	if aerr != nil {
		writeError(w, *aerr)
		return
	}
	kind := metricKind(metric, agg)
	var value float64
	e.withPlays(func(all []*play) { value = e.measure(kind, aq.select_(all), aq) })
	writeJSON(w, http.StatusOK, aggregatedWire{Context: aq.context(agg, ""), Data: value})
}

// metricKind names what /data/metrics/{metric}/{aggregation} measures, in the words of the
// buckets' and timeseries' metrics where they have one.
func metricKind(metric, agg string) string {
	switch {
	case metric == "play" && agg == "rate":
		return "play-rate"
	case metric == "play" && agg == "total":
		return "play-total"
	case metric == "ccv":
		return "ccv-" + agg
	case agg == "average" || agg == "sum":
		return metric + "-" + agg
	}
	return metric
}

// handleMetricsBreakdown serves GET /data/buckets/{metric}/{breakdown}.
func (e *Emulator) handleMetricsBreakdown(w http.ResponseWriter, r *http.Request, _ string) {
	metric, breakdown := r.PathValue("metric"), r.PathValue("breakdown")
	switch {
	case !slices.Contains(bucketMetrics, metric):
		writeError(w, *e.pathError("metric", bucketMetrics))
		return
	case !slices.Contains(analyticsBreakdowns, breakdown):
		writeError(w, *e.pathError("breakdown", analyticsBreakdowns))
		return
	case metric == "play-total" && breakdown != "media-id":
		writeError(w, *e.pathError("breakdown", []string{"media-id"}))
		return
	}
	ep := analyticsEndpoint{
		params:   []string{"sortBy", "sortOrder", "currentPage", "pageSize"},
		uniqueOf: []string{"ccv-peak", "ccv-average", "view"}, allTime: metric == "play-total",
	}
	aq, aerr := e.parseAnalytics(r.URL.Query(), metric, ep)
	if aerr == nil {
		aerr = e.parseSortAndPage(r.URL.Query(), &aq, []string{"metricValue", "dimensionValue"}, "metricValue", "desc")
	}
	if aerr != nil {
		writeError(w, *aerr)
		return
	}
	var rows []bucketWire
	e.withPlays(func(all []*play) {
		groups := groupPlays(aq.select_(all), func(p *play) string { return dimensionOf(p, breakdown) })
		for _, g := range groups {
			rows = append(rows, bucketWire{DimensionValue: g.key, MetricValue: e.measure(metric, g.plays, aq)})
		}
	})
	slices.SortStableFunc(rows, func(a, b bucketWire) int {
		c := cmp.Compare(a.MetricValue, b.MetricValue)
		if aq.sortBy == "dimensionValue" || c == 0 {
			c = cmp.Compare(a.DimensionValue, b.DimensionValue)
		}
		return orderBy(c, aq.sortOrder)
	})
	page := paginate(rows, aq.page, r.URL.Path, aq.links, func(b bucketWire) bucketWire { return b })
	writeJSON(w, http.StatusOK, bucketsWire{Context: aq.context("", breakdown), Data: page.Data, Pagination: page.Pagination})
}

// handleMetricsOverTime serves GET /data/timeseries/{metric}.
func (e *Emulator) handleMetricsOverTime(w http.ResponseWriter, r *http.Request, _ string) {
	metric := r.PathValue("metric")
	if !slices.Contains(timeseriesMetrics, metric) {
		writeError(w, *e.pathError("metric", timeseriesMetrics))
		return
	}
	ep := analyticsEndpoint{
		params:   []string{"interval", "sortBy", "sortOrder", "currentPage", "pageSize"},
		uniqueOf: []string{"ccv-peak", "ccv-average", "view"},
	}
	q := r.URL.Query()
	aq, aerr := e.parseAnalytics(q, metric, ep)
	if aerr == nil {
		aerr = e.parseInterval(q, &aq)
	}
	if aerr == nil {
		aerr = e.parseSortAndPage(q, &aq, []string{"metricValue", "emittedAt"}, "emittedAt", "asc")
	}
	if aerr != nil {
		writeError(w, *aerr)
		return
	}
	step := map[string]time.Duration{"minute": time.Minute, "hour": time.Hour, "day": 24 * time.Hour}[aq.interval]
	var rows []pointWire
	e.withPlays(func(all []*play) {
		groups := groupPlays(aq.select_(all), func(p *play) string { return atom(p.At.Truncate(step)) })
		for _, g := range groups {
			// Each point measures its own interval: an average of concurrent viewers is over it.
			pq := aq
			pq.from = g.plays[0].At.Truncate(step)
			pq.to = pq.from.Add(step)
			rows = append(rows, pointWire{EmittedAt: g.key, MetricValue: e.measure(metric, g.plays, pq)})
		}
	})
	slices.SortStableFunc(rows, func(a, b pointWire) int {
		c := cmp.Compare(a.EmittedAt, b.EmittedAt)
		if aq.sortBy == "metricValue" {
			c = cmp.Or(cmp.Compare(a.MetricValue, b.MetricValue), c)
		}
		return orderBy(c, aq.sortOrder)
	})
	page := paginate(rows, aq.page, r.URL.Path, aq.links, func(p pointWire) pointWire { return p })
	writeJSON(w, http.StatusOK, pointsWire{Context: aq.context("", ""), Data: page.Data, Pagination: page.Pagination})
}

// parseInterval reads interval: by default hour for a timeframe of at most 2 days, else day;
// minute only for a timeframe shorter than 60 minutes.
func (e *Emulator) parseInterval(q url.Values, aq *analyticsQuery) *apiError {
	span := aq.to.Sub(aq.from)
	aq.interval = q.Get("interval")
	switch {
	case aq.interval == "" && span <= 48*time.Hour:
		aq.interval = "hour"
	case aq.interval == "":
		aq.interval = "day"
	case !slices.Contains(analyticsIntervals, aq.interval):
		return e.queryError("interval", "This value must be one of: minute, hour, day.")
	case aq.interval == "minute" && span >= time.Hour:
		return e.queryError("interval", "The interval minute needs a timeframe (from to to) shorter than 60 minutes.")
	}
	return nil
}

// parseSortAndPage reads sortBy (one of keys), sortOrder and the paging.
func (e *Emulator) parseSortAndPage(q url.Values, aq *analyticsQuery, keys []string, defKey, defOrder string) *apiError {
	aq.sortBy, aq.sortOrder = cmp.Or(q.Get("sortBy"), defKey), cmp.Or(q.Get("sortOrder"), defOrder)
	if !slices.Contains(keys, aq.sortBy) {
		return e.queryError("sortBy", "This value must be one of: "+strings.Join(keys, ", ")+".")
	}
	if aq.sortOrder != "asc" && aq.sortOrder != "desc" {
		return e.queryError("sortOrder", "This value must be one of: asc, desc.")
	}
	p, probs := e.parsePaging(q)
	if len(probs) > 0 {
		return e.queryError(probs[0].Name, probs[0].Title)
	}
	aq.page = p
	return nil
}

// orderBy turns an ascending comparison into the order asked for.
func orderBy(c int, order string) int {
	if order == "desc" {
		return -c
	}
	return c
}

// withPlays runs fn on the recorded plays, under the read lock.
func (e *Emulator) withPlays(fn func([]*play)) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	fn(e.st.Plays)
}

// mapKeys is the keys of m, for slices.Sorted.
func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}
