package provider_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"maps"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// The check that a row of the guide's table of request members is true: the argument it names
// sets the member it names. For each argument of a row, the provider (its protocol server, as
// Terraform drives it, in-process) reads, lists, opens or creates the object the argument belongs
// to twice, against an emulator behind a recorder: once with one value of the argument and once
// with another (or none); for an operation of an update (PATCH), it creates the object with the
// other value first and updates it to the run's. The member of the row's operation must hold
// each run's value and not the other's, as the requests the recorder kept show. A row that names
// an argument which does not reach the member (sortBy set by provider.api_key) fails, naming the
// row.

// memberValue is one value given to an argument in a run, and what the member shows of it: a
// text that the member's rendering (recordedMember) must contain. A nil value leaves the
// argument unset; its want is then "" and only the other value's absence is checked.
type memberValue struct {
	value any
	want  string
}

// memberEnv is what the values of an argument may use: a directory for files, and objects of
// the service that an argument names by id, two of each kind.
type memberEnv struct {
	t               *testing.T
	dir             string
	players, videos [2]string
}

// idPair is two objects' ids, each shown as itself.
func idPair(of func(memberEnv) [2]string) func(memberEnv) [2]memberValue {
	return func(e memberEnv) [2]memberValue {
		ids := of(e)
		return [2]memberValue{{ids[0], ids[0]}, {ids[1], ids[1]}}
	}
}

func players(e memberEnv) [2]string { return e.players }
func videos(e memberEnv) [2]string  { return e.videos }

