package videosummary

import (
	"context"

	"github.com/videohost/terraform-provider-videohost/internal/sweep"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// Sweeper lists the summaries and deletes those make sweep selects: those a run's ledger holds (a summary of a swept video goes with it).
func Sweeper() sweep.Sweeper {
	return sweep.Sweeper{
		Name: "videohost_video_summary", Kind: "summary",
		List: func(ctx context.Context, c *videohost.Client) ([]sweep.Object, error) {
			items, err := c.ListSummaries(ctx, videohost.SummaryFilter{})
			return sweep.Objects("summary", items, err, func(o videohost.Summary) (string, string) { return o.ID, "of video " + o.VideoID })
		},
		Delete: (*videohost.Client).DeleteSummary,
	}
}
