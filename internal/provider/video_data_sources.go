package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

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

// NewVideoDataSource returns the videohost_video data source: one video, read by id.
func NewVideoDataSource() datasource.DataSource {
	return newObjectDataSource("_video", objectRead[videohost.Video]{
		description:   "Reads one video of the workspace by its id.",
		attributes:    videoDataAttributes,
		idDescription: "Identifier of the video to read (the service's `videoId`).",
		idWhat:        "a video (its videoId)", listedBy: "videohost_videos",
		idParam: "videoId", title: "Video",
		get: (*videohost.Client).GetVideo,
		state: func(_ context.Context, v videohost.Video) (any, diag.Diagnostics) {
			return videoModelFrom(v), nil
		},
	})
}

// videoDataAttributes are the computed attributes of a video.
func videoDataAttributes() map[string]schema.Attribute {
	str, boolean := computedString, computedBool
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
		"source": computedObject("Where the video came from; null when the service gives no source.", map[string]schema.Attribute{
			"uri":            str("Address of the source."),
			"type":           str("Kind of source, such as upload or a recorded live stream."),
			"live_stream_id": str("Identifier of the live stream the video was recorded from, when it was."),
		}),
		"assets": computedObject("Addresses of the video's outputs; null when the service gives none.",
			playerAssetsAttributes(map[string]schema.Attribute{"mp4": str("mp4 download.")})),
	}
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

// NewVideosDataSource returns the videohost_videos data source: the videos that match
// server-side filters.
func NewVideosDataSource() datasource.DataSource {
	return newListDataSource("_videos", listRead[videohost.Video, videosModel, videohost.VideoFilter]{
		description: "Lists the videos of the workspace that match the filters (every page); the service filters them.",
		filters: withSortFilters(map[string]schema.Attribute{
			"title": textFilter("Only the videos whose title contains this text. Unset: no filter; must not be empty."),
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
			"description":    textFilter("Only the videos whose description contains this text. Unset: no filter; must not be empty."),
			"live_stream_id": textFilter("Only the videos recorded from this live stream. Unset: no filter; must not be empty."),
		}, "title", "createdAt", "publishedAt", "updatedAt"),
		items: "videos", itemsDescription: "The matching videos.",
		itemAttributes: videoDataAttributes, elem: videoObjectType,
		title: "Videos", filterPaths: videoFilterPaths,
		filter: videoFilterFrom,
		list:   (*videohost.Client).ListVideos,
		object: func(_ context.Context, v videohost.Video) (types.Object, diag.Diagnostics) {
			return videoModelFrom(v).object()
		},
	})
}

// videoFilterPaths maps the query parameters of GET /videos to the filter attributes.
var videoFilterPaths = withSortFilterPaths(map[string]path.Path{
	"title":        path.Root("title"),
	"tags":         path.Root("tags"),
	"tags[]":       path.Root("tags"),
	"metadata":     path.Root("metadata"),
	"description":  path.Root("description"),
	"liveStreamId": path.Root("live_stream_id"),
})

// videoFilterFrom is the client's filter of the configuration's.
func videoFilterFrom(ctx context.Context, m videosModel) (videohost.VideoFilter, diag.Diagnostics) {
	f := videohost.VideoFilter{
		Title:        m.Title.ValueString(),
		Description:  m.Description.ValueString(),
		LiveStreamID: m.LiveStreamID.ValueString(),
		SortBy:       m.SortBy.ValueString(),
		SortOrder:    m.SortOrder.ValueString(),
	}
	var diags diag.Diagnostics
	if !m.Tags.IsNull() {
		diags.Append(m.Tags.ElementsAs(ctx, &f.Tags, false)...)
	}
	if !m.Metadata.IsNull() {
		diags.Append(m.Metadata.ElementsAs(ctx, &f.Metadata, false)...)
	}
	return f, diags
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
