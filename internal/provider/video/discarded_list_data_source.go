package video

// The videohost_discarded_videos data source: the videos that the service's Video Restore
// feature keeps after their deletion, which the videohost_video_restore action restores.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// NewDiscardedVideosDataSource returns the videohost_discarded_videos data source: the
// discarded videos that match server-side filters (the filters of videohost_videos).
func NewDiscardedVideosDataSource() datasource.DataSource {
	return framework.NewListDataSource("_discarded_videos", framework.ListRead[videohost.Video, VideosModel, videohost.VideoFilter]{
		Description: "Lists the discarded videos of the workspace that match the filters (every page); the service " +
			"filters them. With the service's Video Restore feature, destroying a `videohost_video` discards the video: " +
			"the service keeps it for 90 days, then deletes it for good, and the `videohost_video_restore` action " +
			"restores it until then. A workspace without the feature has no discarded video: the list is empty.",
		Filters:          videoListFilters("discarded videos"),
		Items:            "videos",
		ItemsDescription: "The matching discarded videos.",
		ItemAttributes:   discardedVideoDataAttributes,
		Title:            "Discarded Videos", FilterPaths: videoFilterPaths,
		Filter: videoFilterFrom,
		List:   (*videohost.Client).ListDiscardedVideos,
		Object: func(_ context.Context, v videohost.Video) (types.Object, diag.Diagnostics) {
			return DiscardedVideoObject(v)
		},
	})
}

// discardedVideoDataAttributes are a video's computed attributes and the dates of its discard.
func discardedVideoDataAttributes() map[string]schema.Attribute {
	attrs := videoDataAttributes()
	attrs["discarded_at"] = framework.ComputedString("When the video was discarded, RFC 3339; null when the service gives none.")
	attrs["deletes_at"] = framework.ComputedString("When the service deletes the video for good, unless it is restored before, " +
		"RFC 3339; null when the service gives none.")
	return attrs
}

// DiscardedVideoObjectType is the type of one element of videos, from the schema.
var DiscardedVideoObjectType = framework.ObjectTypeOf(discardedVideoDataAttributes())

// DiscardedVideoObject is a discarded video as an element of the videos list: the video's
// element with the dates of its discard.
func DiscardedVideoObject(v videohost.Video) (types.Object, diag.Diagnostics) {
	o, diags := VideoModelFrom(v).Object()
	if diags.HasError() {
		return types.ObjectNull(DiscardedVideoObjectType.AttrTypes), diags
	}
	attrs := o.Attributes()
	attrs["discarded_at"], attrs["deletes_at"] = framework.TimeString(v.DiscardedAt), framework.TimeString(v.DeletesAt)
	out, d := types.ObjectValue(DiscardedVideoObjectType.AttrTypes, attrs)
	diags.Append(d...)
	return out, diags
}
