package provider_test

// Every kind the provider registers, with only its required arguments, works on the CLI of the
// tests, with the defaults its documentation promises: resources are applied, planned empty and
// destroyed, data sources read, ephemeral resources opened and closed, list resources queried and
// actions invoked. The table of configurations is checked both ways against the registry, so a
// kind added without its row fails here. The media are made by the test: random bytes for a
// video, a tiny PNG, a few WebVTT lines.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	tfresource "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/provider"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// Categories of the table: the blocks that declare each kind.
const (
	kindResource  = "resource"
	kindData      = "data"
	kindEphemeral = "ephemeral"
	kindList      = "list"
	kindAction    = "action"
)

// minimalMedia are what the configurations name: files the test writes, the receiver of the
// webhook, a name of the run, and the id of the video whose captions and chapters the lists read.
type minimalMedia struct {
	video, png, vtt, receiver, name, videoID string
}

// minimalKind is one registered kind and its block with only the required arguments. also names
// the arguments it sets beyond the schema's required ones, each with the rule that needs it: a
// plan refuses the block without it.
type minimalKind struct {
	category, name string
	block          func(m minimalMedia) string
	also           map[string]string
}

// minimalKinds is the table: one row for each kind the provider registers (functions aside, which
// take arguments, not configuration). Every block is named "min".
var minimalKinds = []minimalKind{
	{kindResource, "videohost_webhook", func(m minimalMedia) string {
		return fmt.Sprintf("url    = %q\nevents = [\"video.encoding.quality.completed\"]", m.receiver)
	}, nil},
	{kindResource, "videohost_live_stream", func(m minimalMedia) string { return fmt.Sprintf("name = %q", m.name) }, nil},
	{kindResource, "videohost_player_theme", func(minimalMedia) string { return "" }, nil},
	{kindResource, "videohost_video", func(m minimalMedia) string {
		return fmt.Sprintf("title       = %q\nsource_file = %q", m.name, m.video)
	}, map[string]string{"source_file": "a video has exactly one source (Missing Video Source)"}},
	{kindResource, "videohost_video_caption", func(m minimalMedia) string {
		return fmt.Sprintf("video_id    = videohost_video.min.id\nlanguage    = \"en\"\nsource_file = %q", m.vtt)
	}, nil},
	{kindResource, "videohost_video_chapter", func(m minimalMedia) string {
		return fmt.Sprintf("video_id    = videohost_video.min.id\nlanguage    = \"en\"\nsource_file = %q", m.vtt)
	}, nil},
	{kindResource, "videohost_upload_token", func(minimalMedia) string { return "" }, nil},
	{kindResource, "videohost_watermark", func(m minimalMedia) string { return fmt.Sprintf("source_file = %q", m.png) }, nil},
	{kindResource, "videohost_video_summary", func(minimalMedia) string {
		return "video_id = videohost_video.min.id\nabstract = \"A short outline.\""
	}, map[string]string{"abstract": "a summary the service does not generate has a text (Missing Video Summary Text)"}},

	{kindData, "videohost_webhook", func(minimalMedia) string { return "id = videohost_webhook.min.id" }, nil},
	{kindData, "videohost_webhooks", func(minimalMedia) string { return "" }, nil},
	{kindData, "videohost_video", func(minimalMedia) string { return "id = videohost_video.min.id" }, nil},
	{kindData, "videohost_videos", func(minimalMedia) string { return "" }, nil},
	{kindData, "videohost_live_stream", func(minimalMedia) string { return "id = videohost_live_stream.min.id" }, nil},
	{kindData, "videohost_live_streams", func(minimalMedia) string { return "" }, nil},
	{kindData, "videohost_player_theme", func(minimalMedia) string { return "id = videohost_player_theme.min.id" }, nil},
	{kindData, "videohost_player_themes", func(minimalMedia) string { return "" }, nil},
	{kindData, "videohost_upload_tokens", func(minimalMedia) string { return "" }, nil},
	{kindData, "videohost_watermarks", func(minimalMedia) string { return "" }, nil},
	{kindData, "videohost_discarded_videos", func(minimalMedia) string { return "" }, nil},
	{kindData, "videohost_analytics_metric", func(minimalMedia) string { return "metric      = \"play\"\naggregation = \"count\"" }, nil},
	{kindData, "videohost_analytics_breakdown", func(minimalMedia) string { return "metric    = \"play\"\nbreakdown = \"country\"" }, nil},
	{kindData, "videohost_analytics_timeseries", func(minimalMedia) string { return "metric = \"play\"" }, nil},
	{kindData, "videohost_tags", func(minimalMedia) string { return "" }, nil},
	{kindData, "videohost_summaries", func(minimalMedia) string { return "" }, nil},

	{kindEphemeral, "videohost_access_token", func(minimalMedia) string { return "" }, nil},
	{kindEphemeral, "videohost_upload_token", func(minimalMedia) string { return "" }, nil},

	{kindList, "videohost_webhook", func(minimalMedia) string { return "" }, nil},
	{kindList, "videohost_live_stream", func(minimalMedia) string { return "" }, nil},
	{kindList, "videohost_player_theme", func(minimalMedia) string { return "" }, nil},
	{kindList, "videohost_video_caption", func(m minimalMedia) string { return fmt.Sprintf("video_id = %q", m.videoID) }, nil},
	{kindList, "videohost_video_chapter", func(m minimalMedia) string { return fmt.Sprintf("video_id = %q", m.videoID) }, nil},
	{kindList, "videohost_upload_token", func(minimalMedia) string { return "" }, nil},
	{kindList, "videohost_watermark", func(minimalMedia) string { return "" }, nil},
	{kindList, "videohost_video", func(minimalMedia) string { return "" }, nil},
	{kindList, "videohost_video_summary", func(minimalMedia) string { return "" }, nil},

	{kindAction, "videohost_webhook_check", func(minimalMedia) string { return "webhook_id = videohost_webhook.min.id" }, nil},
	{kindAction, "videohost_live_stream_complete", func(minimalMedia) string { return "live_stream_id = videohost_live_stream.min.id" }, nil},
	{kindAction, "videohost_video_restore", func(minimalMedia) string { return "video_id = videohost_video.min.id" }, nil},
}

