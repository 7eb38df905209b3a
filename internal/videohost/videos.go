package videohost

import (
	"context"
	"encoding/json"
	"iter"
	"net/http"
	"net/url"
	"time"
)

var _ json.Unmarshaler = (*Video)(nil)

// Video is the service's video.
type Video struct {
	ID          string `json:"videoId"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Language    string `json:"language"`
	// LanguageOrigin is api when the language was given, auto when the service detected it.
	LanguageOrigin string       `json:"languageOrigin"`
	PlayerID       string       `json:"playerId"`
	CreatedAt      *time.Time   `json:"createdAt"`
	PublishedAt    *time.Time   `json:"publishedAt"`
	UpdatedAt      *time.Time   `json:"updatedAt"`
	Discarded      bool         `json:"discarded"`
	Public         bool         `json:"public"`
	Panoramic      bool         `json:"panoramic"`
	MP4Support     bool         `json:"mp4Support"`
	Tags           []string     `json:"tags"`
	Metadata       []Metadata   `json:"metadata"`
	Source         *VideoSource `json:"source"`
	Assets         *VideoAssets `json:"assets"`
	// DiscardedAt and DeletesAt are set on a discarded video only (the Video Restore feature):
	// when it was discarded, and when the service deletes it for good.
	DiscardedAt *time.Time `json:"discardedAt"`
	DeletesAt   *time.Time `json:"deletesAt"`
}

// UnmarshalJSON accepts the date-times with an offset or Z; unknown members are ignored.
func (v *Video) UnmarshalJSON(b []byte) error { return decodeRecord(b, v) }

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

var videoCollection = collection[Video]{path: "/videos", id: func(v Video) string { return v.ID }}

// ListVideos returns every video that matches f, walking all pages.
func (c *Client) ListVideos(ctx context.Context, f VideoFilter) ([]Video, error) {
	return collect(videoCollection.walk(ctx, c, f.query()))
}

// WalkVideos yields the videos that match f page by page as it reads them, holding one page at
// a time; a caller that stops early reads no further page.
func (c *Client) WalkVideos(ctx context.Context, f VideoFilter) iter.Seq2[Video, error] {
	return videoCollection.walk(ctx, c, f.query())
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

// LookupVideo reads one video from the list its lookups share, so that a refresh of many costs
// one walk of the list (see collection.lookup); an id missing from the list is read with
// GetVideo, and only its ErrNotFound means the video is gone.
func (c *Client) LookupVideo(ctx context.Context, id string) (Video, error) {
	return videoCollection.lookup(ctx, c, id)
}

// VideoCreate is the body of POST /videos. Zero values are not sent, so the service applies its
// defaults (public, mp4Support: true). Source is the URL of a video on the web or the videoId of
// a video of the workspace to copy; Clip and Watermark exist only at creation.
// TranscriptSummaryAttributes are the parts of the summary that TranscriptSummary asks for
// (abstract, takeaways); none is a full summary.
type VideoCreate struct {
	Title                       string          `json:"title"`
	Description                 string          `json:"description,omitempty"`
	Public                      *bool           `json:"public,omitempty"`
	Panoramic                   *bool           `json:"panoramic,omitempty"`
	MP4Support                  *bool           `json:"mp4Support,omitempty"`
	PlayerID                    string          `json:"playerId,omitempty"`
	Tags                        []string        `json:"tags,omitempty"`
	Metadata                    []Metadata      `json:"metadata,omitempty"`
	Language                    string          `json:"language,omitempty"`
	Transcript                  *bool           `json:"transcript,omitempty"`
	TranscriptSummary           *bool           `json:"transcriptSummary,omitempty"`
	TranscriptSummaryAttributes []string        `json:"transcriptSummaryAttributes,omitempty"`
	Source                      string          `json:"source,omitempty"`
	Clip                        *VideoClip      `json:"clip,omitempty"`
	Watermark                   *VideoWatermark `json:"watermark,omitempty"`
}

// VideoClip keeps a part of the source: timecodes HH:MM:SS, optionally with .ms.
type VideoClip struct {
	StartTimecode string `json:"startTimecode,omitempty"`
	EndTimecode   string `json:"endTimecode,omitempty"`
}

// VideoWatermark places a watermark (by id) on a new video; positions and sizes are strings
// such as 10px or 5%.
type VideoWatermark struct {
	ID      string `json:"id"`
	Top     string `json:"top,omitempty"`
	Left    string `json:"left,omitempty"`
	Bottom  string `json:"bottom,omitempty"`
	Right   string `json:"right,omitempty"`
	Width   string `json:"width,omitempty"`
	Height  string `json:"height,omitempty"`
	Opacity string `json:"opacity,omitempty"`
}

// VideoUpdate is the body of PATCH /videos/{id}: an absent Field leaves the member as it is,
// Null[string]() for PlayerID detaches the player theme (and for Language lets the service
// detect it), and Tags and Metadata replace the whole list.
type VideoUpdate struct {
	Title                       Field[string]     `json:"title,omitzero"`
	Description                 Field[string]     `json:"description,omitzero"`
	PlayerID                    Field[string]     `json:"playerId,omitzero"`
	Language                    Field[string]     `json:"language,omitzero"`
	Public                      Field[bool]       `json:"public,omitzero"`
	Panoramic                   Field[bool]       `json:"panoramic,omitzero"`
	MP4Support                  Field[bool]       `json:"mp4Support,omitzero"`
	Transcript                  Field[bool]       `json:"transcript,omitzero"`
	TranscriptSummary           Field[bool]       `json:"transcriptSummary,omitzero"`
	TranscriptSummaryAttributes Field[[]string]   `json:"transcriptSummaryAttributes,omitzero"`
	Tags                        Field[[]string]   `json:"tags,omitzero"`
	Metadata                    Field[[]Metadata] `json:"metadata,omitzero"`
}

// IsEmpty reports whether the update would change nothing.
func (in VideoUpdate) IsEmpty() bool {
	return in.Title.IsZero() && in.Description.IsZero() && in.PlayerID.IsZero() && in.Language.IsZero() &&
		in.Public.IsZero() && in.Panoramic.IsZero() && in.MP4Support.IsZero() && in.Transcript.IsZero() &&
		in.TranscriptSummary.IsZero() && in.TranscriptSummaryAttributes.IsZero() && in.Tags.IsZero() && in.Metadata.IsZero()
}

// CreateVideo sends POST /videos once (201 for an empty container, 202 with a source). A failure
// after the request may have reached the service is an *AmbiguousError (errors.Is(err,
// ErrAmbiguous)), never re-sent: a second POST would make a second video. The caller reconciles
// it, as it does a live stream's, by listing the videos (VideoFilter.Title).
func (c *Client) CreateVideo(ctx context.Context, in VideoCreate) (Video, error) {
	return videoCollection.create(ctx, c, in)
}

// UpdateVideo sends PATCH /videos/{id} with the members in sets. Every member is an absolute
// value (tags and metadata as whole lists), so it is retried after a server error like a read.
func (c *Client) UpdateVideo(ctx context.Context, id string, in VideoUpdate) (Video, error) {
	// The service reads null as "not a list"; no tags is an empty array.
	if v, ok := in.Tags.Get(); ok && v == nil {
		in.Tags = Value([]string{})
	}
	if v, ok := in.Metadata.Get(); ok && v == nil {
		in.Metadata = Value([]Metadata{})
	}
	return videoCollection.update(ctx, c, id, in)
}

// DeleteVideo deletes a video with its source, captions and chapters; a 404 on a retry counts as
// deleted, a 404 on the first attempt is ErrNotFound.
func (c *Client) DeleteVideo(ctx context.Context, id string) error {
	return videoCollection.delete(ctx, c, id)
}

// SetVideoThumbnailTimecode picks the frame at timecode (HH:MM:SS, optionally .ms) as the
// video's thumbnail: PATCH /videos/{id}/thumbnail, absolute, so retried like a read.
func (c *Client) SetVideoThumbnailTimecode(ctx context.Context, videoID, timecode string) (Video, error) {
	if videoID == "" {
		return Video{}, errEmptyID
	}
	body := struct {
		Timecode string `json:"timecode"`
	}{timecode}
	defer videoCollection.writing(c)()
	return doDecoded[Video](ctx, c, request{
		method: http.MethodPatch, path: videoCollection.item(videoID) + "/thumbnail", body: body, idempotent: true,
	})
}

// UploadVideoThumbnail sends a JPEG or PNG image (at most 8 MiB) as the video's thumbnail.
func (c *Client) UploadVideoThumbnail(ctx context.Context, videoID string, src UploadSource) (Video, error) {
	if videoID == "" {
		return Video{}, errEmptyID
	}
	defer videoCollection.writing(c)()
	var v Video
	if err := c.uploadFile(ctx, videoCollection.item(videoID)+"/thumbnail", nil, src, true, &v); err != nil {
		return Video{}, err
	}
	return v, nil
}
