package watermark

import (
	"context"

	"github.com/videohost/terraform-provider-videohost/internal/sweep"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// Sweeper lists the watermarks and deletes those make sweep selects: a watermark has no name, so those a run's ledger holds.
func Sweeper() sweep.Sweeper {
	return sweep.Sweeper{
		Name: "videohost_watermark", Kind: "watermark",
		List: func(ctx context.Context, c *videohost.Client) ([]sweep.Object, error) {
			items, err := c.ListWatermarks(ctx, videohost.WatermarkFilter{})
			return sweep.Objects("watermark", items, err, func(o videohost.Watermark) (string, string) { return o.ID, "" })
		},
		Delete: (*videohost.Client).DeleteWatermark,
	}
}