// memberValues gives an argument's two values of the check by the argument's address, where the
// generic ones (memberDefaults, and asc and desc for every sort_order) do not fit: enums,
// formats, ids of objects, nested objects and files.
var memberValues = map[string]func(e memberEnv) [2]memberValue{
	"data.videohost_analytics_breakdown.sort_by":        enumPair("metricValue", "dimensionValue"),
	"data.videohost_analytics_breakdown.view_duration":  enumPair("3s", "10s"),
	"data.videohost_analytics_breakdown.filter_by":      filterPair,
	"data.videohost_analytics_metric.view_duration":     enumPair("3s", "10s"),
	"data.videohost_analytics_metric.filter_by":         filterPair,
	"data.videohost_analytics_timeseries.view_duration": enumPair("3s", "10s"),
	"data.videohost_analytics_timeseries.sort_by":       enumPair("metricValue", "emittedAt"),
	"data.videohost_analytics_timeseries.interval":      enumPair("hour", "day"),
	"data.videohost_analytics_timeseries.filter_by":     filterPair,
	"data.videohost_analytics_breakdown.from":           daysAgoPair(9, 8),
	"data.videohost_analytics_breakdown.to":             daysAgoPair(3, 2),
	"data.videohost_analytics_metric.from":              daysAgoPair(9, 8),
	"data.videohost_analytics_metric.to":                daysAgoPair(3, 2),
	"data.videohost_analytics_timeseries.from":          daysAgoPair(9, 8),
	"data.videohost_analytics_timeseries.to":            daysAgoPair(3, 2),
	"data.videohost_discarded_videos.sort_by":           enumPair("title", "createdAt"),
	"data.videohost_live_streams.sort_by":               enumPair("name", "createdAt"),
	"data.videohost_player_themes.sort_by":              enumPair("name", "createdAt"),
	"data.videohost_summaries.sort_by":                  enumPair("createdAt", "videoId"),
	"data.videohost_summaries.origin":                   enumPair("auto", "api"),
	"data.videohost_summaries.source_status":            enumPair("missing", "completed"),
	"data.videohost_tags.sort_by":                       enumPair("value", "videoCount"),
	"data.videohost_upload_tokens.sort_by":              enumPair("createdAt", "ttl"),
	"data.videohost_videos.sort_by":                     enumPair("title", "createdAt"),
	"data.videohost_watermarks.sort_by":                 func(memberEnv) [2]memberValue { return [2]memberValue{{"createdAt", "createdAt"}, {nil, ""}} },
	"data.videohost_webhooks.event":                     enumPair("video.encoding.quality.completed", "video.source.recorded"),
	"videohost_live_stream.player_id":                   idPair(players),
	"videohost_video.player_id":                         idPair(players),
	"videohost_video.source_video_id":                   idPair(videos),
	"videohost_video_summary.video_id":                  idPair(videos),
	"videohost_video.clip":                              clipPair("start_timecode"),
	"videohost_video.clip.start_timecode":               clipPair("start_timecode"),
	"videohost_video.clip.end_timecode":                 clipPair("end_timecode"),
	"videohost_live_stream.thumbnail_file":              imagePair("live-stream-thumbnail"),
	"videohost_player_theme.logo_file":                  imagePair("player-logo"),
	"videohost_video.source_file":                       filePair("video-source"),
	"videohost_video.thumbnail_file":                    imagePair("video-thumbnail"),
	"videohost_watermark.source_file":                   imagePair("watermark"),
	"videohost_video.watermark":                         watermarkPair("id"),
	"videohost_video.watermark.width":                   watermarkPair("width"),
	"videohost_video.watermark.top":                     watermarkPair("top"),
	"videohost_video.watermark.right":                   watermarkPair("right"),
	"videohost_video.watermark.opacity":                 watermarkPair("opacity"),
	"videohost_video.watermark.left":                    watermarkPair("left"),
	"videohost_video.watermark.id":                      watermarkPair("id"),
	"videohost_video.watermark.height":                  watermarkPair("height"),
	"videohost_video.watermark.bottom":                  watermarkPair("bottom"),
	"videohost_webhook.events": func(memberEnv) [2]memberValue {
		return [2]memberValue{{[]any{"video.encoding.quality.completed"}, "video.encoding.quality.completed"}, {[]any{"video.source.recorded"}, "video.source.recorded"}}
	},
	"videohost_webhook.url":            urlPair("webhook"),
	"videohost_video.source_url":       urlPair("video-source"),
	"videohost_player_theme.logo_link": urlPair("player-logo-link"),
	// A summary's origin is api unless it is auto, and the provider sends only auto.
	"videohost_video_summary.origin":     func(memberEnv) [2]memberValue { return [2]memberValue{{"auto", "auto"}, {nil, ""}} },
	"videohost_video.thumbnail_timecode": enumPair("00:00:01", "00:00:02"),
	"videohost_video.language":           enumPair("fr", "de"),
	"videohost_video.transcript_summary_attributes": func(memberEnv) [2]memberValue {
		return [2]memberValue{{[]any{"abstract"}, "abstract"}, {[]any{"takeaways"}, "takeaways"}}
	},
	"videohost_video_caption.source_file":           vttPair("caption"),
	"videohost_player_theme.background_bottom":      colourPair,
	"videohost_player_theme.background_text":        colourPair,
	"videohost_player_theme.background_top":         colourPair,
	"videohost_player_theme.link":                   colourPair,
	"videohost_player_theme.link_active":            colourPair,
	"videohost_player_theme.link_hover":             colourPair,
	"videohost_player_theme.text":                   colourPair,
	"videohost_player_theme.track_background":       colourPair,
	"videohost_player_theme.track_played":           colourPair,
	"videohost_player_theme.track_unplayed":         colourPair,
	"videohost_video_chapter.source_file":           vttPair("chapter"),
	"videohost_live_stream.restreams":               restreamPair("name"),
	"videohost_live_stream.restreams.name":          restreamPair("name"),
	"videohost_live_stream.restreams.server_url":    restreamPair("server_url"),
	"videohost_live_stream.restreams.stream_key":    restreamPair("stream_key"),
	"videohost_live_stream.restreams.stream_key_wo": restreamPair("stream_key_wo"),
	"list.videohost_webhook.event":                  enumPair("video.encoding.quality.completed", "video.source.recorded"),
}

// daysAgoPair is two dates of the analytics' 30 days, so many days before today (UTC), each
// shown as itself.
func daysAgoPair(a, b int) func(memberEnv) [2]memberValue {
	return func(memberEnv) [2]memberValue {
		day := time.Now().UTC().Truncate(24 * time.Hour)
		da, db := day.AddDate(0, 0, -a).Format(time.RFC3339), day.AddDate(0, 0, -b).Format(time.RFC3339)
		return [2]memberValue{{da, da}, {db, db}}
	}
}

// filterPair is two filters of the analytics, each by one browser.
func filterPair(memberEnv) [2]memberValue {
	return [2]memberValue{{map[string]any{"browser": []any{"firefox"}}, "firefox"}, {map[string]any{"browser": []any{"safari"}}, "safari"}}
}

