package framework_test

// Tests of the list resources through the protocol server and terraform query, for the kinds that
// no test file of their own covers alone.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/events"
	"github.com/videohost/terraform-provider-videohost/internal/provider/uploadtoken"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// TestLiveIdentityAndListProtocol drives the identities and the list resources of
// videohost_live_stream and videohost_player_theme through the provider's protocol server, as
// Terraform 1.12+ (identity) and 1.14+ (terraform query) call them, against an in-process
// emulator holding 130 of each (two pages).
func TestLiveIdentityAndListProtocol(t *testing.T) {
	const n = 130
	// A short rate window, so that seeding 260 objects does not wait out the sandbox's minute.
	emu, baseURL := acctest.ServeEmulator(t, emulator.Options{RateWindow: 100 * time.Millisecond}, nil)
	p := acctest.NewProtoServer(t, baseURL, emu.APIKeys()[0], nil)
	c := acctest.ServiceClient(t, &acctest.AccEnv{BaseURL: baseURL, APIKey: emu.APIKeys()[0], Emu: emu})
	streams, themes := map[string]videohost.LiveStream{}, map[string]videohost.PlayerTheme{}
	for i := range n {
		th, err := c.CreatePlayerTheme(t.Context(), videohost.PlayerThemeInput{Name: videohost.Value(fmt.Sprintf("theme-%03d", i))})
		if err != nil {
			t.Fatal(err)
		}
		themes[th.ID] = th
		ls, err := c.CreateLiveStream(t.Context(), videohost.CreateLiveStreamInput{Name: fmt.Sprintf("stream-%03d", i), PlayerID: th.ID,
			Restreams: []videohost.Restream{{Name: "dest", ServerURL: "rtmp://h.example.test/live", StreamKey: fmt.Sprintf("rk-%d", i)}}})
		if err != nil {
			t.Fatal(err)
		}
		streams[ls.ID] = ls
	}

	for _, kind := range []struct {
		typeName, path string
		ids            map[string]string // id to display name
	}{
		{"videohost_live_stream", "/live-streams", names(streams, func(l videohost.LiveStream) string { return l.Name })},
		{"videohost_player_theme", "/players", names(themes, func(p videohost.PlayerTheme) string { return p.Name })},
	} {
		t.Run(kind.typeName, func(t *testing.T) {
			var someID string
			for id := range kind.ids {
				someID = id
				break
			}
			_, identity, diags := p.Read(kind.typeName, map[string]tftypes.Value{"id": acctest.Str(someID)})
			acctest.RequireNoErrors(t, "ReadResource", diags)
			if got := acctest.StringOf(identity["id"]); got != someID {
				t.Errorf("identity after a read of a state without one = %q, want %q", got, someID)
			}
			state, identity, diags := p.ImportResource(kind.typeName, "", map[string]tftypes.Value{"id": acctest.Str(someID)})
			acctest.RequireNoErrors(t, "ImportResourceState", diags)
			if acctest.StringOf(state["id"]) != someID || acctest.StringOf(identity["id"]) != someID {
				t.Errorf("import by identity: state id %q, identity %q, want %q", acctest.StringOf(state["id"]), acctest.StringOf(identity["id"]), someID)
			}
			before := emu.RequestCount("", "/")
			if _, _, diags := p.ImportResource(kind.typeName, "", map[string]tftypes.Value{"id": acctest.Str("../videos")}); !acctest.HasError(diags, "Invalid Import ID") {
				t.Errorf("an identity with a path step: %s", acctest.DiagText(diags))
			}
			if after := emu.RequestCount("", "/"); after != before {
				t.Errorf("%d requests for a refused identity", after-before)
			}

			var results []acctest.Listed
			lists, _ := acctest.ReadsDuring(emu, kind.path, func() {
				results = p.List(acctest.ListQuery{TypeName: kind.typeName, IncludeResource: true, Limit: 1000})
			})
			t.Logf("%s: %d results with include_resource from %d list reads", kind.typeName, len(results), lists)
			if len(results) != n || lists > acctest.PagesFor(n)+1 {
				t.Fatalf("%d results from %d list reads, want %d from at most %d", len(results), lists, n, acctest.PagesFor(n)+1)
			}
			for _, r := range results {
				acctest.RequireNoErrors(t, "ListResource", r.Diagnostics)
				id := acctest.StringOf(r.Identity["id"])
				if want, ok := kind.ids[id]; !ok || r.DisplayName != want || acctest.StringOf(r.Resource["id"]) != id || acctest.StringOf(r.Resource["name"]) != want {
					t.Fatalf("result %q (%q) with resource %v; want a seeded object named %q", id, r.DisplayName, r.Resource, want)
				}
			}
			if kind.typeName == "videohost_live_stream" {
				r := results[0]
				ls := streams[acctest.StringOf(r.Identity["id"])]
				if acctest.StringOf(r.Resource["stream_key"]) != ls.StreamKey || acctest.StringOf(r.Resource["player_id"]) != ls.PlayerID {
					t.Errorf("the listed resource of %s lacks its stream key or player", ls.ID)
				}
			}
		})
	}

	t.Run("the name filter of the live stream list", func(t *testing.T) {
		results := p.List(acctest.ListQuery{TypeName: "videohost_live_stream", Config: map[string]tftypes.Value{"name": acctest.Str("stream-12")}, Limit: 1000})
		if len(results) != 10 { // stream-120 to stream-129
			t.Errorf("%d live streams whose name holds stream-12, want 10", len(results))
		}
	})
}

