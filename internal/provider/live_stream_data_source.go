package provider

import (
	"context"
	"errors"
	"fmt"

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

// NewLiveStreamDataSource returns the videohost_live_stream data source.
func NewLiveStreamDataSource() datasource.DataSource {
	return &liveStreamDataSource{}
}

// liveStreamDataSource reads one live stream by id.
type liveStreamDataSource struct {
	pd *providerData
}

// liveStreamModel is one live stream, shared by videohost_live_stream and the items of
// videohost_live_streams.
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

// liveStreamAssetsModel holds the addresses of a live stream's outputs.
type liveStreamAssetsModel struct {
	HLS       types.String `tfsdk:"hls"`
	IFrame    types.String `tfsdk:"iframe"`
	Player    types.String `tfsdk:"player"`
	Thumbnail types.String `tfsdk:"thumbnail"`
}

// restreamModel is one restreaming destination.
type restreamModel struct {
	Name      types.String `tfsdk:"name"`
	ServerURL types.String `tfsdk:"server_url"`
	StreamKey types.String `tfsdk:"stream_key"`
}

// liveStreamFromAPI maps the client's live stream onto the Terraform model. Restreams is
// never null, so that an absent list and an empty list read the same in configurations.
func liveStreamFromAPI(ls videohost.LiveStream) liveStreamModel {
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
	if ls.Assets != nil {
		m.Assets = &liveStreamAssetsModel{
			HLS:       types.StringValue(ls.Assets.HLS),
			IFrame:    types.StringValue(ls.Assets.IFrame),
			Player:    types.StringValue(ls.Assets.Player),
			Thumbnail: types.StringValue(ls.Assets.Thumbnail),
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

// liveStreamAttributes are the attributes of one live stream, all computed; the single data
// source makes id required.
func liveStreamAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "The live stream's id (`liveStreamId`).",
		},
		"name": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "The live stream's name.",
		},
		"stream_key": schema.StringAttribute{
			Computed:  true,
			Sensitive: true,
			MarkdownDescription: "The key a broadcaster uses to push to the live stream. Sensitive: anyone " +
				"holding it can broadcast.",
		},
		"public": schema.BoolAttribute{
			Computed:            true,
			MarkdownDescription: "Whether the live stream is public (`false` means a private, tokenised stream).",
		},
		"player_id": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "The id of the player attached to the live stream; empty when none.",
		},
		"broadcasting": schema.BoolAttribute{
			Computed:            true,
			MarkdownDescription: "Whether the live stream is broadcasting when it is read.",
		},
		"created_at": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "When the live stream was created, in RFC 3339 format (UTC); null when the service does not say.",
		},
		"updated_at": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "When the live stream was last updated, in RFC 3339 format (UTC); null when the service does not say.",
		},
		"assets": schema.SingleNestedAttribute{
			Computed:            true,
			MarkdownDescription: "The addresses of the live stream's outputs; null when the service returns none.",
			Attributes: map[string]schema.Attribute{
				"hls": schema.StringAttribute{
					Computed:            true,
					MarkdownDescription: "The HLS manifest address.",
				},
				"iframe": schema.StringAttribute{
					Computed:            true,
					MarkdownDescription: "An HTML `<iframe>` element that embeds the player.",
				},
				"player": schema.StringAttribute{
					Computed:            true,
					MarkdownDescription: "The player page address.",
				},
				"thumbnail": schema.StringAttribute{
					Computed:            true,
					MarkdownDescription: "The thumbnail image address.",
				},
			},
		},
		"restreams": schema.ListNestedAttribute{
			Computed:            true,
			MarkdownDescription: "The destinations the live stream is restreamed to, in the service's order; empty when none.",
			NestedObject: schema.NestedAttributeObject{
				Attributes: map[string]schema.Attribute{
					"name": schema.StringAttribute{
						Computed:            true,
						MarkdownDescription: "The destination's name.",
					},
					"server_url": schema.StringAttribute{
						Computed:            true,
						MarkdownDescription: "The RTMP address of the destination.",
					},
					"stream_key": schema.StringAttribute{
						Computed:            true,
						Sensitive:           true,
						MarkdownDescription: "The stream key at the destination. Sensitive.",
					},
				},
			},
		},
	}
}

func (d *liveStreamDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_live_stream"
}

func (d *liveStreamDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := liveStreamAttributes()
	attrs["id"] = schema.StringAttribute{
		Required:            true,
		MarkdownDescription: "The id (`liveStreamId`) of the live stream to read. An id that does not exist is an error.",
		Validators:          serviceIDValidators("a live stream (its liveStreamId)", "videohost_live_streams"),
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one live stream by its id, with whether it is broadcasting when read; use it " +
			"to wire a live stream that another configuration manages (resource `videohost_live_stream`) into this one.",
		Attributes: attrs,
	}
}

func (d *liveStreamDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.pd = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *liveStreamDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var id types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("id"), &id)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !requireConfigured(d.pd, &resp.Diagnostics) {
		return
	}
	ls, err := d.pd.client.GetLiveStream(ctx, id.ValueString())
	if errors.Is(err, videohost.ErrNotFound) {
		detail := fmt.Sprintf("No live stream with the id %q exists in the %s environment (%s). Check the id "+
			"(liveStreamId) and that the provider's api_key and environment are those of the account "+
			"that owns the live stream; the videohost_live_streams data source lists them.",
			id.ValueString(), d.pd.environment, d.pd.baseURL)
		if apiErr, ok := errors.AsType[*videohost.Error](err); ok {
			detail += apiWords(apiErr)
		}
		resp.Diagnostics.AddAttributeError(path.Root("id"), "Live Stream Not Found", detail)
		return
	}
	if err != nil {
		addAPIErrorDiagnostics(&resp.Diagnostics, "Unable to Read Live Stream", err, d.pd,
			map[string]path.Path{"liveStreamId": path.Root("id")})
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, liveStreamFromAPI(ls))...)
}
