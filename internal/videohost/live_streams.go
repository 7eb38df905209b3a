package videohost

import (
	"context"
	"encoding/json"
	"iter"
	"net/http"
	"net/url"
	"time"
)

var _ json.Unmarshaler = (*LiveStream)(nil)

// LiveStream is the service's live stream.
type LiveStream struct {
	ID           string            `json:"liveStreamId"`
	Name         string            `json:"name"`
	StreamKey    string            `json:"streamKey"`
	Public       bool              `json:"public"`
	PlayerID     string            `json:"playerId"`
	Broadcasting bool              `json:"broadcasting"`
	CreatedAt    *time.Time        `json:"createdAt"`
	UpdatedAt    *time.Time        `json:"updatedAt"`
	Assets       *LiveStreamAssets `json:"assets"`
	Restreams    []Restream        `json:"restreams"`
}

// UnmarshalJSON accepts the date-times with an offset or Z; unknown members are ignored.
func (l *LiveStream) UnmarshalJSON(b []byte) error { return decodeRecord(b, l) }

// LiveStreamAssets are the addresses of a live stream's outputs.
type LiveStreamAssets struct {
	HLS       string `json:"hls"`
	IFrame    string `json:"iframe"`
	Player    string `json:"player"`
	Thumbnail string `json:"thumbnail"`
}

// Restream is one restreaming destination of a live stream.
type Restream struct {
	Name      string `json:"name"`
	ServerURL string `json:"serverUrl"`
	StreamKey string `json:"streamKey"`
}

// LiveStreamFilter are the server-side filters of GET /live-streams.
type LiveStreamFilter struct {
	Name      string
	StreamKey string
	SortBy    string // name|createdAt|updatedAt
	SortOrder string // asc|desc
}

var liveStreamCollection = collection[LiveStream]{path: "/live-streams", id: func(l LiveStream) string { return l.ID }}

// ListLiveStreams returns every live stream that matches f, walking all pages.
func (c *Client) ListLiveStreams(ctx context.Context, f LiveStreamFilter) ([]LiveStream, error) {
	return collect(c.WalkLiveStreams(ctx, f))
}

// WalkLiveStreams yields the live streams that match f page by page as it reads them, holding
// one page at a time; a caller that stops early reads no further page.
func (c *Client) WalkLiveStreams(ctx context.Context, f LiveStreamFilter) iter.Seq2[LiveStream, error] {
	return liveStreamCollection.walk(ctx, c, f.query())
}

func (f LiveStreamFilter) query() url.Values {
	q := url.Values{}
	setIf(q, "name", f.Name)
	setIf(q, "streamKey", f.StreamKey)
	setIf(q, "sortBy", f.SortBy)
	setIf(q, "sortOrder", f.SortOrder)
	return q
}

// GetLiveStream reads one live stream; errors.Is(err, ErrNotFound) when absent.
func (c *Client) GetLiveStream(ctx context.Context, id string) (LiveStream, error) {
	return liveStreamCollection.get(ctx, c, id)
}

// LookupLiveStream reads one live stream from the list its lookups share, so that a refresh of
// many costs one walk of the list (see collection.lookup); an id missing from the list is read
// with GetLiveStream, and only its ErrNotFound means the live stream is gone.
func (c *Client) LookupLiveStream(ctx context.Context, id string) (LiveStream, error) {
	return liveStreamCollection.lookup(ctx, c, id)
}

// CreateLiveStreamInput is the body of POST /live-streams. Public nil leaves the service's
// default (true); an empty PlayerID or Restreams is not sent.
type CreateLiveStreamInput struct {
	Name      string     `json:"name"`
	Public    *bool      `json:"public,omitempty"`
	PlayerID  string     `json:"playerId,omitempty"`
	Restreams []Restream `json:"restreams,omitempty"`
}

