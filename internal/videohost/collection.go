package videohost

import (
	"context"
	"iter"
	"net/http"
	"net/url"
)

// collection is one list of the service's objects of type T (live streams, player themes,
// webhooks, videos) under its path, with the calls every API area makes of it. The typed
// methods of *Client are thin wrappers around these, so that an empty id, the zero value on
// failure and what may be retried are the same in every area.
type collection[T any] struct {
	path string         // "/live-streams"
	id   func(T) string // the object's id, which keys the shared list (see lookup)
	// secretIDs marks ids that are secrets (upload tokens): they are in the path of a read or a
	// delete, and never in a log line or an error.
	secretIDs bool
	// listOnly marks a kind the service cannot read by id (watermarks): its list is its read.
	listOnly bool
}

// secret is what a request on id must keep out of logs and errors.
func (k collection[T]) secret(id string) string {
	if k.secretIDs {
		return id
	}
	return ""
}

func (k collection[T]) item(id string) string { return k.path + "/" + url.PathEscape(id) }

// walk yields the objects that match query page by page; see Paginate.
func (k collection[T]) walk(ctx context.Context, c *Client, query url.Values) iter.Seq2[T, error] {
	return Paginate[T](ctx, c, k.path, query)
}

// get reads one object; errors.Is(err, ErrNotFound) when absent.
func (k collection[T]) get(ctx context.Context, c *Client, id string) (T, error) {
	if id == "" {
		var zero T
		return zero, errEmptyID
	}
	return doDecoded[T](ctx, c, request{method: http.MethodGet, path: k.item(id), secret: k.secret(id)})
}

// create sends one POST of body. It is never re-sent once it may have reached the service (the
// request is not repeatable): a failure then is an *AmbiguousError, left to the caller to
// reconcile, since a second POST would make a second object.
func (k collection[T]) create(ctx context.Context, c *Client, body any) (T, error) {
	defer k.writing(c)()
	return doDecoded[T](ctx, c, request{method: http.MethodPost, path: k.path, body: body})
}

// update sends a PATCH of body, whose every member is an absolute value: sent twice, it leaves
// the object as sent once, so it is retried after a server error like a read.
func (k collection[T]) update(ctx context.Context, c *Client, id string, body any) (T, error) {
	if id == "" {
		var zero T
		return zero, errEmptyID
	}
	defer k.writing(c)()
	return doDecoded[T](ctx, c, request{method: http.MethodPatch, path: k.item(id), body: body, idempotent: true})
}

// delete deletes one object; a 404 on a retry counts as deleted, a 404 on the first attempt is
// ErrNotFound.
func (k collection[T]) delete(ctx context.Context, c *Client, id string) error {
	if id == "" {
		return errEmptyID
	}
	defer k.writing(c)()
	return c.do(ctx, request{method: http.MethodDelete, path: k.item(id), secret: k.secret(id)}, nil)
}

// doDecoded sends r and decodes its answer into a T; on failure it returns the zero T, never a
// half-decoded one.
func doDecoded[T any](ctx context.Context, c *Client, r request) (T, error) {
	var v T
	if err := c.do(ctx, r, &v); err != nil {
		var zero T
		return zero, err
	}
	return v, nil
}
