package provider

// The videohost_video_chapter list resource: the chapters that terraform query finds.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// NewVideoChapterListResource returns the videohost_video_chapter list resource.
func NewVideoChapterListResource() list.ListResource {
	type chapter = listedTrack[videohost.Chapter]
	return newListResource("_video_chapter", listing[chapter, trackListModel, string]{
		description: "Lists the chapter files of one video for `terraform query`, one per language. Each result is " +
			"a chapter file's identity (`video_id` and `language`) and its language; with `include_resource = true`, " +
			"also the attributes of the resource that the service knows (not `source_file`). Terraform 1.14 and later.",
		filters:     trackListFilters("chapter file"),
		filter:      func(m trackListModel) string { return m.VideoID.ValueString() },
		walk:        walkTracks((*videohost.Client).WalkChapters, func(c videohost.Chapter) string { return c.Language }),
		what:        "chapter files",
		id:          func(c chapter) string { return trackID(c.videoID, c.language) },
		identity:    trackIdentity[videohost.Chapter],
		displayName: func(c chapter) string { return c.language },
		model: func(_ context.Context, c chapter) (any, diag.Diagnostics) {
			return chapterModelFrom(trackModel(c.videoID, c.language, c.obj.Src), types.StringNull(), c.obj), nil
		},
		errorSummary: "Unable to List Video Chapters",
		attrs:        map[string]path.Path{"videoId": path.Root("video_id")},
	})
}
