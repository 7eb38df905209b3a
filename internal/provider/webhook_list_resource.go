package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

var (
	_ list.ListResource              = (*webhookListResource)(nil)
	_ list.ListResourceWithConfigure = (*webhookListResource)(nil)
)

// webhookListResource is the list resource videohost_webhook: terraform query (Terraform 1.14
// and later) finds the webhooks of the workspace with it, and -generate-config-out writes the
// resource and import blocks that adopt them.
type webhookListResource struct {
	pd *providerData
}

type webhookListModel struct {
	Event types.String `tfsdk:"event"`
}

// webhookListing turns the webhooks of the service's list into list results. The list items
// carry every attribute of the resource, signature_secret included, so include_resource costs
// no request per webhook.
var webhookListing = listing[videohost.Webhook]{
	what:        "webhooks",
	id:          func(w videohost.Webhook) string { return w.ID },
	displayName: webhookDisplayName,
	model: func(ctx context.Context, w videohost.Webhook) (any, diag.Diagnostics) {
		return webhookModelFrom(ctx, w, types.StringNull())
	},
	errorSummary: "Unable to List Webhooks",
	attrs:        map[string]path.Path{"events": path.Root("event")},
}

// NewWebhookListResource returns the videohost_webhook list resource.
func NewWebhookListResource() list.ListResource { return &webhookListResource{} }

func (l *webhookListResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_webhook"
}

func (l *webhookListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Lists the webhooks of the workspace for `terraform query`, optionally only those " +
			"subscribed to one event. Each result is a webhook's identity (`id`) and a display name of its url and " +
			"events; with `include_resource = true`, also every attribute of the resource, `signature_secret` " +
			"included. Terraform 1.14 and later.",
		Attributes: map[string]listschema.Attribute{
			"event": listschema.StringAttribute{
				MarkdownDescription: "Only the webhooks subscribed to this event, one of: " + eventNamesMarkdown() +
					". Unset lists every webhook.",
				Optional:   true,
				Validators: []validator.String{eventNameValidator()},
			},
		},
	}
}

func (l *webhookListResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	l.pd = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (l *webhookListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var diags diag.Diagnostics
	if !requireConfigured(l.pd, &diags) {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	var cfg webhookListModel
	diags.Append(req.Config.Get(ctx, &cfg)...)
	if diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	stream.Results = webhookListing.results(ctx, req, l.pd, l.pd.client.WalkWebhooks(ctx, cfg.Event.ValueString()))
}

// webhookDisplayName is the url of a webhook and its events, the two things its owner knows
// it by.
func webhookDisplayName(w videohost.Webhook) string {
	return w.URL + " (" + strings.Join(w.Events, ", ") + ")"
}
