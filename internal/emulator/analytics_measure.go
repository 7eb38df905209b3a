package emulator

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// What the analytics measure of the recorded plays, and how they answer it.

// playFilter is the filterBy of an analytics query; an empty member does not filter.
type playFilter struct {
	mediaID, continent, country, deviceType, operatingSystem, browser, referrer []string
	mediaType, tag                                                              string
	// referrerGiven is set when filterBy[referrer] was given, even as the empty string.
	referrerGiven bool
}

// arrayFilters are the filters that take several values; mediaType and tag take one.
var arrayFilters = []string{"mediaId", "continent", "country", "deviceType", "operatingSystem", "browser", "referrer"}

// maxReferrerLength is the longest referrer a filter may name.
const maxReferrerLength = 2048

// parseFilter reads filterBy[name] (and filterBy[name][] or filterBy[name][i] for the filters
// that take several values); mediaOnly refuses every filter but mediaId and mediaType.
func (e *Emulator) parseFilter(q url.Values, mediaOnly bool) (playFilter, *apiError) {
	var f playFilter
	for _, k := range slices.Sorted(mapKeys(q)) {
		inner, ok := strings.CutPrefix(k, "filterBy[")
		if !ok {
			continue
		}
		name, rest, _ := strings.Cut(inner, "]")
		indexed := strings.HasPrefix(rest, "[") && strings.HasSuffix(rest, "]") && slices.Contains(arrayFilters, name)
		if rest != "" && !indexed {
			return f, e.queryError(k, detailNotExpected)
		}
		if mediaOnly && name != "mediaId" && name != "mediaType" {
			return f, e.queryError(k, "Only the mediaId and mediaType filters are accepted with play/total and play-total.")
		}
		if aerr := e.setFilter(&f, k, name, q[k]); aerr != nil {
			return f, aerr
		}
	}
	return f, nil
}

// setFilter sets the filter name to values, checking them as the document says.
func (e *Emulator) setFilter(f *playFilter, key, name string, values []string) *apiError {
	for _, v := range values {
		switch {
		case name == "continent" && !slices.Contains(analyticsContinents, v):
			return e.queryError(key, "This value must be one of: "+strings.Join(analyticsContinents, ", ")+".")
		case name == "mediaType" && v != "video" && v != "live-stream":
			return e.queryError(key, "This value must be one of: video, live-stream.")
		case name == "referrer" && len(v) > maxReferrerLength:
			return e.queryError(key, "This value should not contain more than 2048 characters.")
		}
	}
	lists := map[string]*[]string{
		"mediaId": &f.mediaID, "continent": &f.continent, "country": &f.country, "deviceType": &f.deviceType,
		"operatingSystem": &f.operatingSystem, "browser": &f.browser, "referrer": &f.referrer,
	}
	switch name {
	case "mediaType":
		f.mediaType = values[0]
	case "tag":
		f.tag = values[0]
	default:
		list, ok := lists[name]
		if !ok {
			return e.queryError(key, detailNotExpected)
		}
		*list = append(*list, values...)
		f.referrerGiven = f.referrerGiven || name == "referrer"
	}
	return nil
}

// matches applies the filters: every list holds the play's value (device, system and browser
// in any case), mediaType and tag are exact.
func (f playFilter) matches(p *play) bool {
	in := func(list []string, v string, fold bool) bool {
		return len(list) == 0 || slices.ContainsFunc(list, func(w string) bool {
			return w == v || (fold && strings.EqualFold(w, v))
		})
	}
	return in(f.mediaID, p.MediaID, false) && in(f.continent, p.Continent, false) && in(f.country, p.Country, true) &&
		in(f.deviceType, p.DeviceType, true) && in(f.operatingSystem, p.OperatingSystem, true) &&
		in(f.browser, p.Browser, true) && (!f.referrerGiven || slices.Contains(f.referrer, p.Referrer)) &&
		(f.mediaType == "" || f.mediaType == p.MediaType) && (f.tag == "" || slices.Contains(p.Tags, f.tag))
}

// select_ is the plays of the query: those its filters keep, in its timeframe unless it counts
// every play.
func (aq analyticsQuery) select_(all []*play) []*play {
	var out []*play
	for _, p := range all {
		if aq.filter.matches(p) && (aq.allTime || (!p.At.Before(aq.from) && p.At.Before(aq.to))) {
			out = append(out, p)
		}
	}
	return out
}

// playGroup is the plays of one dimension value or one time bucket.
type playGroup struct {
	key   string
	plays []*play
}

// groupPlays groups ps by key, in the order of each key's first play.
func groupPlays(ps []*play, key func(*play) string) []playGroup {
	var groups []playGroup
	at := map[string]int{}
	for _, p := range ps {
		k := key(p)
		i, ok := at[k]
		if !ok {
			i = len(groups)
			at[k] = i
			groups = append(groups, playGroup{key: k})
		}
		groups[i].plays = append(groups[i].plays, p)
	}
	return groups
}

// dimensionOf is the value of breakdown for p.
func dimensionOf(p *play, breakdown string) string {
	return map[string]string{
		"media-id": p.MediaID, "media-type": p.MediaType, "continent": p.Continent, "country": p.Country,
		"device-type": p.DeviceType, "operating-system": p.OperatingSystem, "browser": p.Browser, "referrer": p.Referrer,
	}[breakdown]
}

