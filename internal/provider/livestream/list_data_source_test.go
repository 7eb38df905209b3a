package livestream_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

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

func TestAccLiveStreamsDataSource(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{SeedLiveStreams: seededLiveStreams, Limits: emulator.Limits{Reads: 10000}})
	env.RequireEmulatorFor(t, "it reads the emulator's seed live streams")

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: env.ProviderConfig("") + `
data "videohost_live_streams" "all" {}

data "videohost_live_streams" "name_desc" {
  sort_by    = "name"
  sort_order = "desc"
}

data "videohost_live_streams" "created_asc" {
  sort_by    = "createdAt"
  sort_order = "asc"
}

data "videohost_live_streams" "updated_desc" {
  sort_by    = "updatedAt"
  sort_order = "desc"
}

data "videohost_live_streams" "named" {
  name = data.videohost_live_streams.all.live_streams[7].name
}

data "videohost_live_streams" "none" {
  name = "no live stream has this name"
}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.videohost_live_streams.all", tfjsonpath.New("live_streams"),
						knownvalue.ListSizeExact(seededLiveStreams)),
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
						if len(all) <= 7 {
							return fmt.Errorf("the test needs 8 live streams, the list has %d", len(all))
						}
						target, _ := all[7]["name"].(string)
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
// key it is (the service's streamKey filter), none for a key no live stream has, and the filter
// is sensitive in the state.
func TestAccLiveStreamsDataSourceStreamKey(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{SeedLiveStreams: 3})
	env.RequireEmulatorFor(t, "it reads the emulator's seed live streams, whose keys it knows")
	key := "00000000-0000-4000-8000-000000000002" // the seed's key of live stream 2
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: env.ProviderConfig("") + `
data "videohost_live_streams" "by_key" {
  stream_key = "` + key + `"
}

data "videohost_live_streams" "no_key" {
  stream_key = "00000000-0000-4000-8000-999999999999"
}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.videohost_live_streams.by_key", tfjsonpath.New("live_streams"),
						knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectPartial(map[string]knownvalue.Check{
							"id": knownvalue.StringExact(emulator.SeedLiveStreamID(2)), "stream_key": knownvalue.StringExact(key),
						})})),
					statecheck.ExpectKnownValue("data.videohost_live_streams.no_key", tfjsonpath.New("live_streams"),
						knownvalue.ListExact([]knownvalue.Check{})),
					statecheck.ExpectSensitiveValue("data.videohost_live_streams.by_key", tfjsonpath.New("stream_key")),
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