// names maps the ids of objects to their names.
func names[T any](objs map[string]T, name func(T) string) map[string]string {
	out := make(map[string]string, len(objs))
	for id, o := range objs {
		out[id] = name(o)
	}
	return out
}

// TestAccLiveQuery runs terraform query over live streams and player themes, beside one of
// each managed by the configuration. terraform query needs Terraform 1.14. Every object carries
// the test's name (env.Name), and the checks look for the test's own among what the workspace
// holds, so that it runs against a workspace that other tests use at the same time; only the
// emulator of its own, which holds nothing else, shows that the unfiltered theme list holds
// exactly the two.
func TestAccLiveQuery(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	acctest.RequireCLIFeature(t, acctest.FeatureQuery)
	c := acctest.ServiceClient(t, env)
	outsideName, outsideTheme := env.Name("outside-studio"), env.Name("outside-theme")
	outside, err := c.CreateLiveStream(t.Context(), videohost.CreateLiveStreamInput{Name: outsideName})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.DeleteLiveStream(context.Background(), outside.ID); err != nil && !errors.Is(err, videohost.ErrNotFound) {
			t.Errorf("deleting live stream %s made outside Terraform: %v", outside.ID, err)
		}
	})
	theme, err := c.CreatePlayerTheme(t.Context(), videohost.PlayerThemeInput{Name: videohost.Value(outsideTheme)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.DeletePlayerTheme(context.Background(), theme.ID); err != nil && !errors.Is(err, videohost.ErrNotFound) {
			t.Errorf("deleting player theme %s made outside Terraform: %v", theme.ID, err)
		}
	})
	// The name filter of the live streams takes a part of the name: the test's prefix finds
	// both of its streams, and "outside" the one made outside Terraform.
	query := fmt.Sprintf(`
list "videohost_live_stream" "all" {
  provider         = videohost
  include_resource = true
  config {
    name = %q
  }
}

list "videohost_live_stream" "outside" {
  provider = videohost
  config {
    name = %q
  }
}

list "videohost_player_theme" "all" {
  provider = videohost
  limit    = 1000
}
`, env.Name(""), env.Name("outside"))
	checks := []querycheck.QueryResultCheck{
		querycheck.ExpectLength("videohost_live_stream.all", 2),
		querycheck.ExpectLength("videohost_live_stream.outside", 1),
		querycheck.ExpectIdentity("videohost_live_stream.outside", map[string]knownvalue.Check{
			"id": knownvalue.StringExact(outside.ID),
		}),
		querycheck.ExpectResourceKnownValues("videohost_live_stream.all",
			queryfilter.ByResourceIdentity(map[string]knownvalue.Check{"id": knownvalue.StringExact(outside.ID)}),
			[]querycheck.KnownValueCheck{
				{Path: tfjsonpath.New("name"), KnownValue: knownvalue.StringExact(outsideName)},
				{Path: tfjsonpath.New("stream_key"), KnownValue: knownvalue.StringExact(outside.StreamKey)},
			}),
		querycheck.ExpectResourceDisplayName("videohost_live_stream.all",
			queryfilter.ByDisplayName(knownvalue.StringExact(env.Name("studio"))), knownvalue.StringExact(env.Name("studio"))),
		querycheck.ExpectIdentity("videohost_player_theme.all", map[string]knownvalue.Check{"id": knownvalue.StringExact(theme.ID)}),
		querycheck.ExpectResourceDisplayName("videohost_player_theme.all",
			queryfilter.ByDisplayName(knownvalue.StringExact(env.Name("brand"))), knownvalue.StringExact(env.Name("brand"))),
	}
	if env.Emu != nil {
		checks = append(checks, querycheck.ExpectLength("videohost_player_theme.all", 2))
	}
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		Steps: []resource.TestStep{
			{Config: acctest.StreamConfig(env, true, "name", acctest.Hcl(env.Name("studio")))},
			{
				Query:             true,
				Config:            query,
				QueryResultChecks: checks,
			},
		},
	})
}

// outsideObjects are the objects that TestAccListsOfObjectsMadeOutside makes through the public
// API with the key, as a user would outside Terraform, each deleted when the test ends.
type outsideObjects struct {
	liveStream, video, theme, webhook, watermark, tokenID, name string
}

