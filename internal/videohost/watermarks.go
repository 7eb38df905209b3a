package videohost

import (
	"context"
	"encoding/json"
	"iter"
	"net/url"
	"time"
)

var _ json.Unmarshaler = (*Watermark)(nil)

// Watermark is an image the service places on the videos created with it. The service keeps
// its id and creation time only: nothing of the image can be read back.
type Watermark struct {
	ID        string     `json:"watermarkId"`
	CreatedAt *time.Time `json:"createdAt"`
}

// UnmarshalJSON accepts createdAt with an offset or Z; unknown members are ignored.
func (w *Watermark) UnmarshalJSON(b []byte) error { return decodeRecord(b, w) }

// WatermarkFilter sorts GET /watermarks; empty fields are not sent.
type WatermarkFilter struct {
	SortBy    string // createdAt
	SortOrder string // asc|desc
}

var watermarkCollection = collection[Watermark]{path: "/watermarks", id: func(w Watermark) string { return w.ID }, listOnly: true}

// CreateWatermark uploads a JPEG or PNG image as a new watermark (multipart, in the uploads
// class). It is sent once: a failure after it may have reached the service is an
// *AmbiguousError, since a second upload would make a second watermark.
func (c *Client) CreateWatermark(ctx context.Context, src UploadSource) (Watermark, error) {
	defer watermarkCollection.writing(c)()
	var w Watermark
	if err := c.uploadFile(ctx, watermarkCollection.path, nil, src, false, &w); err != nil {
		return Watermark{}, err
	}
	return w, nil
}

// ListWatermarks returns every watermark, walking all pages: the only read the service has.
func (c *Client) ListWatermarks(ctx context.Context, f WatermarkFilter) ([]Watermark, error) {
	return collect(c.WalkWatermarks(ctx, f))
}

// WalkWatermarks yields the watermarks page by page as it reads them, holding one page at a
// time; a caller that stops early reads no further page.
func (c *Client) WalkWatermarks(ctx context.Context, f WatermarkFilter) iter.Seq2[Watermark, error] {
	q := url.Values{}
	setIf(q, "sortBy", f.SortBy)
	setIf(q, "sortOrder", f.SortOrder)
	return watermarkCollection.walk(ctx, c, q)
}

// LookupWatermark reads one watermark from the list its lookups share: the service has no read
// by id, so a refresh of many costs one walk of the list. A watermark missing from it is looked
// for in a walk of its own (see collection.rewalk) before ErrNotFound says it is gone.
func (c *Client) LookupWatermark(ctx context.Context, id string) (Watermark, error) {
	return watermarkCollection.lookup(ctx, c, id)
}

// DeleteWatermark deletes a watermark; the videos made with it keep it. A 404 on a retry counts
// as deleted, a 404 on the first attempt is ErrNotFound.
func (c *Client) DeleteWatermark(ctx context.Context, id string) error {
	return watermarkCollection.delete(ctx, c, id)
}
