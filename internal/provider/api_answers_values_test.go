package provider_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strconv"
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

// The check that a row of the guide's table of answer members that names a data source's
// attribute is true: the member's value reaches the attribute. The emulator's answer to the
// row's operation is rewritten on its way to the provider, the member set to one value and then
// to another (strings, dates, numbers and booleans; an object or a list is checked through its
// members), and the data source read each time (its protocol server, in-process): the attribute
// must show each value and not the other.

// answerRewriter rewrites one member of the answers to one operation, when it is armed.
type answerRewriter struct {
	mu     sync.Mutex
	ops    operationMatcher
	op     string
	member []string
	value  any
	hits   int // the answers in which the member was found and set
}

func (a *answerRewriter) arm(op, member string, value any) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.op, a.member, a.value, a.hits = op, strings.Split(member, "."), value, 0
}

func (a *answerRewriter) hitCount() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.hits
}

func (a *answerRewriter) wrap(emu *emulator.Emulator) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		op, member, value := a.op, a.member, a.value
		a.mu.Unlock()
		if op == "" || len(a.ops.of(op, []recordedRequest{{method: r.Method, path: r.URL.Path}})) == 0 {
			emu.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		emu.ServeHTTP(rec, r)
		body := rec.Body.Bytes()
		var doc any
		if rec.Code/100 == 2 && json.Unmarshal(body, &doc) == nil {
			if n := jsonSet(doc, member, value); n > 0 {
				body, _ = json.Marshal(doc)
				a.mu.Lock()
				a.hits += n
				a.mu.Unlock()
			}
		}
		for k, vs := range rec.Header() {
			if k != "Content-Length" {
				w.Header()[k] = vs
			}
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(body)
	})
}

// jsonSet sets the member at steps in doc to value wherever it is present with a value of the
// same JSON kind (or null), and returns how many it set.
func jsonSet(doc any, steps []string, value any) int {
	obj, ok := doc.(map[string]any)
	if !ok || len(steps) == 0 {
		return 0
	}
	name, each := strings.CutSuffix(steps[0], "[]")
	v, ok := obj[name]
	if !ok {
		return 0
	}
	if len(steps) == 1 {
		if v != nil && fmt.Sprintf("%T", v) != fmt.Sprintf("%T", value) {
			return 0
		}
		obj[name] = value
		return 1
	}
	if !each {
		return jsonSet(v, steps[1:], value)
	}
	items, _ := v.([]any)
	n := 0
	for _, it := range items {
		n += jsonSet(it, steps[1:], value)
	}
	return n
}

// answerPair gives a member of the emulator's answer two values of its JSON kind, with what the
// attribute shows of each, from the value the answer holds; false when the member is an object
// or a list (checked through its members) or cannot be told apart.
func answerPair(current any, member string) ([2]any, [2]string, bool) {
	switch v := current.(type) {
	case string:
		if _, err := time.Parse(time.RFC3339, v); err == nil {
			return [2]any{"2001-02-03T04:05:06Z", "2002-03-04T05:06:07Z"}, [2]string{"2001-02-03T04:05:06", "2002-03-04T05:06:07"}, true
		}
		a, b := "tf-a0-"+member, "tf-a1-"+member
		return [2]any{a, b}, [2]string{a, b}, true
	case bool:
		return [2]any{true, false}, [2]string{"true", "false"}, true
	case float64:
		return [2]any{float64(4242), float64(4343)}, [2]string{"4242", "4343"}, true
	}
	return [2]any{}, [2]string{}, false
}

// attributeTexts returns the texts of every value at an attribute's path (after the data
// source's address) in a state, through lists, sets, maps and objects.
func attributeTexts(v tftypes.Value, steps []string) []string {
	if v.IsNull() || !v.IsKnown() {
		return nil
	}
	typ := v.Type()
	switch {
	case typ.Is(tftypes.List{}), typ.Is(tftypes.Set{}):
		var elems []tftypes.Value
		_ = v.As(&elems)
		var out []string
		for _, e := range elems {
			out = append(out, attributeTexts(e, steps)...)
		}
		return out
	case typ.Is(tftypes.Object{}), typ.Is(tftypes.Map{}):
		var attrs map[string]tftypes.Value
		_ = v.As(&attrs)
		if len(steps) == 0 {
			var out []string
			for k, e := range attrs {
				out = append(out, k)
				out = append(out, attributeTexts(e, nil)...)
			}
			return out
		}
		return attributeTexts(attrs[steps[0]], steps[1:])
	}
	if len(steps) > 0 {
		return nil
	}
	switch {
	case typ.Is(tftypes.String):
		var s string
		_ = v.As(&s)
		return []string{s}
	case typ.Is(tftypes.Bool):
		var b bool
		_ = v.As(&b)
		return []string{strconv.FormatBool(b)}
	case typ.Is(tftypes.Number):
		var f big.Float
		_ = v.As(&f)
		return []string{f.Text('f', -1)}
	}
	return nil
}

