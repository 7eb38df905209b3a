package videohost

// CONTRACT FILE: written first so that the provider can be built against the client while the
// client is being written. The client helper replaces these bodies and moves the declarations
// into files named for what they hold (webhooks.go, videos.go, ...), keeping every exported
// name and signature.

import (
	"context"
	"iter"
	"net/url"
	"time"
)

// Client is the API client; safe for concurrent use.
type Client struct{ cfg Config }

// New validates cfg and builds a client. Invalid config is an error here, not at the first
// request.
func New(cfg Config) (*Client, error) { panic("contract") }

// BaseURL is the address the client sends to.
func (c *Client) BaseURL() string { panic("contract") }

// Environment is sandbox or production.
func (c *Client) Environment() string { panic("contract") }

// Error is every non-2xx answer of the service.
type Error struct {
	Method   string // request method, e.g. POST
	Path     string // request path, e.g. /webhooks
	Status   int
	Type     string // {docs_url}/<slug>
	Title    string
	Name     string
	Detail   string
	Problems []Problem
	Extra    map[string]any // members not listed above
	Body     string         // a cut of a body that was not JSON
	// Class is the rate-limit class (reads or writes) of a 429.
	Class string
}

// Problem is one item of a 400's problems.
type Problem struct {
	Type  string `json:"type"`
	Title string `json:"title"`
	Name  string `json:"name"`
}

func (e *Error) Error() string        { panic("contract") }
func (e *Error) Is(target error) bool { panic("contract") }

// AmbiguousError wraps a write whose outcome is unknown; errors.Is(err, ErrAmbiguous).
type AmbiguousError struct {
	Method, Path string
	Err          error
}

func (e *AmbiguousError) Error() string   { panic("contract") }
func (e *AmbiguousError) Unwrap() []error { panic("contract") }

// Webhook is the service's webhook.
type Webhook struct {
	ID              string    `json:"webhookId"`
	CreatedAt       time.Time `json:"createdAt"`
	Events          []string  `json:"events"`
	URL             string    `json:"url"`
	SignatureSecret string    `json:"signatureSecret,omitempty"`
}

// CreateWebhookInput is the body of POST /webhooks.
type CreateWebhookInput struct {
	URL    string   `json:"url"`
	Events []string `json:"events"`
}

// ListWebhooks returns every webhook, walking all pages; event filters on one event name
// when not empty.
func (c *Client) ListWebhooks(ctx context.Context, event string) ([]Webhook, error) {
	panic("contract")
}

// GetWebhook reads one webhook; errors.Is(err, ErrNotFound) when absent.
func (c *Client) GetWebhook(ctx context.Context, id string) (Webhook, error) { panic("contract") }

// LookupWebhook answers like GetWebhook, but from one list of the webhooks shared by all
// callers for Config.WebhookListTTL (filled once, by one caller, and emptied by every write of
// this client), and with SignatureSecret filled from the list. An id missing from the list is
// checked with GetWebhook before ErrNotFound is returned.
func (c *Client) LookupWebhook(ctx context.Context, id string) (Webhook, error) { panic("contract") }

// CreateWebhook sends POST /webhooks once. A failure after the request may have reached the
// server is an *AmbiguousError (errors.Is(err, ErrAmbiguous)); it is never re-sent.
func (c *Client) CreateWebhook(ctx context.Context, in CreateWebhookInput) (Webhook, error) {
	panic("contract")
}

// DeleteWebhook deletes one webhook; a 404 on a retry counts as deleted, a 404 on the first
// attempt is ErrNotFound.
func (c *Client) DeleteWebhook(ctx context.Context, id string) error { panic("contract") }

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

// ListVideos returns every video that matches f, walking all pages.
func (c *Client) ListVideos(ctx context.Context, f VideoFilter) ([]Video, error) { panic("contract") }

// GetVideo reads one video; errors.Is(err, ErrNotFound) when absent.
func (c *Client) GetVideo(ctx context.Context, id string) (Video, error) { panic("contract") }

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
	panic("contract")
}

// GetLiveStream reads one live stream; errors.Is(err, ErrNotFound) when absent.
func (c *Client) GetLiveStream(ctx context.Context, id string) (LiveStream, error) { panic("contract") }

// Token is an access token of the bearer scheme.
type Token struct {
	AccessToken string
	ExpiresAt   time.Time
}

// AccessToken returns a valid access token from the client's shared token source (fetching
// one with the API key when needed, also under the basic scheme).
func (c *Client) AccessToken(ctx context.Context) (Token, error) { panic("contract") }

// Paginate walks a list endpoint (path plus query) with pageSize 100, following next links,
// and yields its items; it stops with an error on a server that repeats a page.
func Paginate[T any](ctx context.Context, c *Client, path string, query url.Values) iter.Seq2[T, error] {
	panic("contract")
}

// Sign returns the lowercase hex HMAC-SHA256 of body keyed with secret.
func Sign(secret string, body []byte) string { panic("contract") }

// Verify reports whether header is the signature of body under secret (constant time, either
// hex case); an empty secret never verifies.
func Verify(secret string, body []byte, header string) bool { panic("contract") }
