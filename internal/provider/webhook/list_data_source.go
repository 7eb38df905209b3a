package webhook

// The videohost_webhooks data source: the webhooks that its filters select.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

type WebhooksModel struct {
	Event    types.String `tfsdk:"event"`
	Webhooks types.List   `tfsdk:"webhooks"`
}

// NewWebhooksDataSource returns the videohost_webhooks data source: every webhook of the
// workspace, optionally those subscribed to one event.
func NewWebhooksDataSource() datasource.DataSource {
	return framework.NewListDataSource("_webhooks", framework.ListRead[videohost.Webhook, WebhooksModel, string]{
		Description: "Lists the webhooks of the workspace (every page), optionally only those subscribed to one event.",
		Filters: map[string]schema.Attribute{
			"event": schema.StringAttribute{
				MarkdownDescription: eventFilterDescription, Optional: true,
				Validators: []validator.String{framework.EventNameValidator()},
			},
		},
		Items: "webhooks", ItemsDescription: "The webhooks, in the service's order.",
		ItemAttributes: webhookDataAttributes,
		Title:          "Webhooks",
		FilterPaths:    map[string]path.Path{"events": path.Root("event")},
		Filter: func(_ context.Context, m WebhooksModel) (string, diag.Diagnostics) {
			return m.Event.ValueString(), nil
		},
		List: (*videohost.Client).ListWebhooks,
		Object: func(ctx context.Context, w videohost.Webhook) (types.Object, diag.Diagnostics) {
			m, diags := WebhookModelFrom(ctx, w, types.StringNull())
			if diags.HasError() {
				return types.ObjectNull(WebhookObjectType.AttrTypes), diags
			}
			return m.Object()
		},
	})
}
