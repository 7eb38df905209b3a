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
	_ datasource.DataSource              = (*videoDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*videoDataSource)(nil)
)

// videoDataSource is videohost_video: one video, read by id.
type videoDataSource struct {
	pd *providerData
}

// videoModel is a video in the state, shared by the video and videos data sources.
type videoModel struct {
	ID          types.String      `tfsdk:"id"`
	Title       types.String      `tfsdk:"title"`
	Description types.String      `tfsdk:"description"`
	Language    types.String      `tfsdk:"language"`
	PlayerID    types.String      `tfsdk:"player_id"`
	CreatedAt   types.String      `tfsdk:"created_at"`
	PublishedAt types.String      `tfsdk:"published_at"`
	UpdatedAt   types.String      `tfsdk:"updated_at"`
	Discarded   types.Bool        `tfsdk:"discarded"`
	Public      types.Bool        `tfsdk:"public"`
	Panoramic   types.Bool        `tfsdk:"panoramic"`
	MP4Support  types.Bool        `tfsdk:"mp4_support"`
	Tags        []string          `tfsdk:"tags"`
	Metadata    map[string]string `tfsdk:"metadata"`
	Source      *videoSourceModel `tfsdk:"source"`
	Assets      *videoAssetsModel `tfsdk:"assets"`
}

type videoSourceModel struct {
	URI          types.String `tfsdk:"uri"`
	Type         types.String `tfsdk:"type"`
	LiveStreamID types.String `tfsdk:"live_stream_id"`
}

type videoAssetsModel struct {
	HLS       types.String `tfsdk:"hls"`
	IFrame    types.String `tfsdk:"iframe"`
	Player    types.String `tfsdk:"player"`
	Thumbnail types.String `tfsdk:"thumbnail"`
	MP4       types.String `tfsdk:"mp4"`
}

// NewVideoDataSource returns the videohost_video data source.
func NewVideoDataSource() datasource.DataSource { return &videoDataSource{} }

func (d *videoDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_video"
}

func (d *videoDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := videoDataAttributes()
	attrs["id"] = schema.StringAttribute{
		MarkdownDescription: "Identifier of the video to read (the service's `videoId`).",
		Required:            true,
		Validators:          serviceIDValidators("a video (its videoId)", "videohost_videos"),
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one video of the workspace by its id.",
		Attributes:          attrs,
	}
}

// videoDataAttributes are the computed attributes of a video.
func videoDataAttributes() map[string]schema.Attribute {
	str := func(d string) schema.Attribute {
		return schema.StringAttribute{MarkdownDescription: d, Computed: true}
	}
	boolean := func(d string) schema.Attribute {
		return schema.BoolAttribute{MarkdownDescription: d, Computed: true}
	}
	return map[string]schema.Attribute{
		"id":           str("Identifier of the video (the service's `videoId`)."),
		"title":        str("Title of the video."),
		"description":  str("Description of the video."),
		"language":     str("Language of the video (IETF language tag)."),
		"player_id":    str("Identifier of the player the video uses."),
		"created_at":   str("Creation time, RFC 3339; null when the service gives none."),
		"published_at": str("Publication time, RFC 3339; null when the service gives none."),
		"updated_at":   str("Time of the last change, RFC 3339; null when the service gives none."),
		"discarded":    boolean("Whether the video was discarded."),
		"public":       boolean("Whether the video is public."),
		"panoramic":    boolean("Whether the video is a 360° video."),
		"mp4_support":  boolean("Whether an mp4 of the video can be downloaded."),
		"tags": schema.ListAttribute{
			MarkdownDescription: "Tags of the video; empty when it has none.",
			Computed:            true,
			ElementType:         types.StringType,
		},
		"metadata": schema.MapAttribute{
			MarkdownDescription: "Metadata of the video, key to value; empty when it has none.",
			Computed:            true,
			ElementType:         types.StringType,
		},
		"source": schema.SingleNestedAttribute{
			MarkdownDescription: "Where the video came from; null when the service gives no source.",
			Computed:            true,
			Attributes: map[string]schema.Attribute{
				"uri":            str("Address of the source."),
				"type":           str("Kind of source, such as upload or a recorded live stream."),
				"live_stream_id": str("Identifier of the live stream the video was recorded from, when it was."),
			},
		},
		"assets": schema.SingleNestedAttribute{
			MarkdownDescription: "Addresses of the video's outputs; null when the service gives none.",
			Computed:            true,
			Attributes: map[string]schema.Attribute{
				"hls":       str("HLS manifest."),
				"iframe":    str("HTML iframe that embeds the player."),
				"player":    str("Page of the player."),
				"thumbnail": str("Thumbnail image."),
				"mp4":       str("mp4 download."),
			},
		},
	}
}

func (d *videoDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.pd = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *videoDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !requireConfigured(d.pd, &resp.Diagnostics) {
		return
	}
	var cfg videoModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	v, err := d.pd.client.GetVideo(ctx, cfg.ID.ValueString())
	if err != nil {
		addAPIErrorDiagnostics(&resp.Diagnostics, "Unable to Read Video", err, d.pd,
			map[string]path.Path{"videoId": path.Root("id")})
		return
	}
	state := videoModelFrom(v)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// videoModelFrom maps a video of the service to the state.
func videoModelFrom(v videohost.Video) videoModel {
	m := videoModel{
		ID:          types.StringValue(v.ID),
		Title:       types.StringValue(v.Title),
		Description: types.StringValue(v.Description),
		Language:    types.StringValue(v.Language),
		PlayerID:    types.StringValue(v.PlayerID),
		CreatedAt:   timeString(v.CreatedAt),
		PublishedAt: timeString(v.PublishedAt),
		UpdatedAt:   timeString(v.UpdatedAt),
		Discarded:   types.BoolValue(v.Discarded),
		Public:      types.BoolValue(v.Public),
		Panoramic:   types.BoolValue(v.Panoramic),
		MP4Support:  types.BoolValue(v.MP4Support),
		Tags:        append([]string{}, v.Tags...),
		Metadata:    make(map[string]string, len(v.Metadata)),
	}
	for _, kv := range v.Metadata {
		m.Metadata[kv.Key] = kv.Value
	}
	if s := v.Source; s != nil {
		m.Source = &videoSourceModel{
			URI:          types.StringValue(s.URI),
			Type:         types.StringValue(s.Type),
			LiveStreamID: types.StringNull(),
		}
		if s.LiveStream != nil && s.LiveStream.LiveStreamID != "" {
			m.Source.LiveStreamID = types.StringValue(s.LiveStream.LiveStreamID)
		}
	}
	if a := v.Assets; a != nil {
		m.Assets = &videoAssetsModel{
			HLS:       types.StringValue(a.HLS),
			IFrame:    types.StringValue(a.IFrame),
			Player:    types.StringValue(a.Player),
			Thumbnail: types.StringValue(a.Thumbnail),
			MP4:       types.StringValue(a.MP4),
		}
	}
	return m
}
