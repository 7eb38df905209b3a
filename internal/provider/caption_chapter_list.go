package provider

// The list resources of captions and chapters for terraform query. Both live under one video, so
// their list block takes the video's id; each result's identity is that id and the language.

import (
	"context"
	"iter"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
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

// NewVideoChapterListResource returns the videohost_video_chapter list resource.
func NewVideoChapterListResource() list.ListResource {
	type chapter = listedTrack[videohost.Chapter]
	return newListResource("_video_chapter", listing[chapter, trackListModel, string]{
		description: "Lists the chapter files of one video for `terraform query`, one per language. Each result is " +
			"a chapter file's identity (`video_id` and `language`) and its language; with `include_resource = true`, " +
			"also the attributes of the resource that the service knows (not `source_file`). Terraform 1.14 and later.",
		filters:     trackListFilters("chapter file"),
		filter:      func(m trackListModel) string { return m.VideoID.ValueString() },
		walk:        walkTracks((*videohost.Client).WalkChapters, func(c videohost.Chapter) string { return c.Language }),
		what:        "chapter files",
		id:          func(c chapter) string { return trackID(c.videoID, c.language) },
		identity:    trackIdentity[videohost.Chapter],
		displayName: func(c chapter) string { return c.language },
		model: func(_ context.Context, c chapter) (any, diag.Diagnostics) {
			return chapterModelFrom(trackModel(c.videoID, c.language, c.obj.Src), types.StringNull(), c.obj), nil
		},
		errorSummary: "Unable to List Video Chapters",
		attrs:        map[string]path.Path{"videoId": path.Root("video_id")},
	})
}
