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

var (
	_ datasource.DataSource              = (*webhooksDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*webhooksDataSource)(nil)
)

// webhooksDataSource is videohost_webhooks: every webhook of the workspace, optionally those
// subscribed to one event.
type webhooksDataSource struct {
	pd *providerData
}

type webhooksModel struct {
	Event    types.String `tfsdk:"event"`
	Webhooks types.List   `tfsdk:"webhooks"`
}

// NewWebhooksDataSource returns the videohost_webhooks data source.
func NewWebhooksDataSource() datasource.DataSource { return &webhooksDataSource{} }

func (d *webhooksDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_webhooks"
}

func (d *webhooksDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the webhooks of the workspace (every page), optionally only those subscribed to one event.",
		Attributes: map[string]schema.Attribute{
			"event": schema.StringAttribute{
				MarkdownDescription: "Only the webhooks subscribed to this event, one of: " + eventNamesMarkdown() +
					". Unset lists every webhook.",
				Optional:   true,
				Validators: []validator.String{eventNameValidator()},
			},
			"webhooks": schema.ListNestedAttribute{
				MarkdownDescription: "The webhooks, in the service's order.",
				Computed:            true,
				NestedObject:        schema.NestedAttributeObject{Attributes: webhookDataAttributes()},
			},
		},
	}
}

func (d *webhooksDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.pd = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *webhooksDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !requireConfigured(d.pd, &resp.Diagnostics) {
		return
	}
	var cfg webhooksModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	list, err := d.pd.client.ListWebhooks(ctx, cfg.Event.ValueString())
	if err != nil {
		addAPIErrorDiagnostics(&resp.Diagnostics, "Unable to List Webhooks", err, d.pd,
			map[string]path.Path{"events": path.Root("event")})
		return
	}
	var diags diag.Diagnostics
	cfg.Webhooks, diags = listValue(webhookObjectType, list, func(w videohost.Webhook) (types.Object, diag.Diagnostics) {
		m, diags := webhookModelFrom(ctx, w, types.StringNull())
		if diags.HasError() {
			return types.ObjectNull(webhookObjectType.AttrTypes), diags
		}
		return m.object()
	})
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
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
