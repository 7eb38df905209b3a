package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// The videos list is built value by value rather than through the framework's reflection of
// videoModel: reflection compiles a regular expression for every field of every item, which
// for 10,000 videos was most of the provider's time and allocations. The object's types come
// from the schema, and TestVideoObjectMatchesReflection keeps the values equal to what
// reflection gives.
var (
	videoAttrTypes  = attrTypesOf(schema.NestedAttributeObject{Attributes: videoDataAttributes()}.Type())
	videoObjectType = types.ObjectType{AttrTypes: videoAttrTypes}
	sourceAttrTypes = attrTypesOf(videoAttrTypes["source"])
	assetsAttrTypes = attrTypesOf(videoAttrTypes["assets"])
)

// attrTypesOf is the attribute types of an object type; nil for any other type, which makes
// every value built from it an error diagnostic (and the test fail) rather than a panic.
func attrTypesOf(t attr.Type) map[string]attr.Type {
	if o, ok := t.(basetypes.ObjectType); ok {
		return o.AttrTypes
	}
	return nil
}

// videoListValue is the videos attribute of videohost_videos.
func videoListValue(videos []videohost.Video) (types.List, diag.Diagnostics) {
	var diags diag.Diagnostics
	elems := make([]attr.Value, 0, len(videos))
	for _, v := range videos {
		o, d := videoModelFrom(v).object()
		diags.Append(d...)
		if diags.HasError() {
			return types.ListNull(videoObjectType), diags
		}
		elems = append(elems, o)
	}
	l, d := types.ListValue(videoObjectType, elems)
	diags.Append(d...)
	return l, diags
}

// object is the video as an element of the videos list.
func (m videoModel) object() (types.Object, diag.Diagnostics) {
	var diags diag.Diagnostics
	tags := make([]attr.Value, 0, len(m.Tags))
	for _, t := range m.Tags {
		tags = append(tags, types.StringValue(t))
	}
	tagList, d := types.ListValue(types.StringType, tags)
	diags.Append(d...)
	metadata := make(map[string]attr.Value, len(m.Metadata))
	for k, v := range m.Metadata {
		metadata[k] = types.StringValue(v)
	}
	metadataMap, d := types.MapValue(types.StringType, metadata)
	diags.Append(d...)

	source := types.ObjectNull(sourceAttrTypes)
	if s := m.Source; s != nil {
		source, d = types.ObjectValue(sourceAttrTypes, map[string]attr.Value{
			"uri": s.URI, "type": s.Type, "live_stream_id": s.LiveStreamID,
		})
		diags.Append(d...)
	}
	assets := types.ObjectNull(assetsAttrTypes)
	if a := m.Assets; a != nil {
		assets, d = types.ObjectValue(assetsAttrTypes, map[string]attr.Value{
			"hls": a.HLS, "iframe": a.IFrame, "player": a.Player, "thumbnail": a.Thumbnail, "mp4": a.MP4,
		})
		diags.Append(d...)
	}
	o, d := types.ObjectValue(videoAttrTypes, map[string]attr.Value{
		"id": m.ID, "title": m.Title, "description": m.Description, "language": m.Language,
		"player_id": m.PlayerID, "created_at": m.CreatedAt, "published_at": m.PublishedAt,
		"updated_at": m.UpdatedAt, "discarded": m.Discarded, "public": m.Public,
		"panoramic": m.Panoramic, "mp4_support": m.MP4Support, "tags": tagList,
		"metadata": metadataMap, "source": source, "assets": assets,
	})
	diags.Append(d...)
	return o, diags
}
