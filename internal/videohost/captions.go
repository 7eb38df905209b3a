package videohost

import (
	"context"
	"iter"
	"net/http"
	"net/url"
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

// videoFiles is the path of a video's captions or chapters (kind).
func videoFiles(videoID, kind string) (string, error) {
	if videoID == "" {
		return "", errEmptyID
	}
	return videoCollection.item(videoID) + "/" + kind, nil
}

// videoFile is the path of a video's captions or chapters (kind) of one language.
func videoFile(videoID, kind, language string) (string, error) {
	p, err := videoFiles(videoID, kind)
	if err != nil {
		return "", err
	}
	if language == "" {
		// It would name the list.
		return "", &IDError{Reason: "the language is empty"}
	}
	return p + "/" + url.PathEscape(language), nil
}

func getVideoFile[T any](ctx context.Context, c *Client, videoID, kind, language string) (T, error) {
	p, err := videoFile(videoID, kind, language)
	if err != nil {
		var zero T
		return zero, err
	}
	return doDecoded[T](ctx, c, request{method: http.MethodGet, path: p})
}

func deleteVideoFile(ctx context.Context, c *Client, videoID, kind, language string) error {
	p, err := videoFile(videoID, kind, language)
	if err != nil {
		return err
	}
	return c.do(ctx, request{method: http.MethodDelete, path: p}, nil)
}

func listVideoFiles[T any](ctx context.Context, c *Client, videoID, kind string) ([]T, error) {
	p, err := videoFiles(videoID, kind)
	if err != nil {
		return nil, err
	}
	return collect(Paginate[T](ctx, c, p, nil))
}

// walkVideoFiles yields a video's captions or chapters (kind) page by page as the caller takes
// them; an empty video id is yielded as the walk's one error.
func walkVideoFiles[T any](ctx context.Context, c *Client, videoID, kind string) iter.Seq2[T, error] {
	p, err := videoFiles(videoID, kind)
	if err != nil {
		return func(yield func(T, error) bool) {
			var zero T
			yield(zero, err)
		}
	}
	return Paginate[T](ctx, c, p, nil)
}

// WalkCaptions yields every caption of a video, reading a page only when the caller has taken
// the one before (terraform query).
func (c *Client) WalkCaptions(ctx context.Context, videoID string) iter.Seq2[Caption, error] {
	return walkVideoFiles[Caption](ctx, c, videoID, "captions")
}

// WalkChapters yields every chapter file of a video, as WalkCaptions.
func (c *Client) WalkChapters(ctx context.Context, videoID string) iter.Seq2[Chapter, error] {
	return walkVideoFiles[Chapter](ctx, c, videoID, "chapters")
}

// GetCaption reads a video's caption of language; errors.Is(err, ErrNotFound) when absent.
func (c *Client) GetCaption(ctx context.Context, videoID, language string) (Caption, error) {
	return getVideoFile[Caption](ctx, c, videoID, "captions", language)
}

// SetCaptionDefault makes the caption of language the video's default (which unsets the others)
// or not: PATCH, absolute, so retried like a read.
func (c *Client) SetCaptionDefault(ctx context.Context, videoID, language string, def bool) (Caption, error) {
	p, err := videoFile(videoID, "captions", language)
	if err != nil {
		return Caption{}, err
	}
	body := struct {
		Default bool `json:"default"`
	}{def}
	return doDecoded[Caption](ctx, c, request{method: http.MethodPatch, path: p, body: body, idempotent: true})
}

// DeleteCaption deletes a video's caption of language; a 404 on a retry counts as deleted.
func (c *Client) DeleteCaption(ctx context.Context, videoID, language string) error {
	return deleteVideoFile(ctx, c, videoID, "captions", language)
}

// ListCaptions returns every caption of a video, walking all pages.
func (c *Client) ListCaptions(ctx context.Context, videoID string) ([]Caption, error) {
	return listVideoFiles[Caption](ctx, c, videoID, "captions")
}

// GetChapter reads a video's chapters of language; errors.Is(err, ErrNotFound) when absent.
func (c *Client) GetChapter(ctx context.Context, videoID, language string) (Chapter, error) {
	return getVideoFile[Chapter](ctx, c, videoID, "chapters", language)
}

// DeleteChapter deletes a video's chapters of language; a 404 on a retry counts as deleted.
func (c *Client) DeleteChapter(ctx context.Context, videoID, language string) error {
	return deleteVideoFile(ctx, c, videoID, "chapters", language)
}

// ListChapters returns every chapter file of a video, walking all pages.
func (c *Client) ListChapters(ctx context.Context, videoID string) ([]Chapter, error) {
	return listVideoFiles[Chapter](ctx, c, videoID, "chapters")
}