// makeOutsideObjects makes one object of each listed kind, named where the kind has a name with
// the test's name (env.Name) and a random suffix, so that a list filtered by it is of the
// test's object alone.
func makeOutsideObjects(t *testing.T, env *acctest.AccEnv) outsideObjects {
	t.Helper()
	c := acctest.ServiceClient(t, env)
	o := outsideObjects{name: env.Name("outside-" + acctest.RunSuffix(t))}
	cleanup := func(what, id string, del func(context.Context, string) error) {
		t.Cleanup(func() {
			if err := del(context.Background(), id); err != nil && !errors.Is(err, videohost.ErrNotFound) {
				t.Errorf("deleting %s %s made outside Terraform: %v", what, id, err)
			}
		})
	}
	ls, err := c.CreateLiveStream(t.Context(), videohost.CreateLiveStreamInput{Name: o.name})
	if err != nil {
		t.Fatal(err)
	}
	cleanup("live stream", ls.ID, c.DeleteLiveStream)
	theme, err := c.CreatePlayerTheme(t.Context(), videohost.PlayerThemeInput{Name: videohost.Value(o.name)})
	if err != nil {
		t.Fatal(err)
	}
	cleanup("player theme", theme.ID, c.DeletePlayerTheme)
	mark, err := c.CreateWatermark(t.Context(), imageSource(t, acctest.WritePNG(t, t.TempDir(), "mark.png", 16, 8, 3)))
	if err != nil {
		t.Fatal(err)
	}
	cleanup("watermark", mark.ID, c.DeleteWatermark)
	tok, err := c.CreateUploadToken(t.Context(), 3600)
	if err != nil {
		t.Fatal(err)
	}
	cleanup("upload token", tok.Token, c.DeleteUploadToken)
	o.liveStream, o.theme, o.watermark, o.tokenID = ls.ID, theme.ID, mark.ID, uploadtoken.UploadTokenFingerprint(tok.Token)
	o.video = acctest.CreateVideoOutside(t, env, videohost.VideoCreate{Title: o.name})
	o.webhook = acctest.CreateWebhookOutside(t, env, "https://hooks.example.test/"+o.name, events.VideoEncodingQualityCompleted).ID
	return o
}

// imageSource opens the image at file as an upload, closed when the test ends.
func imageSource(t *testing.T, file string) videohost.UploadSource {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	return videohost.UploadSource{Name: filepath.Base(file), Reader: f, Size: st.Size()}
}

// listsID checks that the list data source at address holds, among its items, one whose id is id.
func listsID(address, items, id string) statecheck.StateCheck {
	return acctest.StateCheckFunc(func(s *tfjson.State) error {
		attrs, err := acctest.StateAttributes(s, address)
		if err != nil {
			return err
		}
		list, _ := attrs[items].([]any)
		for _, item := range list {
			if m, _ := item.(map[string]any); m["id"] == id {
				return nil
			}
		}
		return fmt.Errorf("%s does not list %s among its %d %s", address, id, len(list), items)
	})
}

// TestAccListsOfObjectsMadeOutside makes a live stream, a video, a player theme, a webhook, a
// watermark and an upload token through the public API, as a user would outside Terraform,
// finds each with the list data sources and with terraform query over the list resources
// (Terraform 1.14 and later), among whatever else the workspace holds. It runs against any
// endpoint: the lists with a name filter are filtered by the test's own name, the others are
// searched for the test's objects by id (up to 1000 of a kind).
func TestAccListsOfObjectsMadeOutside(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	acctest.RequireCLIFeature(t, acctest.FeatureQuery)
	o := makeOutsideObjects(t, env)
	byID := func(list, id string) querycheck.QueryResultCheck {
		return querycheck.ExpectResourceKnownValues(list, queryfilter.ByResourceIdentity(map[string]knownvalue.Check{"id": knownvalue.StringExact(id)}),
			[]querycheck.KnownValueCheck{{Path: tfjsonpath.New("id"), KnownValue: knownvalue.StringExact(id)}})
	}
	list := func(kind, config string) string {
		return fmt.Sprintf("list %q \"outside\" {\n  provider         = videohost\n  include_resource = true\n  limit            = 1000\n%s}\n", kind, config)
	}
	named := func(attr string) string { return fmt.Sprintf("  config {\n    %s = %q\n  }\n", attr, o.name) }
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		Steps: []resource.TestStep{
			{
				Config: env.ProviderConfig("") + `
data "videohost_webhooks" "all" {}
data "videohost_watermarks" "all" {}
data "videohost_upload_tokens" "all" {}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					listsID("data.videohost_webhooks.all", "webhooks", o.webhook),
					listsID("data.videohost_watermarks.all", "watermarks", o.watermark),
					listsID("data.videohost_upload_tokens.all", "upload_tokens", o.tokenID),
				},
			},
			{
				Query: true,
				Config: list("videohost_live_stream", named("name")) + list("videohost_video", named("title")) +
					list("videohost_player_theme", "") + list("videohost_webhook", "") + list("videohost_watermark", "") +
					list("videohost_upload_token", ""),
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("videohost_live_stream.outside", 1),
					querycheck.ExpectLength("videohost_video.outside", 1),
					byID("videohost_live_stream.outside", o.liveStream),
					byID("videohost_video.outside", o.video),
					byID("videohost_player_theme.outside", o.theme),
					byID("videohost_webhook.outside", o.webhook),
					byID("videohost_watermark.outside", o.watermark),
					byID("videohost_upload_token.outside", o.tokenID),
				},
			},
		},
	})
}
