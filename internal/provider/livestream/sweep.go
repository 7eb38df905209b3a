package livestream

import (
	"context"

	"github.com/videohost/terraform-provider-videohost/internal/sweep"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// Sweeper lists the live streams and deletes those make sweep selects (their name carries the tests' prefix).
func Sweeper() sweep.Sweeper {
	return sweep.Sweeper{
		Name: "videohost_live_stream", Kind: "live stream",
		List: func(ctx context.Context, c *videohost.Client) ([]sweep.Object, error) {
			items, err := c.ListLiveStreams(ctx, videohost.LiveStreamFilter{})
			return sweep.Objects("live stream", items, err, func(o videohost.LiveStream) (string, string) { return o.ID, o.Name })
		},
		Delete: (*videohost.Client).DeleteLiveStream,
	}
}
