package videohost

import (
	"context"
	"iter"
)

// Caption is one WebVTT caption file of a video, for one language.
type Caption struct {
	URI          string `json:"uri"`
	Src          string `json:"src"`
	SrcLang      string `json:"srclang"`
	LanguageName string `json:"languageName"` // the language's own name, e.g. Français
	Default      bool   `json:"default"`
}

// Chapter is one WebVTT chapter file of a video, for one language.
type Chapter struct {
	URI      string `json:"uri"`
	Src      string `json:"src"`
	Language string `json:"language"`
}

// videoFiles is the collection of a video's captions or chapters (kind), keyed by language: a
// list per video, which the lookups of that video's files share (see collection.lookup).
func videoFiles[T any](videoID, kind string, language func(T) string) (collection[T], error) {
	if videoID == "" {
		return collection[T]{}, errEmptyID
	}
	return collection[T]{path: videoCollection.item(videoID) + "/" + kind, id: language}, nil
}

func captionFiles(videoID string) (collection[Caption], error) {
	return videoFiles(videoID, "captions", func(c Caption) string { return c.SrcLang })
}

func chapterFiles(videoID string) (collection[Chapter], error) {
	return videoFiles(videoID, "chapters", func(c Chapter) string { return c.Language })
}

// errEmptyLanguage: an empty language would name the list, not a file.
var errEmptyLanguage = &IDError{Reason: "the language is empty"}

func getVideoFile[T any](ctx context.Context, c *Client, k collection[T], err error, language string) (T, error) {
	var zero T
	if err != nil {
		return zero, err
	}
	if language == "" {
		return zero, errEmptyLanguage
	}
	return k.get(ctx, c, language)
}

func lookupVideoFile[T any](ctx context.Context, c *Client, k collection[T], err error, language string) (T, error) {
	var zero T
	if err != nil {
		return zero, err
	}
	if language == "" {
		return zero, errEmptyLanguage
	}
	return k.lookup(ctx, c, language)
}

func deleteVideoFile[T any](ctx context.Context, c *Client, k collection[T], err error, language string) error {
	if err != nil {
		return err
	}
	if language == "" {
		return errEmptyLanguage
	}
	return k.delete(ctx, c, language)
}

// walkVideoFiles yields a video's captions or chapters page by page as the caller takes them;
// an empty video id is yielded as the walk's one error.
func walkVideoFiles[T any](ctx context.Context, c *Client, k collection[T], err error) iter.Seq2[T, error] {
	if err != nil {
		return func(yield func(T, error) bool) {
			var zero T
			yield(zero, err)
		}
	}
	return k.walk(ctx, c, nil)
}

// WalkCaptions yields every caption of a video, reading a page only when the caller has taken
// the one before (terraform query).
func (c *Client) WalkCaptions(ctx context.Context, videoID string) iter.Seq2[Caption, error] {
	k, err := captionFiles(videoID)
	return walkVideoFiles(ctx, c, k, err)
}

// WalkChapters yields every chapter file of a video, as WalkCaptions.
func (c *Client) WalkChapters(ctx context.Context, videoID string) iter.Seq2[Chapter, error] {
	k, err := chapterFiles(videoID)
	return walkVideoFiles(ctx, c, k, err)
}

// GetCaption reads a video's caption of language; errors.Is(err, ErrNotFound) when absent.
func (c *Client) GetCaption(ctx context.Context, videoID, language string) (Caption, error) {
	k, err := captionFiles(videoID)
	return getVideoFile(ctx, c, k, err, language)
}

// LookupCaption reads a video's caption of language from the list of that video's captions
// that its lookups share, so that a refresh of a video's captions costs one walk; a language
// missing from the list is read with GetCaption, and only its ErrNotFound means it is gone.
func (c *Client) LookupCaption(ctx context.Context, videoID, language string) (Caption, error) {
	k, err := captionFiles(videoID)
	return lookupVideoFile(ctx, c, k, err, language)
}

// SetCaptionDefault makes the caption of language the video's default (which unsets the others)
// or not: PATCH, absolute, so retried like a read.
func (c *Client) SetCaptionDefault(ctx context.Context, videoID, language string, def bool) (Caption, error) {
	k, err := captionFiles(videoID)
	if err != nil {
		return Caption{}, err
	}
	if language == "" {
		return Caption{}, errEmptyLanguage
	}
	body := struct {
		Default bool `json:"default"`
	}{def}
	return k.update(ctx, c, language, body)
}

// DeleteCaption deletes a video's caption of language; a 404 on a retry counts as deleted.
func (c *Client) DeleteCaption(ctx context.Context, videoID, language string) error {
	k, err := captionFiles(videoID)
	return deleteVideoFile(ctx, c, k, err, language)
}

// ListCaptions returns every caption of a video, walking all pages.
func (c *Client) ListCaptions(ctx context.Context, videoID string) ([]Caption, error) {
	return collect(c.WalkCaptions(ctx, videoID))
}

// GetChapter reads a video's chapters of language; errors.Is(err, ErrNotFound) when absent.
func (c *Client) GetChapter(ctx context.Context, videoID, language string) (Chapter, error) {
	k, err := chapterFiles(videoID)
	return getVideoFile(ctx, c, k, err, language)
}

// LookupChapter reads a video's chapters of language from the list of that video's chapters
// that its lookups share (see LookupCaption).
func (c *Client) LookupChapter(ctx context.Context, videoID, language string) (Chapter, error) {
	k, err := chapterFiles(videoID)
	return lookupVideoFile(ctx, c, k, err, language)
}

// DeleteChapter deletes a video's chapters of language; a 404 on a retry counts as deleted.
func (c *Client) DeleteChapter(ctx context.Context, videoID, language string) error {
	k, err := chapterFiles(videoID)
	return deleteVideoFile(ctx, c, k, err, language)
}

// ListChapters returns every chapter file of a video, walking all pages.
func (c *Client) ListChapters(ctx context.Context, videoID string) ([]Chapter, error) {
	return collect(c.WalkChapters(ctx, videoID))
}

// UploadCaption sends a WebVTT file as the video's caption of language; a second upload for the
// same language replaces the file (and keeps its default).
func (c *Client) UploadCaption(ctx context.Context, videoID, language string, src UploadSource) (Caption, error) {
	k, err := captionFiles(videoID)
	return uploadVideoFile(ctx, c, k, err, language, src)
}

// UploadChapter sends a WebVTT file as the video's chapters of language, replacing any.
func (c *Client) UploadChapter(ctx context.Context, videoID, language string, src UploadSource) (Chapter, error) {
	k, err := chapterFiles(videoID)
	return uploadVideoFile(ctx, c, k, err, language, src)
}

func uploadVideoFile[T any](ctx context.Context, c *Client, k collection[T], err error, language string, src UploadSource) (T, error) {
	var v, zero T
	if err != nil {
		return zero, err
	}
	if language == "" {
		return zero, errEmptyLanguage
	}
	defer k.writing(c)()
	if err := c.uploadFile(ctx, k.item(language), nil, src, true, &v); err != nil {
		return zero, err
	}
	return v, nil
}
