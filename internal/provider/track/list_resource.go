package provider

// The list resources of captions and chapters for terraform query. Both live under one video, so
// their list block takes the video's id; each result's identity is that id and the language. This
// file holds what the two share.

import (
	"context"
	"iter"

	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// trackListModel is the list block of captions or chapters: the video.
type trackListModel struct {
	VideoID types.String `tfsdk:"video_id"`
}

// listedTrack is a caption or chapter file as listed, with the video it belongs to (the
// service's item names the video only inside its uri).
type listedTrack[T any] struct {
	videoID, language string
	obj               T
}

// trackListFilters is the list block's one attribute.
func trackListFilters(noun string) map[string]listschema.Attribute {
	return map[string]listschema.Attribute{
		"video_id": listschema.StringAttribute{
			MarkdownDescription: "Identifier of the video whose " + noun + "s to list (its `videoId`).",
			Required:            true,
			Validators:          serviceIDValidators("a video (its videoId)", "videohost_videos"),
		},
	}
}

// walkTracks wraps a client's walk of one video's files with the video's id and each file's
// language.
func walkTracks[T any](walk func(*videohost.Client, context.Context, string) iter.Seq2[T, error], language func(T) string,
) func(*videohost.Client, context.Context, string) iter.Seq2[listedTrack[T], error] {
	return func(c *videohost.Client, ctx context.Context, videoID string) iter.Seq2[listedTrack[T], error] {
		return func(yield func(listedTrack[T], error) bool) {
			for obj, err := range walk(c, ctx, videoID) {
				if !yield(listedTrack[T]{videoID: videoID, language: language(obj), obj: obj}, err) {
					return
				}
			}
		}
	}
}

// trackIdentity is the identity of a listed file.
func trackIdentity[T any](t listedTrack[T]) any {
	return trackIdentityModel{VideoID: types.StringValue(t.videoID), Language: types.StringValue(t.language)}
}

// trackModel is the shared part of a listed file's state: no source_file, no hash, as after an
// import.
func trackModel(videoID, language, src string) videoTrackModel {
	return videoTrackModel{
		ID: types.StringValue(trackID(videoID, language)), VideoID: types.StringValue(videoID),
		Language: types.StringValue(language), SourceFile: types.StringNull(), SourceSHA256: types.StringNull(),
		Src: types.StringValue(src),
	}
}
