package webhook

// A webhook in the state: the model that the webhook resource, its data sources and its list
// resource share.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// WebhookModel is a webhook in the state: of the webhook resource, and of the webhook and
// webhooks data sources.
type WebhookModel struct {
	ID              types.String `tfsdk:"id"`
	URL             types.String `tfsdk:"url"`
	Events          types.Set    `tfsdk:"events"`
	CreatedAt       types.String `tfsdk:"created_at"`
	SignatureSecret types.String `tfsdk:"signature_secret"`
}

// WebhookModelFrom maps a webhook of the service to the state. priorSecret is kept when the
// service's answer carries no secret.
func WebhookModelFrom(ctx context.Context, w videohost.Webhook, priorSecret types.String) (WebhookModel, diag.Diagnostics) {
	evs, diags := types.SetValueFrom(ctx, types.StringType, w.Events)
	m := WebhookModel{
		ID:              types.StringValue(w.ID),
		URL:             types.StringValue(w.URL),
		Events:          evs,
		CreatedAt:       framework.TimeString(&w.CreatedAt),
		SignatureSecret: priorSecret,
	}
	if w.SignatureSecret != "" {
		m.SignatureSecret = types.StringValue(w.SignatureSecret)
	}
	return m, diags
}

// webhookDataAttributes are the computed attributes of a webhook, shared by the webhook and
// webhooks data sources.
func webhookDataAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id":  framework.ComputedString("Identifier of the webhook (the service's `webhookId`)."),
		"url": framework.ComputedString("Address that receives the notifications."),
		"events": schema.SetAttribute{
			MarkdownDescription: "Event names the webhook subscribes to.",
			Computed:            true,
			ElementType:         types.StringType,
		},
		"created_at":       framework.ComputedString("Creation time of the webhook, RFC 3339."),
		"signature_secret": framework.ComputedSecret("Secret that signs the notifications (HMAC-SHA256 of the body, lowercase hex). Sensitive."),
	}
}

// WebhookObjectType is the type of the elements of webhooks, from the schema (see
// list_values.go).
var WebhookObjectType = framework.ObjectTypeOf(webhookDataAttributes())

// Object is the webhook as an element of the webhooks list.
func (m WebhookModel) Object() (types.Object, diag.Diagnostics) {
	return types.ObjectValue(WebhookObjectType.AttrTypes, map[string]attr.Value{
		"id": m.ID, "url": m.URL, "events": m.Events, "created_at": m.CreatedAt, "signature_secret": m.SignatureSecret,
	})
}
