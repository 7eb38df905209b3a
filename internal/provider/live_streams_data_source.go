package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

var (
	_ datasource.DataSource              = (*liveStreamsDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*liveStreamsDataSource)(nil)
)

// NewLiveStreamsDataSource returns the videohost_live_streams data source.
func NewLiveStreamsDataSource() datasource.DataSource {
	return &liveStreamsDataSource{}
}

// liveStreamsDataSource lists the live streams that match server-side filters, every page.
type liveStreamsDataSource struct {
	pd *providerData
}

// liveStreamsModel is the configuration and result of videohost_live_streams.
type liveStreamsModel struct {
	Name        types.String      `tfsdk:"name"`
	SortBy      types.String      `tfsdk:"sort_by"`
	SortOrder   types.String      `tfsdk:"sort_order"`
	LiveStreams []liveStreamModel `tfsdk:"live_streams"`
}

func (d *liveStreamsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_live_streams"
}

func (d *liveStreamsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the live streams of the account that match the filters, across every page of " +
			"the service's answer. Filtering and sorting happen on the service.",
		Attributes: map[string]schema.Attribute{
			"name": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Only live streams that match this name; the service does the matching " +
					"(it may match a part of the name, ignoring case). No filter when unset; must not be empty.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"sort_by": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "The field to sort by: `name`, `createdAt` or `updatedAt`. The service's own " +
					"order when unset.",
				Validators: []validator.String{stringvalidator.OneOf("name", "createdAt", "updatedAt")},
			},
			"sort_order": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "The sort direction: `asc` or `desc`. The service's default when unset.",
				Validators:          []validator.String{stringvalidator.OneOf("asc", "desc")},
			},
			"live_streams": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The matching live streams, in the service's order; empty when none match.",
				NestedObject: schema.NestedAttributeObject{
					Attributes: liveStreamAttributes(),
				},
			},
		},
	}
}

func (d *liveStreamsDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.pd = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *liveStreamsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m liveStreamsModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !requireConfigured(d.pd, &resp.Diagnostics) {
		return
	}
	list, err := d.pd.client.ListLiveStreams(ctx, videohost.LiveStreamFilter{
		Name:      m.Name.ValueString(),
		SortBy:    m.SortBy.ValueString(),
		SortOrder: m.SortOrder.ValueString(),
	})
	if err != nil {
		addAPIErrorDiagnostics(&resp.Diagnostics, "Unable to List Live Streams", err, d.pd, map[string]path.Path{
			"name":      path.Root("name"),
			"sortBy":    path.Root("sort_by"),
			"sortOrder": path.Root("sort_order"),
		})
		return
	}
	m.LiveStreams = make([]liveStreamModel, 0, len(list))
	for _, ls := range list {
		m.LiveStreams = append(m.LiveStreams, liveStreamFromAPI(ls))
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}