// answerReads are the data sources whose reads the check makes, by the operation they send,
// with the configuration of the read (an id the setup created, by kind). GET-Webhook is not
// among them: data.videohost_webhook reads a webhook from the list (LIST-webhooks, checked
// here), which alone carries its signature secret, and sends GET-Webhook only for an id the
// list lacks.
var answerReads = map[string]struct {
	source string
	config func(ids map[string]string) map[string]any
}{
	"GET-video":                     {"videohost_video", func(ids map[string]string) map[string]any { return map[string]any{"id": ids["video"]} }},
	"GET-video-status":              {"videohost_video", func(ids map[string]string) map[string]any { return map[string]any{"id": ids["video"]} }},
	"GET_live-streams-liveStreamId": {"videohost_live_stream", func(ids map[string]string) map[string]any { return map[string]any{"id": ids["live_stream"]} }},
	"GET_players-playerId":          {"videohost_player_theme", func(ids map[string]string) map[string]any { return map[string]any{"id": ids["player"]} }},
	"LIST-videos":                   {"videohost_videos", func(map[string]string) map[string]any { return nil }},
	"GET_live-streams":              {"videohost_live_streams", func(map[string]string) map[string]any { return nil }},
	"GET_players":                   {"videohost_player_themes", func(map[string]string) map[string]any { return nil }},
	"LIST-tags":                     {"videohost_tags", func(map[string]string) map[string]any { return nil }},
	"GET_upload-tokens":             {"videohost_upload_tokens", func(map[string]string) map[string]any { return nil }},
	"LIST-webhooks":                 {"videohost_webhooks", func(map[string]string) map[string]any { return nil }},
}