// UpdateLiveStreamInput is the body of PATCH /live-streams/{id}: an absent Field leaves the
// member as it is, Null[string]() for PlayerID detaches the player, and a Restreams value
// replaces the whole list (an empty one removes every restream).
type UpdateLiveStreamInput struct {
	Name      Field[string]     `json:"name,omitzero"`
	Public    Field[bool]       `json:"public,omitzero"`
	PlayerID  Field[string]     `json:"playerId,omitzero"`
	Restreams Field[[]Restream] `json:"restreams,omitzero"`
}

// IsEmpty reports whether the update would change nothing.
func (in UpdateLiveStreamInput) IsEmpty() bool {
	return in.Name.IsZero() && in.Public.IsZero() && in.PlayerID.IsZero() && in.Restreams.IsZero()
}

// CreateLiveStream sends POST /live-streams once. A failure after the request may have reached
// the server is an *AmbiguousError (errors.Is(err, ErrAmbiguous)); it is never re-sent, since
// a second one would make a second live stream with its own stream key.
func (c *Client) CreateLiveStream(ctx context.Context, in CreateLiveStreamInput) (LiveStream, error) {
	return liveStreamCollection.create(ctx, c, in)
}

// UpdateLiveStream sends PATCH /live-streams/{id} with the members in sets. Every member it
// sends is an absolute value (a whole list of restreams, never an addition), so sending it twice
// leaves the live stream as sending it once: it is retried after a server error like a read.
func (c *Client) UpdateLiveStream(ctx context.Context, id string, in UpdateLiveStreamInput) (LiveStream, error) {
	if rs, ok := in.Restreams.Get(); ok && rs == nil {
		// The service reads null as "not a list"; no restreams is an empty array.
		in.Restreams = Value([]Restream{})
	}
	return liveStreamCollection.update(ctx, c, id, in)
}

// DeleteLiveStream deletes one live stream (ending its broadcast, if any); a 404 on a retry
// counts as deleted, a 404 on the first attempt is ErrNotFound.
func (c *Client) DeleteLiveStream(ctx context.Context, id string) error {
	return liveStreamCollection.delete(ctx, c, id)
}

// CompleteLiveStream sends PUT /live-streams/{id}/complete: the service ends the live stream's
// broadcast (202, no body); one that is not broadcasting stays as it is. The broadcast may end a
// little later: read the live stream until Broadcasting is false. Ending a broadcast twice
// leaves it as ending it once, so it is retried after a server error like a read;
// errors.Is(err, ErrNotFound) when the live stream does not exist.
func (c *Client) CompleteLiveStream(ctx context.Context, id string) error {
	if id == "" {
		return errEmptyID
	}
	defer liveStreamCollection.writing(c)()
	return c.do(ctx, request{method: http.MethodPut, path: liveStreamCollection.item(id) + "/complete", idempotent: true}, nil)
}

// UploadLiveStreamThumbnail sends a JPEG or PNG image (at most 8 MiB) as the live stream's
// thumbnail; a second upload replaces it, so it is retried like a read.
func (c *Client) UploadLiveStreamThumbnail(ctx context.Context, liveStreamID string, src UploadSource) (LiveStream, error) {
	if liveStreamID == "" {
		return LiveStream{}, errEmptyID
	}
	defer liveStreamCollection.writing(c)()
	var l LiveStream
	if err := c.uploadFile(ctx, liveStreamCollection.item(liveStreamID)+"/thumbnail", nil, src, true, &l); err != nil {
		return LiveStream{}, err
	}
	return l, nil
}

// DeleteLiveStreamThumbnail puts the service's own thumbnail back on the live stream and
// returns the live stream; ErrNotFound when the live stream does not exist.
func (c *Client) DeleteLiveStreamThumbnail(ctx context.Context, liveStreamID string) (LiveStream, error) {
	if liveStreamID == "" {
		return LiveStream{}, errEmptyID
	}
	defer liveStreamCollection.writing(c)()
	return doDecoded[LiveStream](ctx, c, request{
		method: http.MethodDelete, path: liveStreamCollection.item(liveStreamID) + "/thumbnail", idempotent: true,
	})
}
