package livestream_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// TestLiveStreamIdentityAndListProtocol drives the identities and the list resources of
// videohost_live_stream and videohost_player_theme through the provider's protocol server, as
// Terraform 1.12+ (identity) and 1.14+ (terraform query) call them, against an in-process
// emulator holding 130 of each (two pages).
func TestLiveStreamIdentityAndListProtocol(t *testing.T) {
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

// TestAccLiveStreamQuery runs terraform query over live streams and player themes, beside one of
// each managed by the configuration. terraform query needs Terraform 1.14. Every object carries
// the test's name (env.Name), and the checks look for the test's own among what the workspace
// holds, so that it runs against a workspace that other tests use at the same time; only the
// emulator of its own, which holds nothing else, shows that the unfiltered theme list holds
// exactly the two.
func TestAccLiveStreamQuery(t *testing.T) {
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
			{Config: streamConfig(env, true, "name", acctest.Hcl(env.Name("studio")))},
			{
				Query:             true,
				Config:            query,
				QueryResultChecks: checks,
			},
		},
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
