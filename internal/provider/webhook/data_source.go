package webhook

// The videohost_webhook data source: one webhook, read by its id.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// NewWebhookDataSource returns the videohost_webhook data source: one webhook, read by id.
func NewWebhookDataSource() datasource.DataSource {
	return framework.NewObjectDataSource("_webhook", framework.ObjectRead[videohost.Webhook]{
		Description:   "Reads one webhook of the workspace by its id, including its signature secret.",
		Attributes:    webhookDataAttributes,
		IdDescription: "Identifier of the webhook to read (the service's `webhookId`).",
		IdWhat:        "a webhook (its webhookId)", ListedBy: "videohost_webhooks",
		IdParam: "webhookId", Title: "Webhook",
		Get: (*videohost.Client).LookupWebhook,
		State: func(ctx context.Context, w videohost.Webhook) (any, diag.Diagnostics) {
			return WebhookModelFrom(ctx, w, types.StringNull())
		},
	})
}