// restreamPair is two lists of one restream each, each shown by the field of the restream
// that the member is (name, server_url, stream_key, or stream_key_wo with its version).
func restreamPair(field string) func(memberEnv) [2]memberValue {
	return func(memberEnv) [2]memberValue {
		var out [2]memberValue
		for i := range out {
			r := map[string]any{
				"name":       fmt.Sprintf("tf-m%d-restream", i),
				"server_url": fmt.Sprintf("rtmp://m%d.example.com/live", i),
			}
			key := fmt.Sprintf("tf-m%d-stream-key", i)
			if field == "stream_key_wo" {
				r["stream_key_wo"], r["stream_key_wo_version"] = key, int64(i+1)
			} else {
				r["stream_key"] = key
			}
			want := map[string]string{"name": r["name"].(string), "server_url": r["server_url"].(string)}[field] //nolint:forcetypeassert // set above.
			if want == "" {
				want = key
			}
			out[i] = memberValue{[]any{r}, want}
		}
		return out
	}
}

// clipPair is two clips of a video, each shown by its field that the member is.
func clipPair(field string) func(memberEnv) [2]memberValue {
	return func(memberEnv) [2]memberValue {
		var out [2]memberValue
		for i := range out {
			c := map[string]any{"start_timecode": fmt.Sprintf("00:00:0%d", i+1), "end_timecode": fmt.Sprintf("00:00:3%d", i+1)}
			out[i] = memberValue{c, c[field].(string)} //nolint:forcetypeassert // set above.
		}
		return out
	}
}

// imagePair is two PNG images, each followed by a text of its own that the member's part shows.
func imagePair(name string) func(memberEnv) [2]memberValue {
	return func(e memberEnv) [2]memberValue {
		var out [2]memberValue
		for i := range out {
			var b bytes.Buffer
			if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 1, 1))); err != nil {
				e.t.Fatal(err)
			}
			text := fmt.Sprintf("tf-m%d-%s", i, name)
			b.WriteString(text)
			path := filepath.Join(e.dir, text+".png")
			if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
				e.t.Fatal(err)
			}
			out[i] = memberValue{path, text}
		}
		return out
	}
}

// watermarkPair is two watermarks of a video, each shown by its field that the member is: the
// top and left offsets, or the bottom and right ones for a member of those.
func watermarkPair(field string) func(memberEnv) [2]memberValue {
	return func(memberEnv) [2]memberValue {
		var out [2]memberValue
		for i := range out {
			w := map[string]any{"id": fmt.Sprintf("watermark%d", i), "width": fmt.Sprintf("3%d%%", i),
				"height": fmt.Sprintf("4%d%%", i), "opacity": fmt.Sprintf("5%d%%", i)}
			if field == "bottom" || field == "right" {
				w["bottom"], w["right"] = fmt.Sprintf("1%dpx", i), fmt.Sprintf("2%dpx", i)
			} else {
				w["top"], w["left"] = fmt.Sprintf("1%dpx", i), fmt.Sprintf("2%dpx", i)
			}
			out[i] = memberValue{w, w[field].(string)} //nolint:forcetypeassert // set above.
		}
		return out
	}
}

// colourPair is two colours of a player theme, each shown as itself.
func colourPair(memberEnv) [2]memberValue {
	return [2]memberValue{{"rgba(11, 22, 33, 0.5)", "rgba(11, 22, 33, 0.5)"}, {"rgba(44, 55, 66, 1)", "rgba(44, 55, 66, 1)"}}
}

// urlPair is two https URLs, each shown as itself.
func urlPair(name string) func(memberEnv) [2]memberValue {
	return func(memberEnv) [2]memberValue {
		a, b := "https://example.com/tf-m0-"+name, "https://example.com/tf-m1-"+name
		return [2]memberValue{{a, a}, {b, b}}
	}
}

// vttPair is two WebVTT files, each with a note of its own that the member's part shows.
func vttPair(name string) func(memberEnv) [2]memberValue {
	return func(e memberEnv) [2]memberValue {
		var out [2]memberValue
		for i := range out {
			note := fmt.Sprintf("tf-m%d-%s", i, name)
			path := filepath.Join(e.dir, note+".vtt")
			if err := os.WriteFile(path, []byte("WEBVTT\n\nNOTE "+note+"\n"), 0o600); err != nil {
				e.t.Fatal(err)
			}
			out[i] = memberValue{path, note}
		}
		return out
	}
}

