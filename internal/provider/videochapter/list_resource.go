package videochapter

// The videohost_video_chapter list resource: the chapters that terraform query finds.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/provider/track"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// NewVideoChapterListResource returns the videohost_video_chapter list resource.
func NewVideoChapterListResource() list.ListResource {
	type chapter = track.ListedTrack[videohost.Chapter]
	return framework.NewListResource("_video_chapter", framework.Listing[chapter, track.TrackListModel, string]{
		Description: "Lists the chapter files of one video for `terraform query`, one per language. Each result is " +
			"a chapter file's identity (`video_id` and `language`) and its language; with `include_resource = true`, " +
			"also the attributes of the resource that the service knows (not `source_file`). Terraform 1.14 and later.",
		Filters:     track.TrackListFilters("chapter file"),
		Filter:      func(m track.TrackListModel) string { return m.VideoID.ValueString() },
		Walk:        track.WalkTracks((*videohost.Client).WalkChapters, func(c videohost.Chapter) string { return c.Language }),
		What:        "chapter files",
		Id:          func(c chapter) string { return track.TrackID(c.VideoID, c.Language) },
		Identity:    track.TrackIdentity[videohost.Chapter],
		DisplayName: func(c chapter) string { return c.Language },
		Model: func(_ context.Context, c chapter) (any, diag.Diagnostics) {
			return chapterModelFrom(track.TrackModel(c.VideoID, c.Language, c.Obj.Src), types.StringNull(), c.Obj), nil
		},
		ErrorSummary: "Unable to List Video Chapters",
		Attrs:        map[string]path.Path{"videoId": path.Root("video_id")},
	})
}
