package videohost

import (
	"context"
	"iter"
	"net/url"
)

// Tag is one tag of the workspace's videos and the number of videos that carry it.
type Tag struct {
	Value      string `json:"value"`
	VideoCount int    `json:"videoCount"`
}

// TagFilter are the server-side filters of GET /tags; empty fields are not sent.
type TagFilter struct {
	// Value selects the tags that contain it; the service ignores accents and case.
	Value     string
	SortBy    string // value|videoCount
	SortOrder string // asc|desc
}

// ListTags returns every tag that matches f, walking all pages.
func (c *Client) ListTags(ctx context.Context, f TagFilter) ([]Tag, error) {
	return collect(c.WalkTags(ctx, f))
}

// WalkTags yields the tags that match f page by page as it reads them, holding one page at a
// time; a caller that stops early reads no further page.
func (c *Client) WalkTags(ctx context.Context, f TagFilter) iter.Seq2[Tag, error] {
	q := url.Values{}
	setIf(q, "value", f.Value)
	setIf(q, "sortBy", f.SortBy)
	setIf(q, "sortOrder", f.SortOrder)
	return Paginate[Tag](ctx, c, "/tags", q)
}
