package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var (
	_ datasource.DataSource              = (*webhookDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*webhookDataSource)(nil)
)

// webhookDataSource is videohost_webhook: one webhook, read by id.
type webhookDataSource struct {
	pd *providerData
}

// NewWebhookDataSource returns the videohost_webhook data source.
func NewWebhookDataSource() datasource.DataSource { return &webhookDataSource{} }

func (d *webhookDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_webhook"
}

func (d *webhookDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := webhookDataAttributes()
	attrs["id"] = schema.StringAttribute{
		MarkdownDescription: "Identifier of the webhook to read (the service's `webhookId`).",
		Required:            true,
		Validators:          serviceIDValidators("a webhook (its webhookId)", "videohost_webhooks"),
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one webhook of the workspace by its id, including its signature secret.",
		Attributes:          attrs,
	}
}

// webhookDataAttributes are the computed attributes of a webhook, shared by the webhook and
// webhooks data sources.
func webhookDataAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id": schema.StringAttribute{
			MarkdownDescription: "Identifier of the webhook (the service's `webhookId`).",
			Computed:            true,
		},
		"url": schema.StringAttribute{
			MarkdownDescription: "Address that receives the notifications.",
			Computed:            true,
		},
		"events": schema.SetAttribute{
			MarkdownDescription: "Event names the webhook subscribes to.",
			Computed:            true,
			ElementType:         types.StringType,
		},
		"created_at": schema.StringAttribute{
			MarkdownDescription: "Creation time of the webhook, RFC 3339.",
			Computed:            true,
		},
		"signature_secret": schema.StringAttribute{
			MarkdownDescription: "Secret that signs the notifications (HMAC-SHA256 of the body, lowercase hex). Sensitive.",
			Computed:            true,
			Sensitive:           true,
		},
	}
}

func (d *webhookDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.pd = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *webhookDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !requireConfigured(d.pd, &resp.Diagnostics) {
		return
	}
	var cfg webhookModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	w, err := d.pd.client.LookupWebhook(ctx, cfg.ID.ValueString())
	if err != nil {
		addAPIErrorDiagnostics(&resp.Diagnostics, "Unable to Read Webhook", err, d.pd,
			map[string]path.Path{"webhookId": path.Root("id")})
		return
	}
	state, diags := webhookModelFrom(ctx, w, types.StringNull())
	resp.Diagnostics.Append(diags...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}
