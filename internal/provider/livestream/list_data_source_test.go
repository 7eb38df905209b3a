package livestream_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// seededLiveStreams is more than one page of the largest size the service allows (100).
const seededLiveStreams = 130

// liveStreamItems returns the live_streams of a videohost_live_streams data source in the state.
func liveStreamItems(s *tfjson.State, address string) ([]map[string]any, error) {
	attrs, err := acctest.StateAttributes(s, address)
	if err != nil {
		return nil, err
	}
	raw, ok := attrs["live_streams"].([]any)
	if !ok {
		return nil, fmt.Errorf("%s.live_streams is %T, want a list", address, attrs["live_streams"])
	}
	items := make([]map[string]any, 0, len(raw))
	for i, r := range raw {
		m, ok := r.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s.live_streams[%d] is %T, want an object", address, i, r)
		}
		items = append(items, m)
	}
	return items, nil
}

// liveStreamField returns one string attribute of every item.
func liveStreamField(items []map[string]any, attr string) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		s, _ := it[attr].(string)
		out = append(out, s)
	}
	return out
}

// checkOrdered reports the first pair of neighbours out of order under cmp (desc reverses it).
func checkOrdered(what string, vals []string, cmp func(a, b string) int, desc bool) error {
	for i := 1; i < len(vals); i++ {
		c := cmp(vals[i-1], vals[i])
		if desc {
			c = -c
		}
		if c > 0 {
			return fmt.Errorf("%s out of order at %d: %q then %q", what, i, vals[i-1], vals[i])
		}
	}
	return nil
}

// compareTimes orders RFC 3339 date-times; unparsable ones sort first so that they show up.
func compareTimes(a, b string) int {
	at, aerr := time.Parse(time.RFC3339, a)
	bt, berr := time.Parse(time.RFC3339, b)
	if aerr != nil || berr != nil {
		return strings.Compare(a, b)
	}
	return at.Compare(bt)
}

// sameIDs reports whether two lists hold the same ids, each once.
func sameIDs(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// TestAccLiveStreamsDataSource lists live streams sorted each way the service sorts them, by a
// name and by a name no live stream has. It creates three live streams of its own, named so
// that their order by name differs from their order of creation. Against a real endpoint every
// list is filtered to the test's own (the names carry env.Name), so that it holds in a workspace
// that other tests use at the same time; in-process the lists read the whole account, where 130
// seeds and the test's three make more than one page of the largest size (100).
func TestAccLiveStreamsDataSource(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{SeedLiveStreams: seededLiveStreams, Limits: emulator.Limits{Reads: 10000}})
	own := []string{env.Name("b"), env.Name("c"), env.Name("a")}
	scope, want := "", seededLiveStreams+len(own)
	if env.Emu == nil {
		// What the test's names share, and the names of no other test (env.Name ends the
		// test's name with a dash).
		scope, want = "name = "+acctest.Hcl(env.Name("")), len(own)
	}
	config := env.ProviderConfig("")
	for i, name := range own {
		config += fmt.Sprintf("resource \"videohost_live_stream\" \"s%d\" {\n  name = %s\n}\n", i, acctest.Hcl(name))
	}
	list := func(label, attrs string) string {
		return fmt.Sprintf("data \"videohost_live_streams\" %q {\n  %s\n  depends_on = [videohost_live_stream.s0, videohost_live_stream.s1, videohost_live_stream.s2]\n}\n", label, attrs)
	}
	config += list("all", scope) +
		list("name_desc", scope+"\n  sort_by = \"name\"\n  sort_order = \"desc\"") +
		list("created_asc", scope+"\n  sort_by = \"createdAt\"\n  sort_order = \"asc\"") +
		list("updated_desc", scope+"\n  sort_by = \"updatedAt\"\n  sort_order = \"desc\"") +
		list("named", "name = "+acctest.Hcl(own[1])) +
		list("none", "name = "+acctest.Hcl(env.Name("none")))

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.videohost_live_streams.all", tfjsonpath.New("live_streams"),
						knownvalue.ListSizeExact(want)),
					statecheck.ExpectKnownValue("data.videohost_live_streams.none", tfjsonpath.New("live_streams"),
						knownvalue.ListExact([]knownvalue.Check{})),
					statecheck.ExpectSensitiveValue("data.videohost_live_streams.all",
						tfjsonpath.New("live_streams").AtSliceIndex(0).AtMapKey("stream_key")),
					acctest.StateCheckFunc(func(s *tfjson.State) error {
						all, err := liveStreamItems(s, "data.videohost_live_streams.all")
						if err != nil {
							return err
						}
						allIDs := liveStreamField(all, "id")
						if got := len(slices.Compact(slices.Sorted(slices.Values(allIDs)))); got != len(allIDs) {
							return fmt.Errorf("the list repeats ids: %d distinct of %d", got, len(allIDs))
						}
						for i := range own {
							r, err := acctest.StateResource(s, fmt.Sprintf("videohost_live_stream.s%d", i))
							if err != nil {
								return err
							}
							if id := acctest.AttrString(r, "id"); !slices.Contains(allIDs, id) {
								return fmt.Errorf("the list leaves out the test's live stream %s", id)
							}
						}
						for _, c := range []struct {
							address, attr string
							cmp           func(a, b string) int
							desc          bool
						}{
							{"data.videohost_live_streams.name_desc", "name", strings.Compare, true},
							{"data.videohost_live_streams.created_asc", "created_at", compareTimes, false},
							{"data.videohost_live_streams.updated_desc", "updated_at", compareTimes, true},
						} {
							items, err := liveStreamItems(s, c.address)
							if err != nil {
								return err
							}
							if !sameIDs(liveStreamField(items, "id"), allIDs) {
								return fmt.Errorf("%s does not hold the same live streams as the unsorted list", c.address)
							}
							if err := checkOrdered(c.address, liveStreamField(items, c.attr), c.cmp, c.desc); err != nil {
								return err
							}
						}
						// The name filter: whether the service matches names exactly or by
						// substring, every match contains the name, every live stream of exactly
						// that name is listed, and the filter leaves others out.
						target := own[1]
						named, err := liveStreamItems(s, "data.videohost_live_streams.named")
						if err != nil {
							return err
						}
						if len(named) == 0 || len(named) >= len(all) {
							return fmt.Errorf("the name filter %q kept %d of %d live streams", target, len(named), len(all))
						}
						namedIDs := liveStreamField(named, "id")
						for _, it := range named {
							if n, _ := it["name"].(string); !strings.Contains(strings.ToLower(n), strings.ToLower(target)) {
								return fmt.Errorf("the name filter %q kept %q", target, n)
							}
						}
						for _, it := range all {
							if id, _ := it["id"].(string); it["name"] == target && !slices.Contains(namedIDs, id) {
								return fmt.Errorf("the name filter %q left out %v", target, it["id"])
							}
						}
						return nil
					}),
				},
			},
		},
	})
}

