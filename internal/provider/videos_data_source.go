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
	_ datasource.DataSource              = (*videosDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*videosDataSource)(nil)
)

// videosDataSource is videohost_videos: the videos that match server-side filters.
type videosDataSource struct {
	pd *providerData
}

type videosModel struct {
	Title        types.String `tfsdk:"title"`
	Tags         types.List   `tfsdk:"tags"`
	Metadata     types.Map    `tfsdk:"metadata"`
	Description  types.String `tfsdk:"description"`
	LiveStreamID types.String `tfsdk:"live_stream_id"`
	SortBy       types.String `tfsdk:"sort_by"`
	SortOrder    types.String `tfsdk:"sort_order"`
	Videos       types.List   `tfsdk:"videos"`
}

// videoFilterPaths maps the query parameters of GET /videos to the filter attributes.
var videoFilterPaths = map[string]path.Path{
	"title":        path.Root("title"),
	"tags":         path.Root("tags"),
	"tags[]":       path.Root("tags"),
	"metadata":     path.Root("metadata"),
	"description":  path.Root("description"),
	"liveStreamId": path.Root("live_stream_id"),
	"sortBy":       path.Root("sort_by"),
	"sortOrder":    path.Root("sort_order"),
}

// NewVideosDataSource returns the videohost_videos data source.
func NewVideosDataSource() datasource.DataSource { return &videosDataSource{} }

func (d *videosDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_videos"
}

func (d *videosDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the videos of the workspace that match the filters (every page); the service filters them.",
		Attributes: map[string]schema.Attribute{
			"title": schema.StringAttribute{
				MarkdownDescription: "Only the videos whose title contains this text. Unset: no filter; must not be empty.",
				Optional:            true,
				// An empty filter would be dropped, listing every video instead of the few meant.
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"tags": schema.ListAttribute{
				MarkdownDescription: "Only the videos that carry all of these tags. Unset: no filter.",
				Optional:            true,
				ElementType:         types.StringType,
			},
			"metadata": schema.MapAttribute{
				MarkdownDescription: "Only the videos whose metadata hold all of these key/value pairs. Unset: no filter.",
				Optional:            true,
				ElementType:         types.StringType,
			},
			"description": schema.StringAttribute{
				MarkdownDescription: "Only the videos whose description contains this text. Unset: no filter; must not be empty.",
				Optional:            true,
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"live_stream_id": schema.StringAttribute{
				MarkdownDescription: "Only the videos recorded from this live stream. Unset: no filter; must not be empty.",
				Optional:            true,
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"sort_by": schema.StringAttribute{
				MarkdownDescription: "Order of the list: `title`, `createdAt`, `publishedAt` or `updatedAt`. " +
					"Unset: the service's default order.",
				Optional:   true,
				Validators: []validator.String{stringvalidator.OneOf("title", "createdAt", "publishedAt", "updatedAt")},
			},
			"sort_order": schema.StringAttribute{
				MarkdownDescription: "Direction of the order: `asc` or `desc`. Unset: the service's default.",
				Optional:            true,
				Validators:          []validator.String{stringvalidator.OneOf("asc", "desc")},
			},
			"videos": schema.ListNestedAttribute{
				MarkdownDescription: "The matching videos.",
				Computed:            true,
				NestedObject:        schema.NestedAttributeObject{Attributes: videoDataAttributes()},
			},
		},
	}
}

func (d *videosDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.pd = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *videosDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !requireConfigured(d.pd, &resp.Diagnostics) {
		return
	}
	var cfg videosModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	f := videohost.VideoFilter{
		Title:        cfg.Title.ValueString(),
		Description:  cfg.Description.ValueString(),
		LiveStreamID: cfg.LiveStreamID.ValueString(),
		SortBy:       cfg.SortBy.ValueString(),
		SortOrder:    cfg.SortOrder.ValueString(),
	}
	if !cfg.Tags.IsNull() {
		resp.Diagnostics.Append(cfg.Tags.ElementsAs(ctx, &f.Tags, false)...)
	}
	if !cfg.Metadata.IsNull() {
		resp.Diagnostics.Append(cfg.Metadata.ElementsAs(ctx, &f.Metadata, false)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	list, err := d.pd.client.ListVideos(ctx, f)
	if err != nil {
		addAPIErrorDiagnostics(&resp.Diagnostics, "Unable to List Videos", err, d.pd, videoFilterPaths)
		return
	}
	var diags diag.Diagnostics
	cfg.Videos, diags = listValue(videoObjectType, list, func(v videohost.Video) (types.Object, diag.Diagnostics) {
		return videoModelFrom(v).object()
	})
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}

// The types of the elements of videos, from the schema (see list_values.go).
var (
	videoObjectType      = objectTypeOf(videoDataAttributes())
	videoSourceAttrTypes = attrTypesOf(videoObjectType.AttrTypes["source"])
	videoAssetsAttrTypes = attrTypesOf(videoObjectType.AttrTypes["assets"])
)

// object is the video as an element of the videos list.
func (m videoModel) object() (types.Object, diag.Diagnostics) {
	var diags diag.Diagnostics
	tags, d := stringList(m.Tags)
	diags.Append(d...)
	metadata := make(map[string]attr.Value, len(m.Metadata))
	for k, v := range m.Metadata {
		metadata[k] = types.StringValue(v)
	}
	metadataMap, d := types.MapValue(types.StringType, metadata)
	diags.Append(d...)

	source := types.ObjectNull(videoSourceAttrTypes)
	if s := m.Source; s != nil {
		source, d = types.ObjectValue(videoSourceAttrTypes, map[string]attr.Value{
			"uri": s.URI, "type": s.Type, "live_stream_id": s.LiveStreamID,
		})
		diags.Append(d...)
	}
	assets := types.ObjectNull(videoAssetsAttrTypes)
	if a := m.Assets; a != nil {
		assets, d = types.ObjectValue(videoAssetsAttrTypes, map[string]attr.Value{
			"hls": a.HLS, "iframe": a.IFrame, "player": a.Player, "thumbnail": a.Thumbnail, "mp4": a.MP4,
		})
		diags.Append(d...)
	}
	o, d := types.ObjectValue(videoObjectType.AttrTypes, map[string]attr.Value{
		"id": m.ID, "title": m.Title, "description": m.Description, "language": m.Language,
		"player_id": m.PlayerID, "created_at": m.CreatedAt, "published_at": m.PublishedAt,
		"updated_at": m.UpdatedAt, "discarded": m.Discarded, "public": m.Public,
		"panoramic": m.Panoramic, "mp4_support": m.MP4Support, "tags": tags,
		"metadata": metadataMap, "source": source, "assets": assets,
	})
	diags.Append(d...)
	return o, diags
}
