package provider

// Tests of the list resources through the protocol server and terraform query, for the kinds that
// no test file of their own covers alone.

import (
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
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// TestLiveIdentityAndListProtocol drives the identities and the list resources of
// videohost_live_stream and videohost_player_theme through the provider's protocol server, as
// Terraform 1.12+ (identity) and 1.14+ (terraform query) call them, against an in-process
// emulator holding 130 of each (two pages).
func TestLiveIdentityAndListProtocol(t *testing.T) {
	const n = 130
	// A short rate window, so that seeding 260 objects does not wait out the sandbox's minute.
	emu, baseURL := serveEmulator(t, emulator.Options{RateWindow: 100 * time.Millisecond}, nil)
	p := newProtoServer(t, baseURL, emu.APIKeys()[0], nil)
	c := serviceClient(t, &accEnv{BaseURL: baseURL, APIKey: emu.APIKeys()[0], Emu: emu})
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
			_, identity, diags := p.read(kind.typeName, map[string]tftypes.Value{"id": str(someID)})
			requireNoErrors(t, "ReadResource", diags)
			if got := stringOf(identity["id"]); got != someID {
				t.Errorf("identity after a read of a state without one = %q, want %q", got, someID)
			}
			state, identity, diags := p.importResource(kind.typeName, "", map[string]tftypes.Value{"id": str(someID)})
			requireNoErrors(t, "ImportResourceState", diags)
			if stringOf(state["id"]) != someID || stringOf(identity["id"]) != someID {
				t.Errorf("import by identity: state id %q, identity %q, want %q", stringOf(state["id"]), stringOf(identity["id"]), someID)
			}
			before := emu.RequestCount("", "/")
			if _, _, diags := p.importResource(kind.typeName, "", map[string]tftypes.Value{"id": str("../videos")}); !hasError(diags, "Invalid Import ID") {
				t.Errorf("an identity with a path step: %s", diagText(diags))
			}
			if after := emu.RequestCount("", "/"); after != before {
				t.Errorf("%d requests for a refused identity", after-before)
			}

			var results []listed
			lists, _ := readsDuring(emu, kind.path, func() {
				results = p.list(listQuery{TypeName: kind.typeName, IncludeResource: true, Limit: 1000})
			})
			t.Logf("%s: %d results with include_resource from %d list reads", kind.typeName, len(results), lists)
			if len(results) != n || lists > pagesFor(n)+1 {
				t.Fatalf("%d results from %d list reads, want %d from at most %d", len(results), lists, n, pagesFor(n)+1)
			}
			for _, r := range results {
				requireNoErrors(t, "ListResource", r.Diagnostics)
				id := stringOf(r.Identity["id"])
				if want, ok := kind.ids[id]; !ok || r.DisplayName != want || stringOf(r.Resource["id"]) != id || stringOf(r.Resource["name"]) != want {
					t.Fatalf("result %q (%q) with resource %v; want a seeded object named %q", id, r.DisplayName, r.Resource, want)
				}
			}
			if kind.typeName == "videohost_live_stream" {
				r := results[0]
				ls := streams[stringOf(r.Identity["id"])]
				if stringOf(r.Resource["stream_key"]) != ls.StreamKey || stringOf(r.Resource["player_id"]) != ls.PlayerID {
					t.Errorf("the listed resource of %s lacks its stream key or player", ls.ID)
				}
			}
		})
	}

	t.Run("the name filter of the live stream list", func(t *testing.T) {
		results := p.list(listQuery{TypeName: "videohost_live_stream", Config: map[string]tftypes.Value{"name": str("stream-12")}, Limit: 1000})
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
// each managed by the configuration. terraform query needs Terraform 1.14.
func TestAccLiveQuery(t *testing.T) {
	env := newAccEnv(t, emulator.Options{})
	env.requireOwnAccount(t, "it queries every object of the account and expects its own")
	requireCLIFeature(t, featureQuery)
	c := serviceClient(t, env)
	outside, err := c.CreateLiveStream(t.Context(), videohost.CreateLiveStreamInput{Name: "outside studio"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreatePlayerTheme(t.Context(), videohost.PlayerThemeInput{Name: videohost.Value("outside theme")}); err != nil {
		t.Fatal(err)
	}
	query := `
list "videohost_live_stream" "all" {
  provider         = videohost
  include_resource = true
}

list "videohost_live_stream" "outside" {
  provider = videohost
  config {
    name = "outside"
  }
}

list "videohost_player_theme" "all" {
  provider = videohost
}
`
	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		Steps: []resource.TestStep{
			{Config: streamConfig(env, true, "name", hcl("studio"))},
			{
				Query:  true,
				Config: query,
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("videohost_live_stream.all", 2),
					querycheck.ExpectLength("videohost_live_stream.outside", 1),
					querycheck.ExpectLength("videohost_player_theme.all", 2),
					querycheck.ExpectIdentity("videohost_live_stream.outside", map[string]knownvalue.Check{
						"id": knownvalue.StringExact(outside.ID),
					}),
					querycheck.ExpectResourceKnownValues("videohost_live_stream.all",
						queryfilter.ByResourceIdentity(map[string]knownvalue.Check{"id": knownvalue.StringExact(outside.ID)}),
						[]querycheck.KnownValueCheck{
							{Path: tfjsonpath.New("name"), KnownValue: knownvalue.StringExact("outside studio")},
							{Path: tfjsonpath.New("stream_key"), KnownValue: knownvalue.StringExact(outside.StreamKey)},
						}),
				},
			},
		},
	})
}
