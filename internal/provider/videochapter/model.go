package videochapter

// A chapter in the state.

import (
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/videohost/terraform-provider-videohost/internal/provider/track"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// videoChapterModel is a chapter file in the state.
type videoChapterModel struct {
	track.VideoTrackModel
}

// chapterModelFrom is the state of chapter file c, uploaded from the file of plan (whose hash
// is sum).
func chapterModelFrom(plan track.VideoTrackModel, sum types.String, c videohost.Chapter) videoChapterModel {
	m := videoChapterModel{VideoTrackModel: plan}
	m.ID = types.StringValue(track.TrackID(plan.VideoID.ValueString(), plan.Language.ValueString()))
	m.SourceSHA256 = sum
	m.Src = types.StringValue(c.Src)
	return m
}
