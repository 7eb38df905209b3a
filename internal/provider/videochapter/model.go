package provider

// A chapter in the state.

import (
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// videoChapterModel is a chapter file in the state.
type videoChapterModel struct {
	videoTrackModel
}

// chapterModelFrom is the state of chapter file c, uploaded from the file of plan (whose hash
// is sum).
func chapterModelFrom(plan videoTrackModel, sum types.String, c videohost.Chapter) videoChapterModel {
	m := videoChapterModel{videoTrackModel: plan}
	m.ID = types.StringValue(trackID(plan.VideoID.ValueString(), plan.Language.ValueString()))
	m.SourceSHA256 = sum
	m.Src = types.StringValue(c.Src)
	return m
}
