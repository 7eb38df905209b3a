package video

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// VideoResourceModel is the state of videohost_video. The service shows none of source_*,
// clip, watermark, transcript, transcript_summary, transcript_summary_attributes,
// thumbnail_timecode and wait_for: those keep what the configuration gave.
type VideoResourceModel struct {
	ID                 types.String   `tfsdk:"id"`
	Title              types.String   `tfsdk:"title"`
	Description        types.String   `tfsdk:"description"`
	Public             types.Bool     `tfsdk:"public"`
	Panoramic          types.Bool     `tfsdk:"panoramic"`
	MP4Support         types.Bool     `tfsdk:"mp4_support"`
	PlayerID           types.String   `tfsdk:"player_id"`
	Tags               StringSetValue `tfsdk:"tags"`
	Metadata           types.Map      `tfsdk:"metadata"`
	TagsAll            types.Set      `tfsdk:"tags_all"`
	MetadataAll        types.Map      `tfsdk:"metadata_all"`
	Language           types.String   `tfsdk:"language"`
	Transcript         types.Bool     `tfsdk:"transcript"`
	TranscriptSummary  types.Bool     `tfsdk:"transcript_summary"`
	SummaryAttributes  types.Set      `tfsdk:"transcript_summary_attributes"`
	ThumbnailTimecode  types.String   `tfsdk:"thumbnail_timecode"`
	ThumbnailFile      types.String   `tfsdk:"thumbnail_file"`
	ThumbnailSHA256    types.String   `tfsdk:"thumbnail_sha256"`
	SourceFile         types.String   `tfsdk:"source_file"`
	SourceURL          types.String   `tfsdk:"source_url"`
	SourceVideoID      types.String   `tfsdk:"source_video_id"`
	SourceSHA256       types.String   `tfsdk:"source_sha256"`
	SourceBytesMissing types.Int64    `tfsdk:"source_bytes_missing"`
	Clip               types.Object   `tfsdk:"clip"`
	Watermark          types.Object   `tfsdk:"watermark"`
	WaitFor            types.String   `tfsdk:"wait_for"`
	Timeouts           timeouts.Value `tfsdk:"timeouts"`
	CreatedAt          types.String   `tfsdk:"created_at"`
	UpdatedAt          types.String   `tfsdk:"updated_at"`
	PublishedAt        types.String   `tfsdk:"published_at"`
	Assets             types.Object   `tfsdk:"assets"`
	Playable           types.Bool     `tfsdk:"playable"`
}

// The attribute types of the resource's objects.
var (
	videoClipAttrTypes = map[string]attr.Type{"start_timecode": types.StringType, "end_timecode": types.StringType}
	// videoWatermarkPositions are the watermark's attributes besides id, with the service's names.
	videoWatermarkPositions = []struct{ attr, wire string }{
		{"top", "top"}, {"left", "left"}, {"bottom", "bottom"}, {"right", "right"},
		{"width", "width"}, {"height", "height"}, {"opacity", "opacity"},
	}
	videoWatermarkAttrTypes = func() map[string]attr.Type {
		m := map[string]attr.Type{"id": types.StringType}
		for _, p := range videoWatermarkPositions {
			m[p.attr] = types.StringType
		}
		return m
	}()
	VideoResourceAssetsTypes = framework.AttrTypesOf(videoAssetsAttribute().GetType())
)

// EmptyVideoModel is the state of a video that Terraform knows only by its id (an import, or a
// list result): what only the configuration gives is at its default or null.
func EmptyVideoModel() VideoResourceModel {
	return VideoResourceModel{
		ThumbnailTimecode:  types.StringNull(),
		SourceFile:         types.StringNull(),
		SourceURL:          types.StringNull(),
		SourceVideoID:      types.StringNull(),
		SourceSHA256:       types.StringNull(),
		SourceBytesMissing: types.Int64Null(),
		Clip:               types.ObjectNull(videoClipAttrTypes),
		Watermark:          types.ObjectNull(videoWatermarkAttrTypes),
		Transcript:         types.BoolValue(false),
		TranscriptSummary:  types.BoolValue(false),
		SummaryAttributes:  types.SetNull(types.StringType),
		WaitFor:            types.StringValue(waitUploaded),
		Timeouts:           timeouts.Value{Object: types.ObjectNull(videoTimeoutsAttrTypes)},
		Playable:           types.BoolNull(),
		Tags:               StringSetValue{SetValue: types.SetNull(types.StringType)},
		Metadata:           types.MapNull(types.StringType),
		TagsAll:            types.SetNull(types.StringType),
		MetadataAll:        types.MapNull(types.StringType),
	}
}

