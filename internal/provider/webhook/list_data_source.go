package provider

// The videohost_webhooks data source: the webhooks that its filters select.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

type webhooksModel struct {
	Event    types.String `tfsdk:"event"`
	Webhooks types.List   `tfsdk:"webhooks"`
}

// NewWebhooksDataSource returns the videohost_webhooks data source: every webhook of the
// workspace, optionally those subscribed to one event.
func NewWebhooksDataSource() datasource.DataSource {
	return newListDataSource("_webhooks", listRead[videohost.Webhook, webhooksModel, string]{
		description: "Lists the webhooks of the workspace (every page), optionally only those subscribed to one event.",
		filters: map[string]schema.Attribute{
			"event": schema.StringAttribute{
				MarkdownDescription: eventFilterDescription, Optional: true,
				Validators: []validator.String{eventNameValidator()},
			},
		},
		items: "webhooks", itemsDescription: "The webhooks, in the service's order.",
		itemAttributes: webhookDataAttributes,
		title:          "Webhooks",
		filterPaths:    map[string]path.Path{"events": path.Root("event")},
		filter: func(_ context.Context, m webhooksModel) (string, diag.Diagnostics) {
			return m.Event.ValueString(), nil
		},
		list: (*videohost.Client).ListWebhooks,
		object: func(ctx context.Context, w videohost.Webhook) (types.Object, diag.Diagnostics) {
			m, diags := webhookModelFrom(ctx, w, types.StringNull())
			if diags.HasError() {
				return types.ObjectNull(webhookObjectType.AttrTypes), diags
			}
			return m.object()
		},
	})
}
