package videocaption

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/provider/track"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

var (
	_ framework.ManagedResource       = (*videoCaptionResource)(nil)
	_ resource.ResourceWithModifyPlan = (*videoCaptionResource)(nil)
)

// videoCaptionResource is videohost_video_caption: a WebVTT caption file of a video for one
// language, and whether it is the video's default caption.
type videoCaptionResource struct {
	track.TrackResource[videohost.Caption, videoCaptionModel]
}

// NewVideoCaptionResource returns the videohost_video_caption resource.
func NewVideoCaptionResource() resource.Resource {
	return &videoCaptionResource{track.NewTrackResource("_video_caption", "Video Caption", "caption", track.TrackKind[videohost.Caption, videoCaptionModel]{
		Ops:       captionOps,
		ModelFrom: captionModelFrom,
		Track:     func(m *videoCaptionModel) *track.VideoTrackModel { return &m.VideoTrackModel },
		Settle:    settleCaptionDefault,
	})}
}

func (r *videoCaptionResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attrs := r.TrackAttributes()
	attrs["default"] = schema.BoolAttribute{
		MarkdownDescription: "Whether the player shows this caption by default; changed in place. A video has at most " +
			"one default caption: making one the default unsets it on the others, so set it on one caption of a video " +
			"only. Default `false`.",
		Optional: true,
		Computed: true,
		Default:  booldefault.StaticBool(false),
	}
	attrs["language_name"] = framework.KeptString("Name of the language in that language, such as `English` or `Français`.")
	resp.Schema = schema.Schema{
		MarkdownDescription: "A caption of a video: a WebVTT file for one language. A changed file is uploaded again " +
			"in place (the service replaces the caption's file and keeps whether it is the default); `default` is " +
			"changed in place; a change of `video_id` or `language` replaces the caption. Import with " +
			"`videoId/language`.",
		Attributes: attrs,
	}
}