// hcl is the row's block, named min. The arguments of a list resource and of an action are in
// their config block; a list block names its provider, as terraform query wants.
func (k minimalKind) hcl(m minimalMedia) string {
	body := k.block(m)
	switch k.category {
	case kindList:
		body = "provider = videohost\n" + configBlock(body)
	case kindAction:
		body = configBlock(body)
	}
	return fmt.Sprintf("%s %q \"min\" {\n%s}\n", k.category, k.name, indent(body))
}

func configBlock(body string) string {
	if body == "" {
		return ""
	}
	return "config {\n" + indent(body) + "}"
}

func indent(body string) string {
	if body == "" {
		return ""
	}
	lines := strings.Split(body, "\n")
	for i, l := range lines {
		lines[i] = "  " + l
	}
	return strings.Join(lines, "\n") + "\n"
}

// minimalBlocks are the blocks of the rows of the categories given, in the table's order.
func minimalBlocks(m minimalMedia, categories ...string) string {
	var b strings.Builder
	for _, k := range minimalKinds {
		if slices.Contains(categories, k.category) {
			b.WriteString("\n" + k.hcl(m))
		}
	}
	return b.String()
}

// requiredArguments lists each registered kind (category and name) with the names of its
// required arguments.
func requiredArguments(t *testing.T) map[[2]string][]string {
	t.Helper()
	ctx := t.Context()
	p := &provider.VideohostProvider{}
	out := map[[2]string][]string{}
	add := func(category, name string, required []string) {
		sort.Strings(required)
		out[[2]string{category, name}] = required
	}
	for _, f := range p.Resources(ctx) {
		var m resource.MetadataResponse
		f().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "videohost"}, &m)
		var s resource.SchemaResponse
		f().Schema(ctx, resource.SchemaRequest{}, &s)
		var req []string
		for n, a := range s.Schema.Attributes {
			if a.IsRequired() {
				req = append(req, n)
			}
		}
		add(kindResource, m.TypeName, req)
	}
	for _, f := range p.DataSources(ctx) {
		var m datasource.MetadataResponse
		f().Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "videohost"}, &m)
		var s datasource.SchemaResponse
		f().Schema(ctx, datasource.SchemaRequest{}, &s)
		var req []string
		for n, a := range s.Schema.Attributes {
			if a.IsRequired() {
				req = append(req, n)
			}
		}
		add(kindData, m.TypeName, req)
	}
	for _, f := range p.EphemeralResources(ctx) {
		var m ephemeral.MetadataResponse
		f().Metadata(ctx, ephemeral.MetadataRequest{ProviderTypeName: "videohost"}, &m)
		var s ephemeral.SchemaResponse
		f().Schema(ctx, ephemeral.SchemaRequest{}, &s)
		var req []string
		for n, a := range s.Schema.Attributes {
			if a.IsRequired() {
				req = append(req, n)
			}
		}
		add(kindEphemeral, m.TypeName, req)
	}
	for _, f := range p.ListResources(ctx) {
		var m resource.MetadataResponse
		f().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "videohost"}, &m)
		var s list.ListResourceSchemaResponse
		f().ListResourceConfigSchema(ctx, list.ListResourceSchemaRequest{}, &s)
		var req []string
		for n, a := range s.Schema.Attributes {
			if a.IsRequired() {
				req = append(req, n)
			}
		}
		add(kindList, m.TypeName, req)
	}
	for _, f := range p.Actions(ctx) {
		var m action.MetadataResponse
		f().Metadata(ctx, action.MetadataRequest{ProviderTypeName: "videohost"}, &m)
		var s action.SchemaResponse
		f().Schema(ctx, action.SchemaRequest{}, &s)
		var req []string
		for n, a := range s.Schema.Attributes {
			if a.IsRequired() {
				req = append(req, n)
			}
		}
		add(kindAction, m.TypeName, req)
	}
	return out
}

