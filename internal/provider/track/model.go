package track

// What the caption and chapter models share: a track of a video in the state, and its identity.

import "github.com/hashicorp/terraform-plugin-framework/types"

// VideoTrackModel is the part of the state that a caption and a chapter share.
type VideoTrackModel struct {
	ID           types.String `tfsdk:"id"`
	VideoID      types.String `tfsdk:"video_id"`
	Language     types.String `tfsdk:"language"`
	SourceFile   types.String `tfsdk:"source_file"`
	SourceSHA256 types.String `tfsdk:"source_sha256"`
	Src          types.String `tfsdk:"src"`
}

// trackIdentityModel is the identity of a caption or a chapter.
type trackIdentityModel struct {
	VideoID  types.String `tfsdk:"video_id"`
	Language types.String `tfsdk:"language"`
}

// TrackID is the id attribute and the import id of a video's file of language.
func TrackID(videoID, language string) string { return videoID + "/" + language }