// TestAPIAnswersReachTheirAttributes checks the rows of the answer table that name an attribute
// of a data source in answerReads, or of a resource in answerResources: the member's value
// reaches the attribute.
func TestAPIAnswersReachTheirAttributes(t *testing.T) {
	rw := &answerRewriter{ops: newOperationMatcher(coverageRows(t))}
	limits := emulator.Limits{Uploads: 100000, Writes: 100000, Reads: 100000}
	// The emulator is served here, not by acctest.ServeEmulator, whose contract check would
	// refuse the rewritten answers: their values are the check's, not the service's (a status
	// out of its enum).
	// The video's ingest and encoding wait for an hour, so that the members its answers hold
	// (and so the attributes checked) are the same on every machine, however fast.
	emu, err := emulator.New(emulator.Options{Limits: limits, IngestDelay: time.Hour, EncodingDelay: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(rw.wrap(emu))
	t.Cleanup(func() {
		srv.Close()
		if err := emu.Close(); err != nil {
			t.Errorf("closing the emulator: %v", err)
		}
	})
	baseURL, key := srv.URL, emu.APIKeys()[0]
	ids := answerObjects(t, baseURL, key)
	p := acctest.NewProtoServer(t, baseURL, key, nil)
	checked, containers, absent := 0, 0, 0
	for _, r := range answerRows(t) {
		read, ok := answerReads[r.op]
		if !ok {
			continue
		}
		for _, attr := range r.attrs {
			readOnce, steps, ok := answerReader(t, p, baseURL, key, r.op, read.source, attr, ids)
			if !ok {
				continue
			}
			where := fmt.Sprintf("%s:%d", coverageGuide, r.line)
			rw.arm("", "", nil)
			current := answerValue(t, baseURL, key, r.op, read.source, ids, r.member)
			values, wants, ok := answerPair(current, r.member)
			if !ok {
				if current == nil {
					absent++
				} else {
					containers++
				}
				continue
			}
			for i := range values {
				rw.arm(r.op, r.member, values[i])
				state, diags := readOnce()
				if rw.hitCount() == 0 || acctest.HasAnyError(diags) {
					t.Errorf("%s: with %s = %v in the answer of %s, the read for %s: %s (members set: %d)", where, r.member, values[i], r.op,
						attr, acctest.ErrorText(diags), rw.hitCount())
					continue
				}
				texts := strings.Join(attributeTexts(state, steps), " ")
				if !strings.Contains(texts, wants[i]) || strings.Contains(texts, wants[1-i]) {
					t.Errorf("%s: with %s = %v in the answer of %s, %s is %q, which does not show it: %s does not show %s",
						where, r.member, values[i], r.op, attr, texts, attr, r.member)
				}
			}
			rw.arm("", "", nil)
			checked++
		}
	}
	t.Logf("%d attributes of answer rows checked to show their members; %d show objects or lists, checked through their members; "+
		"%d show members the emulator's answer leaves out or null here", checked, containers, absent)
	if checked < 100 {
		t.Errorf("only %d attributes checked: the setup or the table lost rows", checked)
	}
}

// answerResources are the resources whose Read the check makes, by the list operation it sends
// (a resource reads its object from the list its reads share, and sends the GET of one object
// only for an id the list lacks), with the kind of the object the setup created for them.
var answerResources = map[string][2]string{
	"LIST-videos":      {"videohost_video", "video"},
	"GET_live-streams": {"videohost_live_stream", "live_stream"},
	"GET_players":      {"videohost_player_theme", "player"},
	"LIST-webhooks":    {"videohost_webhook", "webhook"},
}

// answerReader returns the read that shows attr (the data source's, or, for an attribute of a
// resource, the resource's Read of the object the setup created, by a provider of its own so
// that no list read before is reused) and the attribute's path in the state read; false when
// the check makes no read for it.
func answerReader(t *testing.T, p protoReader, baseURL, key, op, source, attr string, ids map[string]string) (func() (tftypes.Value, []*tfprotov6.Diagnostic), []string, bool) {
	t.Helper()
	if rest, ok := strings.CutPrefix(attr, "data."+source+"."); ok {
		typ := p.DataType(source)
		obj, _ := typ.(tftypes.Object)
		config := map[string]tftypes.Value{}
		for name, v := range answerReads[op].config(ids) {
			config[name] = tfValue(t, obj.AttributeTypes[name], v)
		}
		return func() (tftypes.Value, []*tfprotov6.Diagnostic) {
			state, diags := p.ReadData(source, config)
			return tftypes.NewValue(typ, state), diags
		}, strings.Split(rest, "."), true
	}
	res, ok := answerResources[op]
	rest, isRes := strings.CutPrefix(attr, res[0]+".")
	if !ok || !isRes {
		return nil, nil, false
	}
	typ := p.ResourceType(res[0])
	return func() (tftypes.Value, []*tfprotov6.Diagnostic) {
		own := acctest.NewProtoServer(t, baseURL, key, nil)
		state, _, diags := own.Read(res[0], map[string]tftypes.Value{"id": acctest.Str(ids[res[1]])})
		return tftypes.NewValue(typ, state), diags
	}, strings.Split(rest, "."), true
}

// protoReader is what the check needs of the provider's protocol server.
type protoReader interface {
	ReadData(typeName string, config map[string]tftypes.Value) (map[string]tftypes.Value, []*tfprotov6.Diagnostic)
	DataType(typeName string) tftypes.Type
	ResourceType(typeName string) tftypes.Type
}

// answerObjects creates one object of each kind that the reads need, and returns their ids.
func answerObjects(t *testing.T, baseURL, key string) map[string]string {
	t.Helper()
	c, err := videohost.New(videohost.Config{BaseURL: baseURL, APIKey: key, AuthScheme: videohost.AuthBasic, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	ids := map[string]string{}
	v, err := c.CreateVideo(ctx, videohost.VideoCreate{Title: "tf-answers", Tags: []string{"tf-answers"},
		Metadata: []videohost.Metadata{{Key: "k", Value: "v"}}, Source: "https://example.com/tf-answers.mp4"})
	if err != nil {
		t.Fatal(err)
	}
	ids["video"] = v.ID
	ls, err := c.CreateLiveStream(ctx, videohost.CreateLiveStreamInput{Name: "tf-answers"})
	if err != nil {
		t.Fatal(err)
	}
	ids["live_stream"] = ls.ID
	pt, err := c.CreatePlayerTheme(ctx, videohost.PlayerThemeInput{})
	if err != nil {
		t.Fatal(err)
	}
	ids["player"] = pt.ID
	wh, err := c.CreateWebhook(ctx, videohost.CreateWebhookInput{URL: "https://example.com/tf-answers",
		Events: []string{"video.encoding.quality.completed"}})
	if err != nil {
		t.Fatal(err)
	}
	ids["webhook"] = wh.ID
	if _, err := c.CreateUploadToken(ctx, 3600); err != nil {
		t.Fatal(err)
	}
	return ids
}

// answerValue returns the value the emulator's answer to op holds at member (the first item's,
// for a member of a list's items), by a request the provider's read would make.
func answerValue(t *testing.T, baseURL, key string, op, source string, ids map[string]string, member string) any {
	t.Helper()
	paths := map[string]string{
		"GET-video": "/videos/" + ids["video"], "GET-video-status": "/videos/" + ids["video"] + "/status",
		"GET_live-streams-liveStreamId": "/live-streams/" + ids["live_stream"], "GET_players-playerId": "/players/" + ids["player"],
		"LIST-videos": "/videos", "GET_live-streams": "/live-streams",
		"GET_players": "/players", "LIST-tags": "/tags", "GET_upload-tokens": "/upload-tokens", "LIST-webhooks": "/webhooks",
	}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, baseURL+paths[op], nil)
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth(key, "")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	_, _ = buf.ReadFrom(resp.Body)
	var doc any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("%s of %s: %v", op, source, err)
	}
	vals := jsonAt(doc, strings.Split(member, "."))
	if len(vals) == 0 {
		return nil
	}
	return vals[0]
}
