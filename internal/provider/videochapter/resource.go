package videochapter

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/provider/track"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

var (
	_ framework.ManagedResource       = (*videoChapterResource)(nil)
	_ resource.ResourceWithModifyPlan = (*videoChapterResource)(nil)
)

// videoChapterResource is videohost_video_chapter: a WebVTT file of a video's chapters for one
// language.
type videoChapterResource struct {
	track.TrackResource[videohost.Chapter, videoChapterModel]
}

// NewVideoChapterResource returns the videohost_video_chapter resource.
func NewVideoChapterResource() resource.Resource {
	return &videoChapterResource{track.NewTrackResource("_video_chapter", "Video Chapter", "chapter file", track.TrackKind[videohost.Chapter, videoChapterModel]{
		Ops:       chapterOps,
		ModelFrom: chapterModelFrom,
		Track:     func(m *videoChapterModel) *track.VideoTrackModel { return &m.VideoTrackModel },
	})}
}

func (r *videoChapterResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The chapters of a video for one language: a WebVTT file whose cues are the chapters' " +
			"titles and times. A changed file is uploaded again in place (the service replaces the file); a change of " +
			"`video_id` or `language` replaces the chapter file. Import with `videoId/language`.",
		Attributes: r.TrackAttributes(),
	}
}
