package video_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// listedVideo is a video of a videohost_videos data source, as the state holds it.
type listedVideo struct {
	id, title, description, createdAt, liveStreamID string
	tags                                            []string
	metadata                                        map[string]string
}

func listedVideos(s *tfjson.State, address string) ([]listedVideo, error) {
	r, err := acctest.StateResource(s, address)
	if err != nil {
		return nil, err
	}
	items, _ := r.AttributeValues["videos"].([]any)
	out := make([]listedVideo, 0, len(items))
	for _, it := range items {
		m, _ := it.(map[string]any)
		v := listedVideo{metadata: map[string]string{}}
		v.id, _ = m["id"].(string)
		v.title, _ = m["title"].(string)
		v.description, _ = m["description"].(string)
		v.createdAt, _ = m["created_at"].(string)
		if src, ok := m["source"].(map[string]any); ok {
			v.liveStreamID, _ = src["live_stream_id"].(string)
		}
		tags, _ := m["tags"].([]any)
		for _, tg := range tags {
			s, _ := tg.(string)
			v.tags = append(v.tags, s)
		}
		md, _ := m["metadata"].(map[string]any)
		for k, val := range md {
			v.metadata[k], _ = val.(string)
		}
		out = append(out, v)
	}
	return out, nil
}

// filteredLike checks that the data source at address lists exactly the videos of the
// unfiltered list that keep says match, so that the service's filtering is checked against
// the provider's own reading of every video.
func filteredLike(address string, wantCount int, keep func(listedVideo) bool) statecheck.StateCheck {
	return acctest.StateCheckFunc(func(s *tfjson.State) error {
		all, err := listedVideos(s, "data.videohost_videos.all")
		if err != nil {
			return err
		}
		got, err := listedVideos(s, address)
		if err != nil {
			return err
		}
		var want, have []string
		for _, v := range all {
			if keep(v) {
				want = append(want, v.id)
			}
		}
		for _, v := range got {
			have = append(have, v.id)
		}
		slices.Sort(want)
		slices.Sort(have)
		if !slices.Equal(want, have) {
			return fmt.Errorf("%s lists %d videos %v, want the %d of the full list that match: %v", address, len(have), have, len(want), want)
		}
		if len(have) != wantCount {
			return fmt.Errorf("%s lists %d videos, want %d", address, len(have), wantCount)
		}
		return nil
	})
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

// sortedBy checks that the list at address is ordered by key in the direction given.
func sortedBy(address string, key func(listedVideo) string, desc bool) statecheck.StateCheck {
	return acctest.StateCheckFunc(func(s *tfjson.State) error {
		got, err := listedVideos(s, address)
		if err != nil {
			return err
		}
		for i := 1; i < len(got); i++ {
			a, b := key(got[i-1]), key(got[i])
			if (!desc && a > b) || (desc && a < b) {
				return fmt.Errorf("%s is not in order at %d: %q then %q", address, i, a, b)
			}
		}
		return nil
	})
}

// listTopics and listCategories are what the videos of TestAccVideosDataSource carry, by their
// number i modulo 3: a tag and the metadata pair category.
var (
	listTopics     = []string{"demo", "tutorial", "news"}
	listCategories = []string{"sports", "music", "education"}
)

// createListedVideos makes n videos outside Terraform through the public API, titled
// env.Name("video-<i>") for i from 1: video i carries the tags listed and listTopics[i%3], and
// featured when i is a multiple of 4, the metadata category listCategories[i%3] and index i,
// and the description "Listed video number <i>.". They are deleted when the test ends.
func createListedVideos(t *testing.T, env *acctest.AccEnv, n int) {
	t.Helper()
	for i := 1; i <= n; i++ {
		tags := []string{"listed", listTopics[i%3]}
		if i%4 == 0 {
			tags = append(tags, "featured")
		}
		acctest.CreateVideoOutside(t, env, videohost.VideoCreate{
			Title:       env.Name(fmt.Sprintf("video-%d", i)),
			Description: fmt.Sprintf("Listed video number %d.", i),
			Tags:        tags,
			Metadata:    []videohost.Metadata{{Key: "category", Value: listCategories[i%3]}, {Key: "index", Value: fmt.Sprint(i)}},
		})
	}
}

// TestAccVideosDataSource lists the 12 videos the test makes through the public API, with each
// filter of videohost_videos beside the filter by their title (every title carries the run's
// prefix and the test's name, so that the lists are of the test's own videos in a workspace
// that others use at the same time), and checks each filter's result against the provider's
// own reading of the full list, and the two orders. In-process the emulator also holds 130 seed
// videos, more than a page, which every filter must leave out, and whose recordings of a live
// stream check the live_stream_id filter (no video can be recorded from a live stream through
// the public API).
func TestAccVideosDataSource(t *testing.T) {
	// Seed video i has the tags seed and demo, tutorial or news, metadata category and index i;
	// every fifth is a recording of one of 3 live streams.
	env := acctest.NewAccEnv(t, emulator.Options{SeedVideos: 130, SeedLiveStreams: 3})
	createListedVideos(t, env, 12)
	own := env.Name("video-")
	config := env.ProviderConfig("") + fmt.Sprintf(`
data "videohost_videos" "all" {
  title = %[1]s
}

data "videohost_videos" "title" {
  title = %[2]s
}
data "videohost_videos" "tags" {
  title = %[1]s
  tags  = ["featured", "news"]
}
data "videohost_videos" "metadata" {
  title    = %[1]s
  metadata = { category = "music" }
}
data "videohost_videos" "description" {
  title       = %[1]s
  description = "number 9."
}
data "videohost_videos" "by_title_desc" {
  title      = %[1]s
  sort_by    = "title"
  sort_order = "desc"
}
data "videohost_videos" "by_created_asc" {
  title      = %[1]s
  sort_by    = "createdAt"
  sort_order = "asc"
}
`, acctest.Hcl(own), acctest.Hcl(strings.ToUpper(env.Name("video-1"))))
	checks := []statecheck.StateCheck{
		statecheck.ExpectKnownValue("data.videohost_videos.all", tfjsonpath.New("videos"), knownvalue.ListSizeExact(12)),
		// The service matches a part of the title or description, whatever the case: video-1
		// and video-10 to video-12.
		filteredLike("data.videohost_videos.title", 4, func(v listedVideo) bool { return containsFold(v.title, env.Name("video-1")) }),
		filteredLike("data.videohost_videos.tags", 1, func(v listedVideo) bool {
			return slices.Contains(v.tags, "featured") && slices.Contains(v.tags, "news")
		}),
		filteredLike("data.videohost_videos.metadata", 4, func(v listedVideo) bool { return v.metadata["category"] == "music" }),
		filteredLike("data.videohost_videos.description", 1, func(v listedVideo) bool { return containsFold(v.description, "number 9.") }),
		filteredLike("data.videohost_videos.by_title_desc", 12, func(listedVideo) bool { return true }),
		sortedBy("data.videohost_videos.by_title_desc", func(v listedVideo) string { return v.title }, true),
		sortedBy("data.videohost_videos.by_created_asc", func(v listedVideo) string { return v.createdAt }, false),
	}
	if env.Emu != nil {
		// The seeds: 130 videos (two pages), of which every fifth is a recording of one of 3
		// live streams; the first live stream has 9.
		live := emulator.SeedLiveStreamID(1)
		config += fmt.Sprintf(`
data "videohost_videos" "seeds" {
  title = "seed video"
}
data "videohost_videos" "live" {
  live_stream_id = %s
}
`, acctest.Hcl(live))
		checks = append(checks,
			statecheck.ExpectKnownValue("data.videohost_videos.seeds", tfjsonpath.New("videos"), knownvalue.ListSizeExact(130)),
			acctest.StateCheckFunc(func(s *tfjson.State) error {
				got, err := listedVideos(s, "data.videohost_videos.live")
				if err != nil {
					return err
				}
				for _, v := range got {
					if v.liveStreamID != live {
						return fmt.Errorf("the live stream %s's list holds video %s of %q", live, v.id, v.liveStreamID)
					}
				}
				if len(got) != 9 {
					return fmt.Errorf("the live stream %s's list holds %d videos, want 9", live, len(got))
				}
				return nil
			}),
		)
	}
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      env.ProviderConfig("") + `data "videohost_videos" "bad" { sort_by = "name" }`,
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)sort_by.*title.*createdAt.*publishedAt.*updatedAt`),
			},
			{
				Config:      env.ProviderConfig("") + `data "videohost_videos" "bad" { sort_order = "up" }`,
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)sort_order.*asc.*desc`),
			},
			{
				Config:            config,
				ConfigStateChecks: checks,
			},
		},
	})
}