// filePair is two files, each of a content of its own, shown as the content of the member's
// part.
func filePair(name string) func(memberEnv) [2]memberValue {
	return func(e memberEnv) [2]memberValue {
		var out [2]memberValue
		for i := range out {
			content := fmt.Sprintf("tf-m%d-%s", i, name)
			path := filepath.Join(e.dir, content)
			if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
				e.t.Fatal(err)
			}
			out[i] = memberValue{path, content}
		}
		return out
	}
}

// enumPair is a pair of values of an enum, each shown as itself.
func enumPair(a, b string) func(memberEnv) [2]memberValue {
	return func(memberEnv) [2]memberValue { return [2]memberValue{{a, a}, {b, b}} }
}

// memberBases are the arguments an object needs in every run (its required ones, and a
// video's source), by the object's address. A value that is a func(memberRunner) any is called
// at each run (a new video, a new file).
var memberBases = map[string]map[string]any{
	"data.videohost_analytics_breakdown":  {"metric": "view", "breakdown": "browser"},
	"data.videohost_analytics_metric":     {"metric": "view", "aggregation": "count"},
	"data.videohost_analytics_timeseries": {"metric": "view"},
	"videohost_live_stream":               {"name": "tf-base-live-stream"},
	"videohost_video":                     {"title": "tf-base-video", "source_url": "https://example.com/tf-base-video.mp4"},
	"videohost_video_summary":             {"video_id": newVideo, "abstract": "tf-base-abstract"},
	"videohost_video_caption":             {"video_id": newVideo, "language": "en", "source_file": newFile("WEBVTT\n")},
	"videohost_video_chapter":             {"video_id": newVideo, "language": "en", "source_file": newFile("WEBVTT\n")},
	"videohost_webhook":                   {"url": "https://example.com/tf-base-webhook", "events": []any{"video.encoding.quality.completed"}},
}

// memberAlso are the arguments that an argument's runs set beside it, or leave out (nil) of the
// base ones, where the argument needs another or cannot be set with one.
var memberAlso = map[string]map[string]any{
	"videohost_video.source_video_id":  {"source_url": nil},
	"videohost_video.source_file":      {"source_url": nil},
	"videohost_player_theme.logo_link": {"logo_file": func(m memberRunner) any { return imagePair("logo")(m.env)[0].value }},
}

// newVideo creates a video for one run, for the objects of which a video holds one only.
func newVideo(m memberRunner) any {
	v, err := m.client.CreateVideo(m.t.Context(), videohost.VideoCreate{Title: "tf-members-run"})
	if err != nil {
		m.t.Fatal(err)
	}
	return v.ID
}

// newFile writes a file of content for one run and gives its path.
func newFile(content string) func(memberRunner) any {
	return func(m memberRunner) any {
		f, err := os.CreateTemp(m.env.dir, "base-*")
		if err == nil {
			_, err = f.WriteString(content)
			err = errors.Join(err, f.Close())
		}
		if err != nil {
			m.t.Fatal(err)
		}
		return f.Name()
	}
}

// memberTriggers names, for an operation whose rows name a provider argument, the object whose
// run sends the operation, where no row of the operation names an argument of another object.
var memberTriggers = map[string]string{
	"POST_auth-api-key": "data.videohost_tags",
}

// recordedRequest is a request the recorder kept: its method, path, query and body.
type recordedRequest struct {
	method, path, contentType string
	query                     url.Values
	body                      []byte
}

// requestRecorder keeps every request that reaches the emulator behind it.
type requestRecorder struct {
	mu   sync.Mutex
	reqs []recordedRequest
}

func (rr *requestRecorder) wrap(emu *emulator.Emulator) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		rr.mu.Lock()
		rr.reqs = append(rr.reqs, recordedRequest{method: r.Method, path: r.URL.Path, contentType: r.Header.Get("Content-Type"),
			query: r.URL.Query(), body: body})
		rr.mu.Unlock()
		emu.ServeHTTP(w, r)
	})
}

