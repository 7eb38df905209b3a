package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// videoResourceModel is the state of videohost_video. The service shows none of source_*,
// clip, watermark, transcript, transcript_summary, thumbnail_timecode and wait_for: those keep
// what the configuration gave.
type videoResourceModel struct {
	ID                 types.String   `tfsdk:"id"`
	Title              types.String   `tfsdk:"title"`
	Description        types.String   `tfsdk:"description"`
	Public             types.Bool     `tfsdk:"public"`
	Panoramic          types.Bool     `tfsdk:"panoramic"`
	MP4Support         types.Bool     `tfsdk:"mp4_support"`
	PlayerID           types.String   `tfsdk:"player_id"`
	Tags               types.Set      `tfsdk:"tags"`
	Metadata           types.Map      `tfsdk:"metadata"`
	Language           types.String   `tfsdk:"language"`
	Transcript         types.Bool     `tfsdk:"transcript"`
	TranscriptSummary  types.Bool     `tfsdk:"transcript_summary"`
	ThumbnailTimecode  types.String   `tfsdk:"thumbnail_timecode"`
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
	videoResourceAssetsTypes = map[string]attr.Type{
		"hls": types.StringType, "iframe": types.StringType, "player": types.StringType,
		"thumbnail": types.StringType, "mp4": types.StringType,
	}
)

// emptyVideoModel is the state of a video that Terraform knows only by its id (an import, or a
// list result): what only the configuration gives is at its default or null.
func emptyVideoModel() videoResourceModel {
	return videoResourceModel{
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
		WaitFor:            types.StringValue(waitUploaded),
		Timeouts:           timeouts.Value{Object: types.ObjectNull(videoTimeoutsAttrTypes)},
		Playable:           types.BoolNull(),
	}
}

// setFromVideo sets what the service shows of a video, keeping the rest of m.
func (m *videoResourceModel) setFromVideo(ctx context.Context, v videohost.Video) diag.Diagnostics {
	var diags diag.Diagnostics
	m.ID = types.StringValue(v.ID)
	m.Title = types.StringValue(v.Title)
	m.Description = types.StringValue(v.Description)
	m.Public = types.BoolValue(v.Public)
	m.Panoramic = types.BoolValue(v.Panoramic)
	m.MP4Support = types.BoolValue(v.MP4Support)
	m.PlayerID = optionalString(v.PlayerID)
	m.Language = optionalString(v.Language)
	m.CreatedAt = timeString(v.CreatedAt)
	m.UpdatedAt = timeString(v.UpdatedAt)
	m.PublishedAt = timeString(v.PublishedAt)
	tags := v.Tags
	if tags == nil {
		tags = []string{}
	}
	var d diag.Diagnostics
	m.Tags, d = types.SetValueFrom(ctx, types.StringType, tags)
	diags.Append(d...)
	md := make(map[string]string, len(v.Metadata))
	for _, kv := range v.Metadata {
		md[kv.Key] = kv.Value
	}
	m.Metadata, d = types.MapValueFrom(ctx, types.StringType, md)
	diags.Append(d...)
	m.Assets = types.ObjectNull(videoResourceAssetsTypes)
	if a := v.Assets; a != nil {
		m.Assets, d = types.ObjectValue(videoResourceAssetsTypes, map[string]attr.Value{
			"hls": optionalString(a.HLS), "iframe": optionalString(a.IFrame), "player": optionalString(a.Player),
			"thumbnail": optionalString(a.Thumbnail), "mp4": optionalString(a.MP4),
		})
		diags.Append(d...)
	}
	return diags
}

// optionalString is s, or null when the service gives it empty.
func optionalString(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// videoModelForList is the state of a listed video, for terraform query's include_resource.
func videoModelForList(ctx context.Context, v videohost.Video) (any, diag.Diagnostics) {
	m := emptyVideoModel()
	diags := m.setFromVideo(ctx, v)
	return m, diags
}

// nullUnknowns sets to null the computed values that a write could not learn (a read that
// failed after it), since a state holds no unknown value.
func (m *videoResourceModel) nullUnknowns() {
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
		m.Assets = types.ObjectNull(videoResourceAssetsTypes)
	}
}
