package emulator

import (
	"fmt"
	"strconv"
	"time"
)

// Seed records are deterministic: the same counts give the same ids, titles, tags, metadata and
// links whatever the run. Their times are one second apart and end at the emulator's start, so
// that sorting by createdAt follows the numbering and none lies in the future.
var (
	seedTopics     = []string{"demo", "tutorial", "news"}
	seedCategories = []string{"sports", "music", "education"}
)

// SeedVideoID is the id of the i-th seed video (1-based): vi0000000001, vi0000000002, ...
func SeedVideoID(i int) string { return fmt.Sprintf("vi%010d", i) }

// SeedLiveStreamID is the id of the i-th seed live stream (1-based): li0000000001, ...
func SeedLiveStreamID(i int) string { return fmt.Sprintf("li%010d", i) }

// seed creates nVideos videos and nLive live streams:
//   - live stream i is "Seed live stream i", public, not broadcasting; even ones have one
//     restream;
//   - video i is "Seed video i" with tags "seed" and one of demo, tutorial, news (by i mod 3)
//     and "featured" when i is a multiple of 4; metadata category (sports, music, education by
//     i mod 3) and index i; every fifth video is the recording of a seed live stream (when
//     there are any) with source.liveStream set.
func (e *Emulator) seed(nVideos, nLive int) {
	start := e.now().UTC().Truncate(time.Second)
	e.mu.Lock()
	defer e.mu.Unlock()
	for i := 1; i <= nLive; i++ {
		at := start.Add(time.Duration(i-nLive) * time.Second)
		l := &liveStream{
			ID:        SeedLiveStreamID(i),
			Name:      fmt.Sprintf("Seed live stream %d", i),
			StreamKey: fmt.Sprintf("00000000-0000-4000-8000-%012d", i),
			Public:    true,
			CreatedAt: at,
			UpdatedAt: at,
		}
		if i%2 == 0 {
			l.Restreams = []Restream{{
				Name:      "Seed restream",
				ServerURL: "rtmp://restream.videohost.invalid/live",
				StreamKey: fmt.Sprintf("seed-restream-key-%d", i),
			}}
		}
		e.st.LiveStreams = append(e.st.LiveStreams, l)
	}
	for i := 1; i <= nVideos; i++ {
		at := start.Add(time.Duration(i-nVideos) * time.Second)
		tags := []string{"seed", seedTopics[i%len(seedTopics)]}
		if i%4 == 0 {
			tags = append(tags, "featured")
		}
		v := &video{
			ID:          SeedVideoID(i),
			Title:       fmt.Sprintf("Seed video %d", i),
			Description: fmt.Sprintf("Seed video number %d.", i),
			Language:    "en",
			CreatedAt:   at,
			PublishedAt: at,
			UpdatedAt:   at,
			videoProperties: videoProperties{
				Public: true, MP4Support: true, Tags: tags,
				Metadata: []Metadatum{
					{Key: "category", Value: seedCategories[i%len(seedCategories)]},
					{Key: "index", Value: strconv.Itoa(i)},
				},
			},
			SourceType: sourceUpload,
			Duration:   10,
			ExpiresAt:  e.sandboxExpiry(at),
			videoMedia: encodedMedia(sourceQualities),
		}
		if i%5 == 0 && nLive > 0 {
			v.SourceType = sourceLive
			v.LiveStreamID = SeedLiveStreamID((i/5-1)%nLive + 1)
		}
		e.st.Videos = append(e.st.Videos, v)
	}
}

// Values of a video's source.type: an upload, or the recording of a live stream.
const (
	sourceUpload = "upload"
	sourceLive   = "live"
)