// setFromVideo sets what the service shows of a video, keeping the rest of m; l are the
// provider's default labels and ignore rules, managed the tags and keys that the configuration
// sets (see setLabelsFromVideo).
func (m *VideoResourceModel) setFromVideo(ctx context.Context, v videohost.Video, l framework.DefaultLabels,
	managed framework.ManagedLabels,
) diag.Diagnostics {
	var diags diag.Diagnostics
	var d diag.Diagnostics
	m.ID = types.StringValue(v.ID)
	m.Title = types.StringValue(v.Title)
	m.Description = types.StringValue(v.Description)
	m.Public = types.BoolValue(v.Public)
	m.Panoramic = types.BoolValue(v.Panoramic)
	m.MP4Support = types.BoolValue(v.MP4Support)
	m.PlayerID = framework.OptionalString(v.PlayerID)
	m.Language = framework.OptionalString(v.Language)
	m.CreatedAt = framework.TimeString(v.CreatedAt)
	m.UpdatedAt = framework.TimeString(v.UpdatedAt)
	m.PublishedAt = framework.TimeString(v.PublishedAt)
	diags.Append(m.setLabelsFromVideo(ctx, v, l, managed)...)
	m.Assets = types.ObjectNull(VideoResourceAssetsTypes)
	if a := v.Assets; a != nil {
		m.Assets, d = types.ObjectValue(VideoResourceAssetsTypes, map[string]attr.Value{
			"hls": framework.OptionalString(a.HLS), "iframe": framework.OptionalString(a.IFrame), "player": framework.OptionalString(a.Player),
			"thumbnail": framework.OptionalString(a.Thumbnail), "mp4": framework.OptionalString(a.MP4),
		})
		diags.Append(d...)
	}
	return diags
}

// videoModelForList is the state of a listed video, for terraform query's include_resource.
func videoModelForList(ctx context.Context, v videohost.Video) (any, diag.Diagnostics) {
	m := EmptyVideoModel()
	diags := m.setFromVideo(ctx, v, framework.DefaultLabels{}, framework.ManagedLabels{})
	return m, diags
}

// nullUnknowns sets to null the computed values that a write could not learn (a read that
// failed after it), since a state holds no unknown value.
func (m *VideoResourceModel) nullUnknowns() {
	for _, s := range []*types.String{&m.ID, &m.Language, &m.CreatedAt, &m.UpdatedAt, &m.PublishedAt, &m.SourceSHA256} {
		if s.IsUnknown() {
			*s = types.StringNull()
		}
	}
	if m.SourceBytesMissing.IsUnknown() {
		m.SourceBytesMissing = types.Int64Null()
	}
	if m.Playable.IsUnknown() {
		m.Playable = types.BoolNull()
	}
	if m.Assets.IsUnknown() {
		m.Assets = types.ObjectNull(VideoResourceAssetsTypes)
	}
	if m.TagsAll.IsUnknown() {
		m.TagsAll = types.SetNull(types.StringType)
	}
	if m.MetadataAll.IsUnknown() {
		m.MetadataAll = types.MapNull(types.StringType)
	}
	m.keepPlayableWhole()
}

// keepPlayableWhole holds the state to what the service guarantees: a video is playable only
// once its whole source arrived, so a playable video lacks no byte, whatever count an earlier
// write or state recorded.
func (m *VideoResourceModel) keepPlayableWhole() {
	if m.Playable.ValueBool() {
		m.SourceBytesMissing = types.Int64Value(0)
	}
}

// VideoModel is a video in the state, shared by the video and videos data sources.
type VideoModel struct {
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
	Source      *VideoSourceModel `tfsdk:"source"`
	Assets      *VideoAssetsModel `tfsdk:"assets"`
}

type VideoSourceModel struct {
	URI          types.String `tfsdk:"uri"`
	Type         types.String `tfsdk:"type"`
	LiveStreamID types.String `tfsdk:"live_stream_id"`
}

type VideoAssetsModel struct {
	HLS       types.String `tfsdk:"hls"`
	IFrame    types.String `tfsdk:"iframe"`
	Player    types.String `tfsdk:"player"`
	Thumbnail types.String `tfsdk:"thumbnail"`
	MP4       types.String `tfsdk:"mp4"`
}

// videoDataAttributes are the computed attributes of a video.
func videoDataAttributes() map[string]schema.Attribute {
	str, boolean := framework.ComputedString, framework.ComputedBool
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
			MarkdownDescription: "Metadata of the video, key to value; empty when it has none. A key that the " +
				"service holds with different values maps to the JSON array of its values.",
			Computed:    true,
			ElementType: types.StringType,
		},
		"source": framework.ComputedObject("Where the video came from; null when the service gives no source.", map[string]schema.Attribute{
			"uri":            str("Address of the source."),
			"type":           str("Kind of source, such as upload or a recorded live stream."),
			"live_stream_id": str("Identifier of the live stream the video was recorded from, when it was."),
		}),
		"assets": framework.ComputedObject("Addresses of the video's outputs; null when the service gives none.",
			framework.PlayerAssetsAttributes(true)),
	}
}

