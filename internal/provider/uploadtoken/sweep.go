package uploadtoken

import (
	"context"

	"github.com/videohost/terraform-provider-videohost/internal/sweep"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// Sweeper lists the upload tokens and deletes those make sweep selects: a token has no name, so those a run's ledger holds.
func Sweeper() sweep.Sweeper {
	return sweep.Sweeper{
		Name: "videohost_upload_token", Kind: "upload token",
		List: func(ctx context.Context, c *videohost.Client) ([]sweep.Object, error) {
			items, err := c.ListUploadTokens(ctx, videohost.UploadTokenFilter{})
			return sweep.Objects("upload token", items, err, func(o videohost.UploadToken) (string, string) { return o.Token, "" })
		},
		Delete: (*videohost.Client).DeleteUploadToken,
	}
}
