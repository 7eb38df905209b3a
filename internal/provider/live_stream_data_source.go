package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

var (
	_ datasource.DataSource              = (*liveStreamDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*liveStreamDataSource)(nil)
)

// liveStreamDataSource is videohost_live_stream: one live stream, read by id.
type liveStreamDataSource struct {
	pd *providerData
}

// liveStreamModel is a live stream in the state, shared by the live stream and live streams
// data sources.
type liveStreamModel struct {
	ID           types.String           `tfsdk:"id"`
	Name         types.String           `tfsdk:"name"`
	StreamKey    types.String           `tfsdk:"stream_key"`
	Public       types.Bool             `tfsdk:"public"`
	PlayerID     types.String           `tfsdk:"player_id"`
	Broadcasting types.Bool             `tfsdk:"broadcasting"`
	CreatedAt    types.String           `tfsdk:"created_at"`
	UpdatedAt    types.String           `tfsdk:"updated_at"`
	Assets       *liveStreamAssetsModel `tfsdk:"assets"`
	Restreams    []restreamModel        `tfsdk:"restreams"`
}

type liveStreamAssetsModel struct {
	HLS       types.String `tfsdk:"hls"`
	IFrame    types.String `tfsdk:"iframe"`
	Player    types.String `tfsdk:"player"`
	Thumbnail types.String `tfsdk:"thumbnail"`
}

type restreamModel struct {
	Name      types.String `tfsdk:"name"`
	ServerURL types.String `tfsdk:"server_url"`
	StreamKey types.String `tfsdk:"stream_key"`
}

// NewLiveStreamDataSource returns the videohost_live_stream data source.
func NewLiveStreamDataSource() datasource.DataSource { return &liveStreamDataSource{} }

func (d *liveStreamDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_live_stream"
}

func (d *liveStreamDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := liveStreamDataAttributes()
	attrs["id"] = schema.StringAttribute{
		MarkdownDescription: "Identifier of the live stream to read (the service's `liveStreamId`).",
		Required:            true,
		Validators:          serviceIDValidators("a live stream (its liveStreamId)", "videohost_live_streams"),
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one live stream of the workspace by its id, including its stream keys.",
		Attributes:          attrs,
	}
}

// liveStreamDataAttributes are the computed attributes of a live stream.
func liveStreamDataAttributes() map[string]schema.Attribute {
	str := func(d string) schema.Attribute {
		return schema.StringAttribute{MarkdownDescription: d, Computed: true}
	}
	boolean := func(d string) schema.Attribute {
		return schema.BoolAttribute{MarkdownDescription: d, Computed: true}
	}
	secret := func(d string) schema.Attribute {
		return schema.StringAttribute{MarkdownDescription: d, Computed: true, Sensitive: true}
	}
	return map[string]schema.Attribute{
		"id":   str("Identifier of the live stream (the service's `liveStreamId`)."),
		"name": str("Name of the live stream."),
		"stream_key": secret("Key a broadcaster uses to push to the live stream. Sensitive: anyone holding it " +
			"can broadcast."),
		"public":       boolean("Whether the live stream is public (`false`: a private, tokenised stream)."),
		"player_id":    str("Identifier of the player the live stream uses; empty when none."),
		"broadcasting": boolean("Whether the live stream was broadcasting when it was read."),
		"created_at":   str("Creation time, RFC 3339; null when the service gives none."),
		"updated_at":   str("Time of the last change, RFC 3339; null when the service gives none."),
		"assets": schema.SingleNestedAttribute{
			MarkdownDescription: "Addresses of the live stream's outputs; null when the service gives none.",
			Computed:            true,
			Attributes: map[string]schema.Attribute{
				"hls":       str("HLS manifest."),
				"iframe":    str("HTML iframe that embeds the player."),
				"player":    str("Page of the player."),
				"thumbnail": str("Thumbnail image."),
			},
		},
		"restreams": schema.ListNestedAttribute{
			MarkdownDescription: "Destinations the live stream is restreamed to, in the service's order; empty when none.",
			Computed:            true,
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"name":       str("Name of the destination."),
				"server_url": str("RTMP address of the destination."),
				"stream_key": secret("Stream key at the destination. Sensitive."),
			}},
		},
	}
}

func (d *liveStreamDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.pd = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *liveStreamDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !requireConfigured(d.pd, &resp.Diagnostics) {
		return
	}
	var cfg liveStreamModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ls, err := d.pd.client.GetLiveStream(ctx, cfg.ID.ValueString())
	if err != nil {
		addAPIErrorDiagnostics(&resp.Diagnostics, "Unable to Read Live Stream", err, d.pd,
			map[string]path.Path{"liveStreamId": path.Root("id")})
		return
	}
	state := liveStreamModelFrom(ls)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// liveStreamModelFrom maps a live stream of the service to the state. Restreams is never null,
// so that an absent list and an empty one read the same in configurations.
func liveStreamModelFrom(ls videohost.LiveStream) liveStreamModel {
	m := liveStreamModel{
		ID:           types.StringValue(ls.ID),
		Name:         types.StringValue(ls.Name),
		StreamKey:    types.StringValue(ls.StreamKey),
		Public:       types.BoolValue(ls.Public),
		PlayerID:     types.StringValue(ls.PlayerID),
		Broadcasting: types.BoolValue(ls.Broadcasting),
		CreatedAt:    timeString(ls.CreatedAt),
		UpdatedAt:    timeString(ls.UpdatedAt),
		Restreams:    make([]restreamModel, 0, len(ls.Restreams)),
	}
	if a := ls.Assets; a != nil {
		m.Assets = &liveStreamAssetsModel{
			HLS:       types.StringValue(a.HLS),
			IFrame:    types.StringValue(a.IFrame),
			Player:    types.StringValue(a.Player),
			Thumbnail: types.StringValue(a.Thumbnail),
		}
	}
	for _, rs := range ls.Restreams {
		m.Restreams = append(m.Restreams, restreamModel{
			Name:      types.StringValue(rs.Name),
			ServerURL: types.StringValue(rs.ServerURL),
			StreamKey: types.StringValue(rs.StreamKey),
		})
	}
	return m
}
