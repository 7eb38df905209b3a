package webhook

import (
	"context"

	"github.com/videohost/terraform-provider-videohost/internal/sweep"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// Sweeper lists the webhooks and deletes those make sweep selects (their URL's path carries the tests' prefix).
func Sweeper() sweep.Sweeper {
	return sweep.Sweeper{
		Name: "videohost_webhook", Kind: "webhook",
		List: func(ctx context.Context, c *videohost.Client) ([]sweep.Object, error) {
			items, err := c.ListWebhooks(ctx, "")
			return sweep.Objects("webhook", items, err, func(o videohost.Webhook) (string, string) { return o.ID, o.URL })
		},
		Delete: (*videohost.Client).DeleteWebhook,
	}
}