// documentedDefault is the default an attribute's description promises: "Default `3600`".
var documentedDefault = regexp.MustCompile("Default `([^`]*)`")

// documentedDefaults are, for each resource (by type name), its top-level attributes whose
// description promises a default, and that default as written.
func documentedDefaults(t *testing.T) map[string]map[string]string {
	t.Helper()
	ctx := t.Context()
	out := map[string]map[string]string{}
	for _, f := range (&provider.VideohostProvider{}).Resources(ctx) {
		var m resource.MetadataResponse
		f().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "videohost"}, &m)
		var s resource.SchemaResponse
		f().Schema(ctx, resource.SchemaRequest{}, &s)
		for n, a := range s.Schema.Attributes {
			if d := documentedDefault.FindStringSubmatch(a.GetMarkdownDescription()); d != nil && !a.IsRequired() {
				if out[m.TypeName] == nil {
					out[m.TypeName] = map[string]string{}
				}
				out[m.TypeName][n] = d[1]
			}
		}
	}
	return out
}

// defaultsAsDocumented checks that every resource of the state holds, for each attribute the
// configuration leaves unset (all but the required ones, in these configurations), the default
// its documentation promises.
func defaultsAsDocumented(t *testing.T) statecheck.StateCheck {
	defaults := documentedDefaults(t)
	if len(defaults) < 3 {
		t.Fatalf("%d resources document a default, fewer than do: documentedDefaults is broken", len(defaults))
	}
	return acctest.StateCheckFunc(func(s *tfjson.State) error {
		var wrong []string
		checked := 0
		for _, r := range s.Values.RootModule.Resources {
			if r.Mode != tfjson.ManagedResourceMode {
				continue
			}
			for name, want := range defaults[r.Type] {
				checked++
				if got := fmt.Sprint(r.AttributeValues[name]); got != want {
					wrong = append(wrong, fmt.Sprintf("%s.%s is %s, and its documentation promises a default of %s", r.Address, name, got, want))
				}
			}
		}
		if checked == 0 {
			return errors.New("no resource of the state documents a default: the check checked nothing")
		}
		if len(wrong) > 0 {
			return errors.New(strings.Join(wrong, "; "))
		}
		return nil
	})
}

// argumentLine is an argument set in a block (provider and the config block aside).
var argumentLine = regexp.MustCompile(`(?m)^\s*([a-z0-9_]+)\s*=`)

