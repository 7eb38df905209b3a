package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
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

// webhookDataAttributes are the computed attributes of a webhook, shared by the webhook and
// webhooks data sources.
func webhookDataAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id":  computedString("Identifier of the webhook (the service's `webhookId`)."),
		"url": computedString("Address that receives the notifications."),
		"events": schema.SetAttribute{
			MarkdownDescription: "Event names the webhook subscribes to.",
			Computed:            true,
			ElementType:         types.StringType,
		},
		"created_at":       computedString("Creation time of the webhook, RFC 3339."),
		"signature_secret": computedSecret("Secret that signs the notifications (HMAC-SHA256 of the body, lowercase hex). Sensitive."),
	}
}

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
				MarkdownDescription: "Only the webhooks subscribed to this event, one of: " + eventNamesMarkdown() +
					". Unset lists every webhook.",
				Optional:   true,
				Validators: []validator.String{eventNameValidator()},
			},
		},
		items: "webhooks", itemsDescription: "The webhooks, in the service's order.",
		itemAttributes: webhookDataAttributes, elem: webhookObjectType,
		title:       "Webhooks",
		filterPaths: map[string]path.Path{"events": path.Root("event")},
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

// webhookObjectType is the type of the elements of webhooks, from the schema (see
// list_values.go).
var webhookObjectType = objectTypeOf(webhookDataAttributes())

// object is the webhook as an element of the webhooks list.
func (m webhookModel) object() (types.Object, diag.Diagnostics) {
	return types.ObjectValue(webhookObjectType.AttrTypes, map[string]attr.Value{
		"id": m.ID, "url": m.URL, "events": m.Events, "created_at": m.CreatedAt, "signature_secret": m.SignatureSecret,
	})
}
