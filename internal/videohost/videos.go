package videohost

import (
	"context"
	"encoding/json"
	"net/url"
	"time"
)

var _ json.Unmarshaler = (*Video)(nil)

// Video is the service's video.
type Video struct {
	ID          string       `json:"videoId"`
	Title       string       `json:"title"`
	Description string       `json:"description"`
	Language    string       `json:"language"`
	PlayerID    string       `json:"playerId"`
	CreatedAt   *time.Time   `json:"createdAt"`
	PublishedAt *time.Time   `json:"publishedAt"`
	UpdatedAt   *time.Time   `json:"updatedAt"`
	Discarded   bool         `json:"discarded"`
	Public      bool         `json:"public"`
	Panoramic   bool         `json:"panoramic"`
	MP4Support  bool         `json:"mp4Support"`
	Tags        []string     `json:"tags"`
	Metadata    []Metadata   `json:"metadata"`
	Source      *VideoSource `json:"source"`
	Assets      *VideoAssets `json:"assets"`
}

// UnmarshalJSON accepts the date-times with an offset or Z; unknown members are ignored.
func (v *Video) UnmarshalJSON(b []byte) error {
	type plain Video
	aux := struct {
		*plain
		CreatedAt   wireTime `json:"createdAt"`
		PublishedAt wireTime `json:"publishedAt"`
		UpdatedAt   wireTime `json:"updatedAt"`
	}{plain: (*plain)(v)}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	v.CreatedAt, v.PublishedAt, v.UpdatedAt = aux.CreatedAt.ptr(), aux.PublishedAt.ptr(), aux.UpdatedAt.ptr()
	return nil
}

// Metadata is one key/value pair of a video.
type Metadata struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// VideoSource tells where a video came from.
type VideoSource struct {
	URI        string                 `json:"uri"`
	Type       string                 `json:"type"`
	LiveStream *VideoSourceLiveStream `json:"liveStream"`
}

// VideoSourceLiveStream names the live stream a recording came from.
type VideoSourceLiveStream struct {
	LiveStreamID string `json:"liveStreamId"`
}

// VideoAssets are the addresses of a video's outputs.
type VideoAssets struct {
	HLS       string `json:"hls"`
	IFrame    string `json:"iframe"`
	Player    string `json:"player"`
	Thumbnail string `json:"thumbnail"`
	MP4       string `json:"mp4"`
}

// VideoFilter are the server-side filters of GET /videos; empty fields are not sent.
type VideoFilter struct {
	Title        string
	Tags         []string          // all must match; sent as tags[]
	Metadata     map[string]string // sent as metadata[k]=v
	Description  string
	LiveStreamID string
	SortBy       string // title|createdAt|publishedAt|updatedAt
	SortOrder    string // asc|desc
}

var videoCollection = collection[Video]{path: "/videos"}

// ListVideos returns every video that matches f, walking all pages.
func (c *Client) ListVideos(ctx context.Context, f VideoFilter) ([]Video, error) {
	return collect(videoCollection.walk(ctx, c, f.query()))
}

func (f VideoFilter) query() url.Values {
	q := url.Values{}
	setIf(q, "title", f.Title)
	for _, t := range f.Tags {
		q.Add("tags[]", t)
	}
	for k, v := range f.Metadata {
		q.Set("metadata["+k+"]", v)
	}
	setIf(q, "description", f.Description)
	setIf(q, "liveStreamId", f.LiveStreamID)
	setIf(q, "sortBy", f.SortBy)
	setIf(q, "sortOrder", f.SortOrder)
	return q
}

// setIf skips an empty value: the service would filter on the empty string.
func setIf(q url.Values, key, value string) {
	if value != "" {
		q.Set(key, value)
	}
}

// GetVideo reads one video; errors.Is(err, ErrNotFound) when absent.
func (c *Client) GetVideo(ctx context.Context, id string) (Video, error) {
	return videoCollection.get(ctx, c, id)
}
