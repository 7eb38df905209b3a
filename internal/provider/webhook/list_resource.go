package webhook

// The videohost_webhook list resource: the webhooks that terraform query finds.

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

var _ list.ListResourceWithConfigure = (*framework.ListResource[videohost.Webhook, webhookListModel, string])(nil)

type webhookListModel struct {
	Event types.String `tfsdk:"event"`
}

// NewWebhookListResource returns the videohost_webhook list resource. The list items carry
// every attribute of the resource, signature_secret included, so include_resource costs no
// request per webhook.
func NewWebhookListResource() list.ListResource {
	return framework.NewListResource("_webhook", framework.Listing[videohost.Webhook, webhookListModel, string]{
		Description: "Lists the webhooks of the workspace for `terraform query`, optionally only those " +
			"subscribed to one event. Each result is a webhook's identity (`id`) and a display name of its url and " +
			"events; with `include_resource = true`, also every attribute of the resource, `signature_secret` " +
			"included. Terraform 1.14 and later.",
		Filters: map[string]listschema.Attribute{
			"event": listschema.StringAttribute{
				MarkdownDescription: eventFilterDescription, Optional: true,
				Validators: []validator.String{framework.EventNameValidator()},
			},
		},
		Filter:      func(m webhookListModel) string { return m.Event.ValueString() },
		Walk:        (*videohost.Client).WalkWebhooks,
		What:        "webhooks",
		Id:          func(w videohost.Webhook) string { return w.ID },
		DisplayName: webhookDisplayName,
		Model: func(ctx context.Context, w videohost.Webhook) (any, diag.Diagnostics) {
			return WebhookModelFrom(ctx, w, types.StringNull())
		},
		ErrorSummary: "Unable to List Webhooks",
		Attrs:        map[string]path.Path{"events": path.Root("event")},
	})
}

// webhookDisplayName is the url of a webhook and its events, the two things its owner knows
// it by.
func webhookDisplayName(w videohost.Webhook) string {
	return w.URL + " (" + strings.Join(w.Events, ", ") + ")"
}