// TestMinimalConfigurationsCoverRegistry checks the table both ways against the registry: every
// registered kind has a row and every row is a registered kind; and each row's block sets every
// required argument of its kind and nothing else but the arguments its also names, each with its
// reason.
func TestMinimalConfigurationsCoverRegistry(t *testing.T) {
	registered := requiredArguments(t)
	if len(registered) < 35 {
		t.Fatalf("the registry lists %d kinds, fewer than the provider has: requiredArguments is broken", len(registered))
	}
	rows := map[[2]string]bool{}
	m := minimalMedia{video: "v.mp4", png: "w.png", vtt: "c.vtt", receiver: "http://127.0.0.1:1/hook", name: "n", videoID: "vi1"}
	for _, k := range minimalKinds {
		key := [2]string{k.category, k.name}
		if rows[key] {
			t.Errorf("%s %s has two rows", k.category, k.name)
		}
		rows[key] = true
		required, ok := registered[key]
		if !ok {
			t.Errorf("%s %s has a row, and the provider registers no such kind: remove the row", k.category, k.name)
			continue
		}
		var set []string
		for _, sub := range argumentLine.FindAllStringSubmatch(k.hcl(m), -1) {
			if sub[1] != "provider" {
				set = append(set, sub[1])
			}
		}
		sort.Strings(set)
		want := slices.Clone(required)
		for name, why := range k.also {
			if why == "" || slices.Contains(required, name) {
				t.Errorf("%s %s: also names %s without a reason, or one that is required anyway", k.category, k.name, name)
			}
			want = append(want, name)
		}
		sort.Strings(want)
		if !slices.Equal(set, want) {
			t.Errorf("%s %s sets %v; want its required arguments and those its also names: %v", k.category, k.name, set, want)
		}
	}
	for key := range registered {
		if !rows[key] {
			t.Errorf("the provider registers %s %s, which has no row in minimalKinds: add its block with only its required arguments", key[0], key[1])
		}
	}
}

// minimalEnv starts the emulator with the Video Restore feature (so that the restore action has
// something to do), a webhook receiver that answers a signed delivery 204 and a forged one 401
// (as the webhook check expects of a receiver), and writes the media.
func minimalEnv(t *testing.T) (*acctest.AccEnv, minimalMedia) {
	t.Helper()
	env := acctest.NewAccEnv(t, emulator.Options{VideoRestore: true, Environment: emulator.EnvProduction})
	env.RequireEmulatorFor(t, "the service calls the webhook's receiver, which listens on loopback, and the test counts the "+
		"tokens that the ephemeral resources open and close")
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		secret := ""
		for _, wh := range env.Emu.Webhooks() {
			if wh.WebhookID == r.Header.Get(videohost.HeaderWebhookID) {
				secret = wh.SignatureSecret
			}
		}
		body := make([]byte, 1<<16)
		n, _ := r.Body.Read(body)
		if secret != "" && videohost.Verify(secret, body[:n], r.Header.Get(videohost.HeaderSignature)) {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		w.WriteHeader(http.StatusUnauthorized)
	}))
	t.Cleanup(receiver.Close)
	dir := t.TempDir()
	video, _ := acctest.WriteRandomFile(t, dir, "clip.mp4", 64<<10)
	vtt := filepath.Join(dir, "track.vtt")
	acctest.WriteFile(t, vtt, acctest.WebVTT("Hello."))
	return env, minimalMedia{
		video: video, png: acctest.WritePNG(t, dir, "mark.png", 16, 16, 1), vtt: vtt,
		receiver: receiver.URL + "/" + env.Name("hook"), name: env.Name("minimal"),
	}
}

// nothingLeft fails when the service holds an object of the test's kinds after the destroy, or
// when an upload token that an ephemeral resource opened was not deleted.
func nothingLeft(t *testing.T, env *acctest.AccEnv) error {
	ctx := context.Background()
	c := acctest.ServiceClient(t, env)
	var left []string
	count := func(what string, n int, err error) {
		if err != nil {
			left = append(left, fmt.Sprintf("%s: %v", what, err))
		} else if n > 0 {
			left = append(left, fmt.Sprintf("%d %s", n, what))
		}
	}
	hooks, err := c.ListWebhooks(ctx, "")
	count("webhooks", len(hooks), err)
	streams, err := c.ListLiveStreams(ctx, videohost.LiveStreamFilter{})
	count("live streams", len(streams), err)
	themes, err := c.ListPlayerThemes(ctx, videohost.PlayerThemeFilter{})
	count("player themes", len(themes), err)
	videos, err := c.ListVideos(ctx, videohost.VideoFilter{})
	count("videos", len(videos), err)
	marks, err := c.ListWatermarks(ctx, videohost.WatermarkFilter{})
	count("watermarks", len(marks), err)
	tokens, err := c.ListUploadTokens(ctx, videohost.UploadTokenFilter{})
	count("upload tokens", len(tokens), err)
	if made, deleted := env.RequestCount(http.MethodPost, "/upload-tokens"), env.RequestCount(http.MethodDelete, "/upload-tokens"); made != deleted {
		left = append(left, fmt.Sprintf("%d upload tokens made and %d deleted", made, deleted))
	}
	if len(left) > 0 {
		return fmt.Errorf("after the destroy the service holds %s", strings.Join(left, ", "))
	}
	return nil
}

