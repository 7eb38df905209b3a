package video_test

import (
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/provider/video"
)

// discardedVideoModel is what reflection makes of a discarded video: the video's model and the
// dates of its discard.
type discardedVideoModel struct {
	video.VideoModel
	DiscardedAt types.String `tfsdk:"discarded_at"`
	DeletesAt   types.String `tfsdk:"deletes_at"`
}

// TestDiscardedVideoObjectMatchesReflection: an element of videohost_discarded_videos is what
// the framework's reflection makes of the model, with and without the dates (list_values.go
// says why it is built by hand).
func TestDiscardedVideoObjectMatchesReflection(t *testing.T) {
	discarded := acctest.TestVideo("vi1")
	at, deletes := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), time.Date(2026, 4, 2, 3, 4, 5, 0, time.UTC)
	discarded.Discarded, discarded.DiscardedAt, discarded.DeletesAt = true, &at, &deletes
	for name, v := range map[string]struct {
		at, dels types.String
	}{
		"discarded": {at: types.StringValue("2026-01-02T03:04:05Z"), dels: types.StringValue("2026-04-02T03:04:05Z")},
		"no dates":  {at: types.StringNull(), dels: types.StringNull()},
	} {
		t.Run(name, func(t *testing.T) {
			dv := discarded
			if v.at.IsNull() {
				dv.DiscardedAt, dv.DeletesAt = nil, nil
			}
			got, diags := video.DiscardedVideoObject(dv)
			acctest.RequireSameObject(t, video.DiscardedVideoObjectType, discardedVideoModel{video.VideoModelFrom(dv), v.at, v.dels}, got, diags)
		})
	}
}
