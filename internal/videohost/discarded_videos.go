package videohost

import (
	"context"
	"net/http"
)

// The service's Video Restore feature: with it on, a deleted video is discarded, kept for 90
// days under /discarded/videos, and may be restored until then.

var discardedVideoCollection = collection[Video]{path: "/discarded/videos", id: func(v Video) string { return v.ID }}

// ListDiscardedVideos returns every discarded video that matches f (the filters of GET /videos),
// walking all pages; an account without the Video Restore feature has none.
func (c *Client) ListDiscardedVideos(ctx context.Context, f VideoFilter) ([]Video, error) {
	return collect(discardedVideoCollection.walk(ctx, c, f.query()))
}

// GetDiscardedVideo reads one discarded video; errors.Is(err, ErrNotFound) when no discarded
// video has that id (it was never discarded, was restored, or was deleted for good).
func (c *Client) GetDiscardedVideo(ctx context.Context, id string) (Video, error) {
	return discardedVideoCollection.get(ctx, c, id)
}

// RestoreVideo restores a discarded video (PATCH /discarded/videos/{id} with discarded false):
// it is a video of the workspace again, as it was when it was discarded. The body is an
// absolute value, so it is retried after a server error like a read; a retry that finds the
// video already restored is ErrNotFound, which the caller may settle by reading the video.
func (c *Client) RestoreVideo(ctx context.Context, id string) (Video, error) {
	if id == "" {
		return Video{}, errEmptyID
	}
	body := struct {
		Discarded bool `json:"discarded"`
	}{false}
	// The restored video joins the list of videos, which the lookups share.
	defer videoCollection.writing(c)()
	return doDecoded[Video](ctx, c, request{
		method: http.MethodPatch, path: discardedVideoCollection.item(id), body: body, idempotent: true,
	})
}
