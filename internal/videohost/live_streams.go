package videohost

import (
	"context"
	"encoding/json"
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
func (l *LiveStream) UnmarshalJSON(b []byte) error {
	type plain LiveStream
	aux := struct {
		*plain
		CreatedAt wireTime `json:"createdAt"`
		UpdatedAt wireTime `json:"updatedAt"`
	}{plain: (*plain)(l)}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	l.CreatedAt, l.UpdatedAt = aux.CreatedAt.ptr(), aux.UpdatedAt.ptr()
	return nil
}

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

// ListLiveStreams returns every live stream that matches f, walking all pages.
func (c *Client) ListLiveStreams(ctx context.Context, f LiveStreamFilter) ([]LiveStream, error) {
	return collect(Paginate[LiveStream](ctx, c, "/live-streams", f.query()))
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
	if id == "" {
		return LiveStream{}, errEmptyID
	}
	var l LiveStream
	if err := c.do(ctx, request{method: http.MethodGet, path: "/live-streams/" + url.PathEscape(id)}, &l); err != nil {
		return LiveStream{}, err
	}
	return l, nil
}