// take returns the requests kept since the last call and forgets them.
func (rr *requestRecorder) take() []recordedRequest {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	out := rr.reqs
	rr.reqs = nil
	return out
}

// operationMatcher finds an operation of the coverage table by a request's method and path.
type operationMatcher map[string]struct {
	method string
	path   *regexp.Regexp
}

func newOperationMatcher(rows []coverageRow) operationMatcher {
	params := regexp.MustCompile(`\\\{[A-Za-z]+\\\}`)
	m := operationMatcher{}
	for _, r := range rows {
		re := params.ReplaceAllString(regexp.QuoteMeta(r.path), `[^/]+`)
		m[r.id] = struct {
			method string
			path   *regexp.Regexp
		}{r.method, regexp.MustCompile("^" + re + "$")}
	}
	return m
}

// of returns the requests of the operation id among reqs.
func (m operationMatcher) of(id string, reqs []recordedRequest) []recordedRequest {
	var out []recordedRequest
	op := m[id]
	for _, r := range reqs {
		if r.method == op.method && op.path != nil && op.path.MatchString(r.path) {
			out = append(out, r)
		}
	}
	return out
}

// recordedMember renders what the requests hold of a member, as the guide names it: a query
// parameter as key=value pairs (a deep object's keys, filterBy[browser], included), a member of
// a JSON body as the JSON of every value at its path, a part of a multipart form as its content.
func recordedMember(t *testing.T, reqs []recordedRequest, in, member string) string {
	t.Helper()
	var vals []string
	for _, r := range reqs {
		switch in {
		case "query":
			for k, vs := range r.query {
				if k == member || strings.HasPrefix(k, member+"[") {
					for _, v := range vs {
						vals = append(vals, k+"="+v)
					}
				}
			}
		case "body":
			var doc any
			if len(r.body) == 0 || json.Unmarshal(r.body, &doc) != nil {
				continue
			}
			for _, v := range jsonAt(doc, strings.Split(member, ".")) {
				b, _ := json.Marshal(v)
				vals = append(vals, string(b))
			}
		case "form":
			vals = append(vals, formParts(t, r, member)...)
		}
	}
	sort.Strings(vals)
	return strings.Join(vals, " ")
}

// jsonAt returns the values at a member's path in doc; a step ending in [] goes into every item
// of an array.
func jsonAt(doc any, steps []string) []any {
	if len(steps) == 0 {
		return []any{doc}
	}
	name, each := strings.CutSuffix(steps[0], "[]")
	obj, ok := doc.(map[string]any)
	if !ok {
		return nil
	}
	v, ok := obj[name]
	if !ok {
		return nil
	}
	if !each {
		return jsonAt(v, steps[1:])
	}
	items, _ := v.([]any)
	var out []any
	for _, it := range items {
		out = append(out, jsonAt(it, steps[1:])...)
	}
	return out
}

// formParts returns the contents of the parts named name of a multipart request.
func formParts(t *testing.T, r recordedRequest, name string) []string {
	t.Helper()
	mt, params, err := mime.ParseMediaType(r.contentType)
	if err != nil || !strings.HasPrefix(mt, "multipart/") {
		return nil
	}
	mr := multipart.NewReader(bytes.NewReader(r.body), params["boundary"])
	var out []string
	for {
		p, err := mr.NextPart()
		if err != nil {
			return out
		}
		if p.FormName() == name {
			b, _ := io.ReadAll(p)
			out = append(out, string(b))
		}
	}
}

// memberDefaults gives an argument of a plain type its two values: distinct strings, true and
// false, distinct numbers, or a list, set or map that holds such a string (a map's key and value
// both).
func memberDefaults(t *testing.T, address string, typ tftypes.Type) [2]memberValue {
	t.Helper()
	s := func(i int) string { return fmt.Sprintf("tf-m%d-%s", i, strings.ReplaceAll(address, ".", "-")) }
	switch {
	case typ.Is(tftypes.String):
		return [2]memberValue{{s(0), s(0)}, {s(1), s(1)}}
	case typ.Is(tftypes.Bool):
		return [2]memberValue{{true, "true"}, {false, "false"}}
	case typ.Is(tftypes.Number):
		return [2]memberValue{{int64(3607), "3607"}, {int64(4801), "4801"}}
	case typ.Is(tftypes.List{}), typ.Is(tftypes.Set{}):
		return [2]memberValue{{[]any{s(0)}, s(0)}, {[]any{s(1)}, s(1)}}
	case typ.Is(tftypes.Map{}):
		return [2]memberValue{{map[string]any{s(0): s(0)}, s(0)}, {map[string]any{s(1): s(1)}, s(1)}}
	}
	t.Fatalf("%s is of type %s, which has no generic values: give it its own in memberValues", address, typ)
	return [2]memberValue{}
}

