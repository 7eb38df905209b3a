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

func TestAccVideosDataSource(t *testing.T) {
	// 130 seed videos: more than one page. Video i has the tags seed and demo, tutorial or news
	// (i mod 3), featured when i is a multiple of 4, metadata category (sports, music,
	// education by i mod 3) and index i; every fifth is a recording of one of 3 live streams.
	env := acctest.NewAccEnv(t, emulator.Options{SeedVideos: 130, SeedLiveStreams: 3})
	env.RequireEmulator(t)
	live := emulator.SeedLiveStreamID(1)
	config := env.ProviderConfig("") + fmt.Sprintf(`
data "videohost_videos" "all" {}

data "videohost_videos" "title" {
  title = "seed VIDEO 7"
}
data "videohost_videos" "tags" {
  tags = ["featured", "news"]
}
data "videohost_videos" "metadata" {
  metadata = { category = "music" }
}
data "videohost_videos" "description" {
  description = "number 9."
}
data "videohost_videos" "live" {
  live_stream_id = %s
}
data "videohost_videos" "by_title_desc" {
  sort_by    = "title"
  sort_order = "desc"
}
data "videohost_videos" "by_created_asc" {
  sort_by    = "createdAt"
  sort_order = "asc"
}
`, acctest.Hcl(live))
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
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.videohost_videos.all", tfjsonpath.New("videos"), knownvalue.ListSizeExact(130)),
					// The service matches a part of the title or description, whatever the case.
					filteredLike("data.videohost_videos.title", 11, func(v listedVideo) bool { return containsFold(v.title, "seed VIDEO 7") }),
					filteredLike("data.videohost_videos.tags", 11, func(v listedVideo) bool {
						return slices.Contains(v.tags, "featured") && slices.Contains(v.tags, "news")
					}),
					filteredLike("data.videohost_videos.metadata", 44, func(v listedVideo) bool { return v.metadata["category"] == "music" }),
					filteredLike("data.videohost_videos.description", 1, func(v listedVideo) bool { return containsFold(v.description, "number 9.") }),
					filteredLike("data.videohost_videos.live", 9, func(v listedVideo) bool { return v.liveStreamID == live }),
					filteredLike("data.videohost_videos.by_title_desc", 130, func(listedVideo) bool { return true }),
					sortedBy("data.videohost_videos.by_title_desc", func(v listedVideo) string { return v.title }, true),
					sortedBy("data.videohost_videos.by_created_asc", func(v listedVideo) string { return v.createdAt }, false),
				},
			},
		},
	})
}
