package video

import (
	"context"

	"github.com/videohost/terraform-provider-videohost/internal/sweep"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// Sweeper lists the videos and deletes those make sweep selects (their title carries the tests' prefix).
func Sweeper() sweep.Sweeper {
	return sweep.Sweeper{
		Name: "videohost_video", Kind: "video",
		// A summary goes with its video; its own sweeper runs first so that it is counted.
		Dependencies: []string{"videohost_video_summary"},
		List: func(ctx context.Context, c *videohost.Client) ([]sweep.Object, error) {
			items, err := c.ListVideos(ctx, videohost.VideoFilter{})
			return sweep.Objects("video", items, err, func(o videohost.Video) (string, string) { return o.ID, o.Title })
		},
		Delete: (*videohost.Client).DeleteVideo,
	}
}
