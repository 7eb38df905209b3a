package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
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
	_ datasource.DataSource              = (*liveStreamsDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*liveStreamsDataSource)(nil)
)

// liveStreamsDataSource is videohost_live_streams: the live streams that match server-side
// filters.
type liveStreamsDataSource struct {
	pd *providerData
}

type liveStreamsModel struct {
	Name        types.String `tfsdk:"name"`
	SortBy      types.String `tfsdk:"sort_by"`
	SortOrder   types.String `tfsdk:"sort_order"`
	LiveStreams types.List   `tfsdk:"live_streams"`
}

// liveStreamFilterPaths maps the query parameters of GET /live-streams to the filter attributes.
var liveStreamFilterPaths = map[string]path.Path{
	"name":      path.Root("name"),
	"sortBy":    path.Root("sort_by"),
	"sortOrder": path.Root("sort_order"),
}

// NewLiveStreamsDataSource returns the videohost_live_streams data source.
func NewLiveStreamsDataSource() datasource.DataSource { return &liveStreamsDataSource{} }

func (d *liveStreamsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_live_streams"
}

func (d *liveStreamsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the live streams of the workspace that match the filters (every page); the service filters and sorts them.",
		Attributes: map[string]schema.Attribute{
			"name": schema.StringAttribute{
				MarkdownDescription: "Only the live streams whose name matches this text (the service matches it, " +
					"possibly a part of the name, ignoring case). Unset: no filter; must not be empty.",
				Optional:   true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"sort_by": schema.StringAttribute{
				MarkdownDescription: "Order of the list: `name`, `createdAt` or `updatedAt`. Unset: the service's default order.",
				Optional:            true,
				Validators:          []validator.String{stringvalidator.OneOf("name", "createdAt", "updatedAt")},
			},
			"sort_order": schema.StringAttribute{
				MarkdownDescription: "Direction of the order: `asc` or `desc`. Unset: the service's default.",
				Optional:            true,
				Validators:          []validator.String{stringvalidator.OneOf("asc", "desc")},
			},
			"live_streams": schema.ListNestedAttribute{
				MarkdownDescription: "The matching live streams, in the service's order; empty when none match.",
				Computed:            true,
				NestedObject:        schema.NestedAttributeObject{Attributes: liveStreamDataAttributes()},
			},
		},
	}
}

func (d *liveStreamsDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.pd = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *liveStreamsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !requireConfigured(d.pd, &resp.Diagnostics) {
		return
	}
	var cfg liveStreamsModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	list, err := d.pd.client.ListLiveStreams(ctx, videohost.LiveStreamFilter{
		Name:      cfg.Name.ValueString(),
		SortBy:    cfg.SortBy.ValueString(),
		SortOrder: cfg.SortOrder.ValueString(),
	})
	if err != nil {
		addAPIErrorDiagnostics(&resp.Diagnostics, "Unable to List Live Streams", err, d.pd, liveStreamFilterPaths)
		return
	}
	var diags diag.Diagnostics
	cfg.LiveStreams, diags = listValue(liveStreamObjectType, list, func(ls videohost.LiveStream) (types.Object, diag.Diagnostics) {
		return liveStreamModelFrom(ls).object()
	})
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}

// The types of the elements of live_streams, from the schema (see list_values.go).
var (
	liveStreamObjectType      = objectTypeOf(liveStreamDataAttributes())
	liveStreamAssetsAttrTypes = attrTypesOf(liveStreamObjectType.AttrTypes["assets"])
	restreamObjectType        = types.ObjectType{AttrTypes: attrTypesOf(liveStreamObjectType.AttrTypes["restreams"])}
)

// object is the live stream as an element of the live_streams list.
func (m liveStreamModel) object() (types.Object, diag.Diagnostics) {
	var diags diag.Diagnostics
	assets := types.ObjectNull(liveStreamAssetsAttrTypes)
	if a := m.Assets; a != nil {
		var d diag.Diagnostics
		assets, d = types.ObjectValue(liveStreamAssetsAttrTypes, map[string]attr.Value{
			"hls": a.HLS, "iframe": a.IFrame, "player": a.Player, "thumbnail": a.Thumbnail,
		})
		diags.Append(d...)
	}
	restreams, d := listValue(restreamObjectType, m.Restreams, func(r restreamModel) (types.Object, diag.Diagnostics) {
		return types.ObjectValue(restreamObjectType.AttrTypes, map[string]attr.Value{
			"name": r.Name, "server_url": r.ServerURL, "stream_key": r.StreamKey,
		})
	})
	diags.Append(d...)
	o, d := types.ObjectValue(liveStreamObjectType.AttrTypes, map[string]attr.Value{
		"id": m.ID, "name": m.Name, "stream_key": m.StreamKey, "public": m.Public, "player_id": m.PlayerID,
		"broadcasting": m.Broadcasting, "created_at": m.CreatedAt, "updated_at": m.UpdatedAt,
		"assets": assets, "restreams": restreams,
	})
	diags.Append(d...)
	return o, diags
}