// TestAccRequiredArgumentsOnly applies every resource, data source and ephemeral resource with
// only its required arguments in one configuration, plans it empty, and destroys it: nothing is
// left on the service, and every upload token an ephemeral resource opened was deleted when it
// closed. It runs on every CLI of the matrix (ephemeral resources need Terraform 1.10 or OpenTofu
// 1.11, which all have).
func TestAccRequiredArgumentsOnly(t *testing.T) {
	env, media := minimalEnv(t)
	categories := []string{kindResource, kindData}
	if line, ok := acctest.CLIHas(t, acctest.FeatureEphemeral); ok {
		categories = append(categories, kindEphemeral)
	} else {
		t.Logf("%s has no ephemeral resources: their rows are left out", line)
	}
	config := env.ProviderConfig("") + minimalBlocks(media, categories...)
	checks := []statecheck.StateCheck{defaultsAsDocumented(t)}
	if slices.Contains(categories, kindEphemeral) {
		// The echo provider shows what the ephemeral upload token gave: its ttl is the default
		// its documentation promises.
		config += `
provider "echo" {
  data = ephemeral.videohost_upload_token.min
}

resource "echo" "min" {}
`
		checks = append(checks, statecheck.ExpectKnownValue("echo.min", tfjsonpath.New("data").AtMapKey("ttl"),
			knownvalue.Int64Exact(3600)))
	}
	step := acctest.EmptyPlanAfterApply(t, tfresource.TestStep{
		Config:            config,
		ConfigStateChecks: checks,
		ConfigPlanChecks: tfresource.ConfigPlanChecks{
			PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
		},
	})
	if step.ExpectNonEmptyPlan {
		// OpenTofu lists the ephemeral resources' openings in the plan: EmptyPlanAfterApply's
		// check allows those and nothing else.
		step.ConfigPlanChecks.PostApplyPostRefresh = step.ConfigPlanChecks.PostApplyPostRefresh[1:]
	}
	acctest.AccTest(t, tfresource.TestCase{
		ProtoV6ProviderFactories: acctest.AccessTokenProviderFactories(), // the provider and echo
		CheckDestroy:             func(*terraform.State) error { return nothingLeft(t, env) },
		Steps:                    []tfresource.TestStep{step},
	})
}

// TestAccRequiredArgumentsOnlyQueryAndActions applies the resources with only their required
// arguments, runs terraform query over every list resource with only its required arguments
// (each finds what the apply made), invokes every action with only its required arguments, plans
// empty and destroys. List resources and actions need Terraform 1.14 or later; the test is
// skipped, naming the CLI, on the others.
func TestAccRequiredArgumentsOnlyQueryAndActions(t *testing.T) {
	env, media := minimalEnv(t)
	acctest.RequireCLIFeature(t, acctest.FeatureQuery)
	acctest.RequireCLIFeature(t, acctest.FeatureActions)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	cli := acctest.NewCLIWorkdir(ctx, t, "1.14.0")
	cli.WriteConfig(env, "", minimalBlocks(media, kindResource, kindAction))
	cli.Run("apply", "-auto-approve", "-no-color", "-input=false")
	r, err := acctest.StateResource(cli.State(), "videohost_video.min")
	if err != nil {
		t.Fatal(err)
	}
	media.videoID = acctest.AttrString(r, "id")

	cli.Write("min.tfquery.hcl", minimalBlocks(media, kindList))
	out := cli.Run("query", "-no-color")
	t.Logf("terraform query:\n%s", out)
	for _, k := range minimalKinds {
		// Each result is a line that starts with the list's address.
		if k.category == kindList && !regexp.MustCompile(`(?m)^list\.`+k.name+`\.min\s`).MatchString(out) {
			t.Errorf("terraform query found nothing for list %q \"min\", which has what the apply made:\n%s", k.name, out)
		}
	}
	for _, k := range minimalKinds {
		if k.category == kindAction {
			out := cli.Run("apply", "-auto-approve", "-no-color", "-input=false", "-invoke=action."+k.name+".min")
			t.Logf("terraform apply -invoke=action.%s.min:\n%s", k.name, out)
			if !strings.Contains(out, "Apply complete!") {
				t.Errorf("the invocation of action %q \"min\" did not complete:\n%s", k.name, out)
			}
		}
	}
	cli.Run("plan", "-detailed-exitcode", "-no-color", "-input=false")
	cli.Run("destroy", "-auto-approve", "-no-color", "-input=false")
	if err := nothingLeft(t, env); err != nil {
		t.Error(err)
	}
}