// VideoModelFrom maps a video of the service to the state.
func VideoModelFrom(v videohost.Video) VideoModel {
	m := VideoModel{
		ID:          types.StringValue(v.ID),
		Title:       types.StringValue(v.Title),
		Description: types.StringValue(v.Description),
		Language:    types.StringValue(v.Language),
		PlayerID:    types.StringValue(v.PlayerID),
		CreatedAt:   framework.TimeString(v.CreatedAt),
		PublishedAt: framework.TimeString(v.PublishedAt),
		UpdatedAt:   framework.TimeString(v.UpdatedAt),
		Discarded:   types.BoolValue(v.Discarded),
		Public:      types.BoolValue(v.Public),
		Panoramic:   types.BoolValue(v.Panoramic),
		MP4Support:  types.BoolValue(v.MP4Support),
		Tags:        append([]string{}, v.Tags...),
		Metadata:    metadataMap(v.Metadata),
	}
	if s := v.Source; s != nil {
		m.Source = &VideoSourceModel{
			URI:          types.StringValue(s.URI),
			Type:         types.StringValue(s.Type),
			LiveStreamID: types.StringNull(),
		}
		if s.LiveStream != nil && s.LiveStream.LiveStreamID != "" {
			m.Source.LiveStreamID = types.StringValue(s.LiveStream.LiveStreamID)
		}
	}
	if a := v.Assets; a != nil {
		m.Assets = &VideoAssetsModel{
			HLS:       types.StringValue(a.HLS),
			IFrame:    types.StringValue(a.IFrame),
			Player:    types.StringValue(a.Player),
			Thumbnail: types.StringValue(a.Thumbnail),
			MP4:       types.StringValue(a.MP4),
		}
	}
	return m
}

// The types of the elements of videos, from the schema (see list_values.go).
var (
	VideoObjectType      = framework.ObjectTypeOf(videoDataAttributes())
	videoSourceAttrTypes = framework.AttrTypesOf(VideoObjectType.AttrTypes["source"])
	videoAssetsAttrTypes = framework.AttrTypesOf(VideoObjectType.AttrTypes["assets"])
)

// Object is the video as an element of the videos list.
func (m VideoModel) Object() (types.Object, diag.Diagnostics) {
	var diags diag.Diagnostics
	tags, d := framework.StringList(m.Tags)
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
	o, d := types.ObjectValue(VideoObjectType.AttrTypes, map[string]attr.Value{
		"id": m.ID, "title": m.Title, "description": m.Description, "language": m.Language,
		"player_id": m.PlayerID, "created_at": m.CreatedAt, "published_at": m.PublishedAt,
		"updated_at": m.UpdatedAt, "discarded": m.Discarded, "public": m.Public,
		"panoramic": m.Panoramic, "mp4_support": m.MP4Support, "tags": tags,
		"metadata": metadataMap, "source": source, "assets": assets,
	})
	diags.Append(d...)
	return o, diags
}

// sourceUnsettled reports whether the state does not know that the service holds the whole
// source file: bytes are missing, or how many is not known.
func (m *VideoResourceModel) sourceUnsettled() bool {
	return !m.SourceFile.IsNull() && (m.SourceBytesMissing.IsNull() || m.SourceBytesMissing.IsUnknown() ||
		m.SourceBytesMissing.ValueInt64() > 0)
}

// setFromStatus records what a status that the service returned says: whether the video is
// playable and, for a source file, how many of its bytes the service lacks. It is where the
// missing count is taken from a status; a status with no size (no byte arrived yet) leaves the
// count as it was.
func (m *VideoResourceModel) setFromStatus(st videohost.VideoStatus) {
	m.Playable = types.BoolValue(st.Encoding.Playable)
	if missing := missingFromStatus(st); !m.SourceFile.IsNull() && !missing.IsNull() {
		m.SourceBytesMissing = missing
	}
}

// missingFromStatus is how many bytes of a source the status says are missing: 0 once it is
// complete, null when no size is known yet (no byte arrived).
func missingFromStatus(st videohost.VideoStatus) types.Int64 {
	switch {
	case st.Complete():
		return types.Int64Value(0)
	case st.Ingest == nil || st.Ingest.Filesize == nil:
		return types.Int64Null()
	}
	size := *st.Ingest.Filesize
	return types.Int64Value(size - st.Received(size))
}
