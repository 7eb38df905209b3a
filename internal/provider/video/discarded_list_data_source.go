package provider

// The videohost_discarded_videos data source: the videos that the service's Video Restore
// feature keeps after their deletion, which the videohost_video_restore action restores.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// NewDiscardedVideosDataSource returns the videohost_discarded_videos data source: the
// discarded videos that match server-side filters (the filters of videohost_videos).
func NewDiscardedVideosDataSource() datasource.DataSource {
	return newListDataSource("_discarded_videos", listRead[videohost.Video, videosModel, videohost.VideoFilter]{
		description: "Lists the discarded videos of the workspace that match the filters (every page); the service " +
			"filters them. With the service's Video Restore feature, destroying a `videohost_video` discards the video: " +
			"the service keeps it for 90 days, then deletes it for good, and the `videohost_video_restore` action " +
			"restores it until then. A workspace without the feature has no discarded video: the list is empty.",
		filters:          videoListFilters("discarded videos"),
		items:            "videos",
		itemsDescription: "The matching discarded videos.",
		itemAttributes:   discardedVideoDataAttributes,
		title:            "Discarded Videos", filterPaths: videoFilterPaths,
		filter: videoFilterFrom,
		list:   (*videohost.Client).ListDiscardedVideos,
		object: func(_ context.Context, v videohost.Video) (types.Object, diag.Diagnostics) {
			return discardedVideoObject(v)
		},
	})
}

// discardedVideoDataAttributes are a video's computed attributes and the dates of its discard.
func discardedVideoDataAttributes() map[string]schema.Attribute {
	attrs := videoDataAttributes()
	attrs["discarded_at"] = computedString("When the video was discarded, RFC 3339; null when the service gives none.")
	attrs["deletes_at"] = computedString("When the service deletes the video for good, unless it is restored before, " +
		"RFC 3339; null when the service gives none.")
	return attrs
}

// discardedVideoObjectType is the type of one element of videos, from the schema.
var discardedVideoObjectType = objectTypeOf(discardedVideoDataAttributes())

// discardedVideoObject is a discarded video as an element of the videos list: the video's
// element with the dates of its discard.
func discardedVideoObject(v videohost.Video) (types.Object, diag.Diagnostics) {
	o, diags := videoModelFrom(v).object()
	if diags.HasError() {
		return types.ObjectNull(discardedVideoObjectType.AttrTypes), diags
	}
	attrs := o.Attributes()
	attrs["discarded_at"], attrs["deletes_at"] = timeString(v.DiscardedAt), timeString(v.DeletesAt)
	out, d := types.ObjectValue(discardedVideoObjectType.AttrTypes, attrs)
	diags.Append(d...)
	return out, diags
}