// measure is the value of kind (a metric of the buckets and timeseries, or metricKind's) over ps.
func (e *Emulator) measure(kind string, ps []*play, aq analyticsQuery) float64 {
	played := slices.DeleteFunc(slices.Clone(ps), func(p *play) bool { return !p.Played })
	switch kind {
	case "play", "start", "play-total":
		return float64(len(played))
	case "end":
		return float64(countFunc(ps, func(p *play) bool { return p.Ended }))
	case "impression":
		return float64(len(ps))
	case "play-rate":
		return ratio(float64(len(played)), float64(len(ps)))
	case "impression-time-sum", "impression-time-average":
		return sumOrAverage(ps, kind, func(p *play) float64 { return p.ImpressionTime })
	case "watch-time-sum", "watch-time-average":
		return sumOrAverage(played, kind, func(p *play) float64 { return p.WatchTime })
	case "view":
		views := slices.DeleteFunc(played, func(p *play) bool { return p.WatchTime < aq.viewDuration })
		return float64(viewers(views, aq.unique))
	case "ccv-peak":
		return peakConcurrency(played, aq.unique)
	case "ccv-live":
		now := e.now()
		return float64(viewers(overlapping(played, now.Add(-ccvLiveWindow), now), aq.unique))
	case "ccv-average":
		return ratio(watchedWithin(played, aq.from, aq.to), aq.to.Sub(aq.from).Seconds())
	}
	return 0
}

func countFunc(ps []*play, keep func(*play) bool) int {
	n := 0
	for _, p := range ps {
		if keep(p) {
			n++
		}
	}
	return n
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// sumOrAverage sums value over ps, or averages it when kind ends in average.
func sumOrAverage(ps []*play, kind string, value func(*play) float64) float64 {
	sum := 0.0
	for _, p := range ps {
		sum += value(p)
	}
	if strings.HasSuffix(kind, "average") {
		return ratio(sum, float64(len(ps)))
	}
	return sum
}

// viewers counts ps, or their distinct viewers when unique.
func viewers(ps []*play, unique bool) int {
	if !unique {
		return len(ps)
	}
	seen := map[string]bool{}
	for _, p := range ps {
		seen[p.Viewer] = true
	}
	return len(seen)
}

// end is when p's viewer stopped watching.
func (p *play) end() time.Time { return p.At.Add(time.Duration(p.WatchTime * float64(time.Second))) }

// overlapping is the plays watched at some time of [from, to].
func overlapping(ps []*play, from, to time.Time) []*play {
	var out []*play
	for _, p := range ps {
		if !p.At.After(to) && p.end().After(from) {
			out = append(out, p)
		}
	}
	return out
}

// peakConcurrency is the most plays (or viewers) watched at once: the most watched at the start
// of any play.
func peakConcurrency(ps []*play, unique bool) float64 {
	peak := 0
	for _, p := range ps {
		peak = max(peak, viewers(overlapping(ps, p.At, p.At), unique))
	}
	return float64(peak)
}

// watchedWithin is the seconds of ps watched within [from, to).
func watchedWithin(ps []*play, from, to time.Time) float64 {
	sum := 0.0
	for _, p := range ps {
		start, end := max(p.At.UnixNano(), from.UnixNano()), min(p.end().UnixNano(), to.UnixNano())
		if end > start {
			sum += float64(end-start) / float64(time.Second)
		}
	}
	return sum
}

// The answers of the analytics. The document's enums of the context's members leave some values
// out (the aggregations peak and live, the breakdown referrer, the metric play-total): the
// emulator leaves out such a member, which the document does not require, rather than send a
// value the document does not list.
type (
	analyticsContextWire struct {
		Metric      string        `json:"metric,omitempty"`
		Aggregation string        `json:"aggregation,omitempty"`
		Breakdown   string        `json:"breakdown,omitempty"`
		Interval    string        `json:"interval,omitempty"`
		Timeframe   timeframeWire `json:"timeframe"`
	}
	timeframeWire struct {
		From string `json:"from"`
		To   string `json:"to"`
	}
	aggregatedWire struct {
		Context analyticsContextWire `json:"context"`
		Data    float64              `json:"data"`
	}
	bucketWire struct {
		DimensionValue string  `json:"dimensionValue"`
		MetricValue    float64 `json:"metricValue"`
	}
	bucketsWire struct {
		Context    analyticsContextWire `json:"context"`
		Data       []bucketWire         `json:"data"`
		Pagination pagination           `json:"pagination"`
	}
	pointWire struct {
		EmittedAt   string  `json:"emittedAt"`
		MetricValue float64 `json:"metricValue"`
	}
	pointsWire struct {
		Context    analyticsContextWire `json:"context"`
		Data       []pointWire          `json:"data"`
		Pagination pagination           `json:"pagination"`
	}
)

// context is the answer's context: the metric as the document names it (view with its duration,
// unique counts with their prefix), the aggregation or breakdown, the interval, the timeframe.
func (aq analyticsQuery) context(agg, breakdown string) analyticsContextWire {
	c := analyticsContextWire{Metric: aq.metric, Aggregation: agg, Breakdown: breakdown, Interval: aq.interval,
		Timeframe: timeframeWire{From: atom(aq.from), To: atom(aq.to)}}
	switch {
	case aq.metric == "view" && aq.unique && aq.viewDuration == 5:
		c.Metric = "unique-view"
	case aq.metric == "view":
		c.Metric = "view-" + strconv.Itoa(int(aq.viewDuration))
		if aq.unique {
			c.Metric = "unique-" + c.Metric
		}
	case aq.unique:
		c.Metric = "unique-" + aq.metric
	case aq.metric == "play-total":
		c.Metric = ""
	}
	if agg == "peak" || agg == "live" {
		c.Aggregation = ""
	}
	if breakdown == "referrer" {
		c.Breakdown = ""
	}
	return c
}