// TestAccLiveStreamsDataSourceStreamKey: the stream_key filter keeps the one live stream whose
// key it is (the service's streamKey filter), here one the test creates, none for a key no live
// stream has, and the filter is sensitive in the state. In-process, seeds stand for the other
// live streams of the account, which the filter leaves out.
func TestAccLiveStreamsDataSourceStreamKey(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{SeedLiveStreams: 3})
	const keyed, byKey = "videohost_live_stream.keyed", "data.videohost_live_streams.by_key"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: env.ProviderConfig("") + `
resource "videohost_live_stream" "keyed" {
  name = ` + acctest.Hcl(env.Name("keyed")) + `
}

data "videohost_live_streams" "by_key" {
  stream_key = videohost_live_stream.keyed.stream_key
}

data "videohost_live_streams" "no_key" {
  stream_key = "00000000-0000-4000-8000-999999999999"
}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(byKey, tfjsonpath.New("live_streams"), knownvalue.ListSizeExact(1)),
					statecheck.CompareValuePairs(byKey, tfjsonpath.New("live_streams").AtSliceIndex(0).AtMapKey("id"),
						keyed, tfjsonpath.New("id"), compare.ValuesSame()),
					statecheck.CompareValuePairs(byKey, tfjsonpath.New("live_streams").AtSliceIndex(0).AtMapKey("stream_key"),
						keyed, tfjsonpath.New("stream_key"), compare.ValuesSame()),
					statecheck.ExpectKnownValue("data.videohost_live_streams.no_key", tfjsonpath.New("live_streams"),
						knownvalue.ListExact([]knownvalue.Check{})),
					statecheck.ExpectSensitiveValue(byKey, tfjsonpath.New("stream_key")),
				},
			},
		},
	})
}

// TestAccLiveStreamsDataSourceInvalidFilters checks that bad filters, and an empty id for the
// single live stream, fail at plan time, before any request to the service.
func TestAccLiveStreamsDataSourceInvalidFilters(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{SeedLiveStreams: 1})

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: env.ProviderConfig("") + `
data "videohost_live_streams" "bad" {
  sort_by = "title"
}
`,
				ExpectError: regexp.MustCompile(`(?s)sort_by.*value must be one of`),
			},
			{
				Config: env.ProviderConfig("") + `
data "videohost_live_streams" "bad" {
  sort_order = "up"
}
`,
				ExpectError: regexp.MustCompile(`(?s)sort_order.*value must be one of`),
			},
			{
				Config: env.ProviderConfig("") + `
data "videohost_live_streams" "bad" {
  name = ""
}
`,
				ExpectError: regexp.MustCompile(`(?s)name.*string length must be at least 1`),
			},
			{
				Config: env.ProviderConfig("") + `
data "videohost_live_streams" "bad" {
  stream_key = " "
}
`,
				ExpectError: regexp.MustCompile(`(?s)Blank Value.*stream_key`),
			},
			{
				Config: env.ProviderConfig("") + `
data "videohost_live_stream" "bad" {
  id = ""
}
`,
				ExpectError: regexp.MustCompile(`(?s)id.*string length must be at least 1`),
			},
		},
	})
	if env.Emu != nil {
		if n := env.RequestCount("", "/live-streams"); n != 0 {
			t.Errorf("invalid filters reached the service %d times, want 0", n)
		}
	}
}

// TestAccLiveStreamsServerErrors checks that a service failing every read is an error that
// says so, for both live stream data sources.
func TestAccLiveStreamsServerErrors(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{SeedLiveStreams: 1, Faults: emulator.Faults{ErrorRate: 1}})
	env.RequireEmulator(t)

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: env.ProviderConfig("max_retries = 1") + `
data "videohost_live_streams" "all" {}
`,
				ExpectError: regexp.MustCompile(`(?s)Unable to List Live Streams.*server error`),
			},
			{
				Config: env.ProviderConfig("max_retries = 1") + `
data "videohost_live_stream" "one" {
  id = "` + emulator.SeedLiveStreamID(1) + `"
}
`,
				ExpectError: regexp.MustCompile(`(?s)Unable to Read Live Stream.*server error`),
			},
		},
	})
	if n := env.RequestCount("GET", "/live-streams"); n < 4 {
		t.Errorf("the service saw %d reads of live streams, want at least 4 (two calls, each retried once)", n)
	}
}
