package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
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
	Event    types.String   `tfsdk:"event"`
	Webhooks []webhookModel `tfsdk:"webhooks"`
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
	cfg.Webhooks = make([]webhookModel, 0, len(list))
	for _, w := range list {
		m, diags := webhookModelFrom(ctx, w, types.StringNull())
		resp.Diagnostics.Append(diags...)
		cfg.Webhooks = append(cfg.Webhooks, m)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}