// tfValue converts v (string, bool, int64, []any, map[string]any, nil) into a value of typ; an
// object's attributes that v leaves out are null.
func tfValue(t *testing.T, typ tftypes.Type, v any) tftypes.Value {
	t.Helper()
	if v == nil {
		return tftypes.NewValue(typ, nil)
	}
	switch typ := typ.(type) {
	case tftypes.List:
		return tftypes.NewValue(typ, tfElems(t, typ.ElementType, v))
	case tftypes.Set:
		return tftypes.NewValue(typ, tfElems(t, typ.ElementType, v))
	case tftypes.Map:
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%v is not a map for %s", v, typ)
		}
		out := map[string]tftypes.Value{}
		for k, e := range m {
			out[k] = tfValue(t, typ.ElementType, e)
		}
		return tftypes.NewValue(typ, out)
	case tftypes.Object:
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%v is not an object for %s", v, typ)
		}
		out := map[string]tftypes.Value{}
		for name, at := range typ.AttributeTypes {
			out[name] = tfValue(t, at, m[name])
		}
		for name := range m {
			if _, ok := typ.AttributeTypes[name]; !ok {
				t.Fatalf("%s has no attribute %s", typ, name)
			}
		}
		return tftypes.NewValue(typ, out)
	}
	if n, ok := v.(int64); ok {
		return tftypes.NewValue(typ, n)
	}
	return tftypes.NewValue(typ, v)
}

func tfElems(t *testing.T, elem tftypes.Type, v any) []tftypes.Value {
	t.Helper()
	items, ok := v.([]any)
	if !ok {
		t.Fatalf("%v is not a list", v)
	}
	out := make([]tftypes.Value, len(items))
	for i, it := range items {
		out[i] = tfValue(t, elem, it)
	}
	return out
}

// memberObject splits an argument's address into its object's address and its top attribute.
func memberObject(address string) (object, attr string) {
	parts := strings.Split(address, ".")
	n := 1
	if slices.Contains([]string{"data", "list", "ephemeral", "action"}, parts[0]) {
		n = 2
	}
	if parts[0] == "provider" {
		return "provider", parts[1]
	}
	return strings.Join(parts[:n], "."), parts[n]
}

// memberRunner runs objects of the provider against one emulator behind a recorder.
type memberRunner struct {
	t        *testing.T
	emu      *emulator.Emulator
	baseURL  string
	rec      *requestRecorder
	ops      operationMatcher
	triggers map[string]string // an object that sends the operation, by the operation
	env      memberEnv
	client   *videohost.Client // creates what the runs need beforehand
}

