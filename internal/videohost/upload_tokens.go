package videohost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"strings"
	"time"
)

var (
	_ json.Unmarshaler = (*UploadToken)(nil)
	_ fmt.Stringer     = UploadToken{}
	_ fmt.GoStringer   = UploadToken{}
)

// UploadToken is a delegated upload token: its Token is both its id and a secret, since whoever
// holds it can upload into the workspace. Printed with %v or %#v, it shows the token redacted.
type UploadToken struct {
	Token     string     `json:"token"`
	TTL       int        `json:"ttl"` // seconds; 0 never expires
	CreatedAt *time.Time `json:"createdAt"`
	ExpiresAt *time.Time `json:"expiresAt"` // nil when TTL is 0
}

// UnmarshalJSON accepts the date-times with an offset or Z; unknown members are ignored.
func (t *UploadToken) UnmarshalJSON(b []byte) error { return decodeRecord(b, t) }

func (t UploadToken) String() string {
	return fmt.Sprintf("{Token:%s TTL:%d CreatedAt:%v ExpiresAt:%v}", redacted, t.TTL, t.CreatedAt, t.ExpiresAt)
}

func (t UploadToken) GoString() string { return "videohost.UploadToken" + t.String() }

// UploadTokenFilter sorts GET /upload-tokens; empty fields are not sent.
type UploadTokenFilter struct {
	SortBy    string // createdAt|ttl
	SortOrder string // asc|desc
}

var uploadTokenCollection = collection[UploadToken]{path: "/upload-tokens", id: func(t UploadToken) string { return t.Token }, secretIDs: true}

// CreateUploadToken makes a token that expires ttl seconds after its creation (0: never). It is
// sent once: a failure after it may have reached the service is an *AmbiguousError.
func (c *Client) CreateUploadToken(ctx context.Context, ttl int) (UploadToken, error) {
	body := struct {
		TTL int `json:"ttl,omitempty"`
	}{ttl}
	return uploadTokenCollection.create(ctx, c, body)
}

// GetUploadToken reads a token; an expired or deleted one is ErrNotFound. The token is in the
// path, and never in a log line or an error.
func (c *Client) GetUploadToken(ctx context.Context, token string) (UploadToken, error) {
	return uploadTokenCollection.get(ctx, c, token)
}

// LookupUploadToken reads a token from the list its lookups share, so that a refresh of many
// costs one walk of the list (see collection.lookup); a token missing from the list is read with
// GetUploadToken, and only its ErrNotFound means the token expired or was deleted.
func (c *Client) LookupUploadToken(ctx context.Context, token string) (UploadToken, error) {
	return uploadTokenCollection.lookup(ctx, c, token)
}

// ListUploadTokens returns every token of the workspace, walking all pages.
func (c *Client) ListUploadTokens(ctx context.Context, f UploadTokenFilter) ([]UploadToken, error) {
	return collect(c.WalkUploadTokens(ctx, f))
}

// WalkUploadTokens yields the tokens page by page as it reads them, holding one page at a time;
// a caller that stops early reads no further page.
func (c *Client) WalkUploadTokens(ctx context.Context, f UploadTokenFilter) iter.Seq2[UploadToken, error] {
	q := url.Values{}
	setIf(q, "sortBy", f.SortBy)
	setIf(q, "sortOrder", f.SortOrder)
	return uploadTokenCollection.walk(ctx, c, q)
}

// DeleteUploadToken deletes a token; a 404 on a retry counts as deleted, a 404 on the first
// attempt is ErrNotFound.
func (c *Client) DeleteUploadToken(ctx context.Context, token string) error {
	return uploadTokenCollection.delete(ctx, c, token)
}

// holdsSecrets reports whether the answers of a path may hold upload tokens: an error never
// quotes them.
func holdsSecrets(path string) bool {
	return strings.HasPrefix(path, uploadTokenCollection.path) || strings.HasPrefix(path, "/upload?") || path == "/upload"
}

// UploadWithToken uploads src to POST /upload?token= with no credentials but the token, in the
// uploads class: the first request creates a video (titled after the file) and is sent once
// (a failure after it may have reached the service is an *AmbiguousError); the other chunks
// carry its videoId, are sent several at a time and retried like UploadVideoSource's. Nothing
// can be read with a token, so the upload does not resume by itself: an *UploadIncompleteError
// names the video, whose source UploadVideoSource (with the API key) completes.
func (c *Client) UploadWithToken(ctx context.Context, token string, src UploadSource, opt UploadOptions) (Video, error) {
	if token == "" {
		return Video{}, errEmptyID
	}
	u, err := c.newUpload(src, opt)
	if err != nil {
		return Video{}, err
	}
	u.path, u.query, u.secret, u.anonymous = "/upload", url.Values{"token": {token}}, token, true
	whole := []ByteRange{{From: 0, To: src.Size - 1, Total: src.Size}}
	chunks := u.plan(whole)
	u.prog = newProgress(c.log, c.progressEvery, "", src.Size, 0, opt.Progress, c.uploadsHeld())
	first, err := u.post(ctx, chunks[0], false)
	if err != nil {
		return Video{}, err
	}
	u.videoID, u.prog.videoID = first.ID, first.ID
	u.record(chunks[0], first, nil)
	u.fields = []formField{{name: "videoId", value: first.ID}}
	stop := u.prog.tick(ctx)
	u.run(ctx, chunks[1:])
	stop()
	u.prog.finish(ctx)
	u.mu.Lock()
	sent, failure, last, complete := u.acked, u.failure, *u.last, u.complete
	u.mu.Unlock()
	switch {
	case sent == src.Size || complete:
		if err := u.hashRest(); err != nil {
			return Video{}, err
		}
		return last, nil
	case ctx.Err() != nil:
		cause := &interruptedError{http.MethodPost, u.path, "before the remaining chunks were sent", ctx.Err()}
		return Video{}, u.incomplete(sent, errors.Join(cause, failure))
	}
	return Video{}, u.incomplete(sent, failure)
}
