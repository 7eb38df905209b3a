package provider

// The videohost_webhook data source: one webhook, read by its id.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// NewWebhookDataSource returns the videohost_webhook data source: one webhook, read by id.
func NewWebhookDataSource() datasource.DataSource {
	return newObjectDataSource("_webhook", objectRead[videohost.Webhook]{
		description:   "Reads one webhook of the workspace by its id, including its signature secret.",
		attributes:    webhookDataAttributes,
		idDescription: "Identifier of the webhook to read (the service's `webhookId`).",
		idWhat:        "a webhook (its webhookId)", listedBy: "videohost_webhooks",
		idParam: "webhookId", title: "Webhook",
		get: (*videohost.Client).LookupWebhook,
		state: func(ctx context.Context, w videohost.Webhook) (any, diag.Diagnostics) {
			return webhookModelFrom(ctx, w, types.StringNull())
		},
	})
}
