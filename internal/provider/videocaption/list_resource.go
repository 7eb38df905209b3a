package provider

// The videohost_video_caption list resource: the captions that terraform query finds.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// NewVideoCaptionListResource returns the videohost_video_caption list resource.
func NewVideoCaptionListResource() list.ListResource {
	type caption = listedTrack[videohost.Caption]
	return newListResource("_video_caption", listing[caption, trackListModel, string]{
		description: "Lists the captions of one video for `terraform query`. Each result is a caption's identity " +
			"(`video_id` and `language`) and its language's name; with `include_resource = true`, also the " +
			"attributes of the resource that the service knows (not `source_file`, which the generated configuration " +
			"must be given). Terraform 1.14 and later.",
		filters:  trackListFilters("caption"),
		filter:   func(m trackListModel) string { return m.VideoID.ValueString() },
		walk:     walkTracks((*videohost.Client).WalkCaptions, func(c videohost.Caption) string { return c.SrcLang }),
		what:     "captions",
		id:       func(c caption) string { return trackID(c.videoID, c.language) },
		identity: trackIdentity[videohost.Caption],
		displayName: func(c caption) string {
			name := c.language + " (" + c.obj.LanguageName + ")"
			if c.obj.Default {
				name += ", default"
			}
			return name
		},
		model: func(_ context.Context, c caption) (any, diag.Diagnostics) {
			return captionModelFrom(trackModel(c.videoID, c.language, c.obj.Src), types.StringNull(), c.obj), nil
		},
		errorSummary: "Unable to List Video Captions",
		attrs:        map[string]path.Path{"videoId": path.Root("video_id")},
	})
}
