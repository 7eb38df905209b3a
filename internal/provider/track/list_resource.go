package track

// The list resources of captions and chapters for terraform query. Both live under one video, so
// their list block takes the video's id; each result's identity is that id and the language. This
// file holds what the two share.

import (
	"context"
	"iter"

	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// TrackListModel is the list block of captions or chapters: the video.
type TrackListModel struct {
	VideoID types.String `tfsdk:"video_id"`
}

// ListedTrack is a caption or chapter file as listed, with the video it belongs to (the
// service's item names the video only inside its uri).
type ListedTrack[T any] struct {
	VideoID, Language string
	Obj               T
}

// TrackListFilters is the list block's one attribute.
func TrackListFilters(noun string) map[string]listschema.Attribute {
	return map[string]listschema.Attribute{
		"video_id": listschema.StringAttribute{
			MarkdownDescription: "Identifier of the video whose " + noun + "s to list (its `videoId`).",
			Required:            true,
			Validators:          framework.ServiceIDValidators("a video (its videoId)", "videohost_videos"),
		},
	}
}

// WalkTracks wraps a client's walk of one video's files with the video's id and each file's
// language.
func WalkTracks[T any](walk func(*videohost.Client, context.Context, string) iter.Seq2[T, error], language func(T) string,
) func(*videohost.Client, context.Context, string) iter.Seq2[ListedTrack[T], error] {
	return func(c *videohost.Client, ctx context.Context, videoID string) iter.Seq2[ListedTrack[T], error] {
		return func(yield func(ListedTrack[T], error) bool) {
			for obj, err := range walk(c, ctx, videoID) {
				if !yield(ListedTrack[T]{VideoID: videoID, Language: language(obj), Obj: obj}, err) {
					return
				}
			}
		}
	}
}

// TrackIdentity is the identity of a listed file.
func TrackIdentity[T any](t ListedTrack[T]) any {
	return trackIdentityModel{VideoID: types.StringValue(t.VideoID), Language: types.StringValue(t.Language)}
}

// TrackModel is the shared part of a listed file's state: no source_file, no hash, as after an
// import.
func TrackModel(videoID, language, src string) VideoTrackModel {
	return VideoTrackModel{
		ID: types.StringValue(TrackID(videoID, language)), VideoID: types.StringValue(videoID),
		Language: types.StringValue(language), SourceFile: types.StringNull(), SourceSHA256: types.StringNull(),
		Src: types.StringValue(src),
	}
}