// newMemberRunner starts an emulator that takes either of two API keys (a provider argument's
// two values) behind a recorder.
func newMemberRunner(t *testing.T) memberRunner {
	t.Helper()
	rec := &requestRecorder{}
	// The limits are far above the runs' requests, so that no run waits for a window to pass.
	limits := emulator.Limits{Uploads: 100000, Writes: 100000, Reads: 100000}
	emu, baseURL := acctest.ServeEmulator(t, emulator.Options{APIKeys: memberKeys[:], Limits: limits}, rec.wrap)
	triggers := maps.Clone(memberTriggers)
	for _, r := range memberRows(t) {
		for _, arg := range r.args {
			if object, _ := memberObject(arg); object != "provider" && triggers[r.op] == "" {
				triggers[r.op] = object
			}
		}
	}
	c, err := videohost.New(videohost.Config{BaseURL: baseURL, APIKey: memberKeys[0], AuthScheme: videohost.AuthBasic, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	env := memberEnv{t: t, dir: t.TempDir()}
	for i := range 2 {
		p, err := c.CreatePlayerTheme(t.Context(), videohost.PlayerThemeInput{})
		if err != nil {
			t.Fatal(err)
		}
		v, err := c.CreateVideo(t.Context(), videohost.VideoCreate{Title: fmt.Sprintf("tf-members-%d", i)})
		if err != nil {
			t.Fatal(err)
		}
		env.players[i], env.videos[i] = p.ID, v.ID
	}
	rec.take()
	return memberRunner{t: t, emu: emu, baseURL: baseURL, rec: rec, ops: newOperationMatcher(coverageRows(t)), triggers: triggers, env: env, client: c}
}

// memberKeys are the two values of provider.api_key; the emulator takes both.
var memberKeys = [2]string{"tf-m0-provider-api-key-0000000000000000000000000000", "tf-m1-provider-api-key-1111111111111111111111111111"}

// memberRun is one run of an object: its arguments beside its base ones, the provider's, and,
// for an operation of an update, the arguments of the object as it was created first.
type memberRun struct {
	object                 string
	attrs, provider, prior map[string]any
}

// run runs the object once and returns the requests of its last step (the update, when there
// is a prior) and the diagnostics.
func (m memberRunner) run(r memberRun) ([]recordedRequest, []*tfprotov6.Diagnostic) {
	t := m.t
	t.Helper()
	key, _ := r.provider["api_key"].(string)
	if key == "" {
		key = m.emu.APIKeys()[0]
	}
	p := acctest.NewProtoServer(t, m.baseURL, key, nil)
	extra := map[string]tftypes.Value{}
	for name, v := range r.provider {
		if name != "api_key" {
			extra[name] = tfValue(t, p.ProviderType().(tftypes.Object).AttributeTypes[name], v) //nolint:forcetypeassert // the provider block is an object.
		}
	}
	if len(extra) > 0 {
		p = acctest.NewProtoServer(t, m.baseURL, key, extra)
	}
	kind, name, _ := strings.Cut(r.object, ".")
	obj := objectType(t, p, r.object)
	config := func(attrs map[string]any) map[string]tftypes.Value {
		out := map[string]tftypes.Value{}
		for _, set := range []map[string]any{memberBases[r.object], attrs} {
			for attr, v := range set {
				if f, ok := v.(func(memberRunner) any); ok {
					v = f(m)
				}
				at, ok := obj.AttributeTypes[attr]
				if !ok {
					t.Fatalf("%s has no attribute %s", r.object, attr)
				}
				out[attr] = tfValue(t, at, v)
			}
		}
		return out
	}
	m.rec.take()
	var diags []*tfprotov6.Diagnostic
	switch kind {
	case "data":
		_, diags = p.ReadData(name, config(r.attrs))
	case "list":
		for l := range p.ListStream(acctest.ListQuery{TypeName: name, Config: config(r.attrs), Limit: 1}) {
			diags = append(diags, l.Diagnostics...)
		}
	case "ephemeral":
		diags = p.OpenEphemeral(name, config(r.attrs))
	default:
		if r.prior == nil {
			_, diags = p.Create(r.object, config(r.attrs))
			break
		}
		var state map[string]tftypes.Value
		if state, diags = p.Create(r.object, config(r.prior)); acctest.HasAnyError(diags) {
			return nil, diags
		}
		m.rec.take()
		_, diags = p.Update(r.object, state, config(r.attrs))
	}
	return m.rec.take(), diags
}

// objectType is the type of the configuration of the object at address (provider: the block's).
func objectType(t *testing.T, p interface {
	ProviderType() tftypes.Type
	DataType(string) tftypes.Type
	ListType(string) tftypes.Type
	EphemeralType(string) tftypes.Type
	ResourceType(string) tftypes.Type
}, object string) tftypes.Object {
	t.Helper()
	kind, name, _ := strings.Cut(object, ".")
	var typ tftypes.Type
	switch {
	case object == "provider":
		typ = p.ProviderType()
	case kind == "data":
		typ = p.DataType(name)
	case kind == "list":
		typ = p.ListType(name)
	case kind == "ephemeral":
		typ = p.EphemeralType(name)
	default:
		typ = p.ResourceType(object)
	}
	obj, ok := typ.(tftypes.Object)
	if !ok {
		t.Fatalf("%s is not an object type", typ)
	}
	return obj
}

// checkMemberArgument runs the object of arg twice, once with each of its values, and returns
// what the requests of the row's operation show that is wrong: no request, or a member that
// does not hold the run's value or holds the other run's.
func (m memberRunner) checkMemberArgument(r memberRow, arg string, update bool) []string {
	t := m.t
	t.Helper()
	where := fmt.Sprintf("%s:%d", coverageGuide, r.line)
	object, attr := memberObject(arg)
	values := m.memberPair(arg, object, attr)
	var problems []string
	for i, v := range values {
		run := memberRun{object: object, attrs: map[string]any{attr: v.value}}
		if object == "provider" {
			run = memberRun{object: m.triggers[r.op], provider: map[string]any{attr: v.value}}
			if run.object == "" {
				t.Fatalf("%s: %s is a provider argument: name in memberTriggers the object that sends %s", where, arg, r.op)
			}
		}
		if update {
			run.prior = map[string]any{attr: values[1-i].value}
		}
		for other, v := range memberAlso[arg] {
			run.attrs[other] = v
			if run.prior != nil {
				run.prior[other] = v
			}
		}
		reqs, diags := m.run(run)
		sent := m.ops.of(r.op, reqs)
		if len(sent) == 0 {
			problems = append(problems, fmt.Sprintf("%s: with %s = %v, %s sent no %s request: %s", where, arg, v.value, run.object, r.op,
				strings.TrimSpace(acctest.ErrorText(diags))))
			continue
		}
		shown := recordedMember(t, sent, r.in, r.member)
		other := values[1-i].want
		if !strings.Contains(shown, v.want) || (other != "" && strings.Contains(shown, other)) {
			problems = append(problems, fmt.Sprintf("%s: with %s = %v, the %s member %s of %s is %q, which does not show it (%q): "+
				"%s does not set %s", where, arg, v.value, r.in, r.member, r.op, shown, v.want, arg, r.member))
		}
	}
	return problems
}

// TestAPIMembersReachTheRequest checks every row of the guide's table of request members that
// names arguments: each argument's value reaches the member in the requests of the row's
// operation.
func TestAPIMembersReachTheRequest(t *testing.T) {
	m := newMemberRunner(t)
	methods := map[string]string{}
	for _, r := range coverageRows(t) {
		methods[r.id] = r.method
	}
	checked := 0
	for _, r := range memberRows(t) {
		for _, arg := range r.args {
			for _, p := range m.checkMemberArgument(r, arg, methods[r.op] == http.MethodPatch) {
				t.Error(p)
			}
			checked++
		}
	}
	t.Logf("%d arguments of rows checked to reach their members", checked)
}

// TestAPIMembersRequestCheckCatchesAWrongRow feeds the check rows that name an argument which
// exists but does not set the member: each must be reported.
func TestAPIMembersRequestCheckCatchesAWrongRow(t *testing.T) {
	m := newMemberRunner(t)
	for _, r := range []memberRow{
		{line: 1, op: "GET_metrics-breakdown", member: "sortBy", in: "query", args: []string{"provider.api_key"}},
		{line: 2, op: "GET_metrics-breakdown", member: "sortBy", in: "query", args: []string{"data.videohost_analytics_breakdown.sort_order"}},
		{line: 3, op: "LIST-videos", member: "title", in: "query", args: []string{"data.videohost_videos.description"}},
	} {
		if got := m.checkMemberArgument(r, r.args[0], false); len(got) == 0 {
			t.Errorf("the row | %s | `%s` | %s | `%s` | passed the check", r.op, r.member, r.in, r.args[0])
		} else {
			t.Logf("reported as it should be: %s", got[0])
		}
	}
}

// memberPair returns an argument's two values: memberValues', sort_order's, or the generic
// ones of its type.
func (m memberRunner) memberPair(arg, object, attr string) [2]memberValue {
	t := m.t
	t.Helper()
	if f, ok := memberValues[arg]; ok {
		return f(m.env)
	}
	if attr == "sort_order" {
		return enumPair("asc", "desc")(m.env)
	}
	if arg == "provider.api_key" {
		return [2]memberValue{{memberKeys[0], memberKeys[0]}, {memberKeys[1], memberKeys[1]}}
	}
	p := acctest.NewProtoServer(t, m.baseURL, m.emu.APIKeys()[0], nil)
	return memberDefaults(t, arg, objectType(t, p, object).AttributeTypes[attr])
}
