package videocaption

// The videohost_video_caption list resource: the captions that terraform query finds.

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

// NewVideoCaptionListResource returns the videohost_video_caption list resource.
func NewVideoCaptionListResource() list.ListResource {
	type caption = track.ListedTrack[videohost.Caption]
	return framework.NewListResource("_video_caption", framework.Listing[caption, track.TrackListModel, string]{
		Description: "Lists the captions of one video for `terraform query`. Each result is a caption's identity " +
			"(`video_id` and `language`) and its language's name; with `include_resource = true`, also the " +
			"attributes of the resource that the service knows (not `source_file`, which the generated configuration " +
			"must be given). Terraform 1.14 and later.",
		Filters:  track.TrackListFilters("caption"),
		Filter:   func(m track.TrackListModel) string { return m.VideoID.ValueString() },
		Walk:     track.WalkTracks((*videohost.Client).WalkCaptions, func(c videohost.Caption) string { return c.SrcLang }),
		What:     "captions",
		Id:       func(c caption) string { return track.TrackID(c.VideoID, c.Language) },
		Identity: track.TrackIdentity[videohost.Caption],
		DisplayName: func(c caption) string {
			name := c.Language + " (" + c.Obj.LanguageName + ")"
			if c.Obj.Default {
				name += ", default"
			}
			return name
		},
		Model: func(_ context.Context, c caption) (any, diag.Diagnostics) {
			return captionModelFrom(track.TrackModel(c.VideoID, c.Language, c.Obj.Src), types.StringNull(), c.Obj), nil
		},
		ErrorSummary: "Unable to List Video Captions",
		Attrs:        map[string]path.Path{"videoId": path.Root("video_id")},
	})
}
