package emulator

import (
	"crypto/rand"
	"slices"
	"strings"
	"time"
)

// Webhook is the emulator's own record of a webhook (its own wire type, independent of the
// client's).
type Webhook struct {
	WebhookID       string    `json:"webhookId"`
	CreatedAt       time.Time `json:"createdAt"`
	Events          []string  `json:"events"`
	URL             string    `json:"url"`
	SignatureSecret string    `json:"signatureSecret"`
}

// Metadatum is one key and value of a video's metadata.
type Metadatum struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// video is the stored record of a video; its wire form is built by toVideoWire.
type video struct {
	ID          string    `json:"videoId"`
	Title       string    `json:"title"`
	Description string    `json:"description"`
	Language    string    `json:"language"`
	PlayerID    string    `json:"playerId"`
	CreatedAt   time.Time `json:"createdAt"`
	PublishedAt time.Time `json:"publishedAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
	videoProperties
	SourceType   string  `json:"sourceType"`
	LiveStreamID string  `json:"liveStreamId,omitempty"`
	Duration     float64 `json:"duration"`
	// ExpiresAt is when a sandbox video or recording is deleted; zero in production.
	ExpiresAt time.Time `json:"expiresAt,omitzero"`
	videoMedia
	videoDiscard
}

// videoMedia is what a video made through the API holds beside its properties: where its
// source came from, how far its ingest and encoding went, its captions and chapters. The
// records of the control API's simulations and of the seed leave it empty.
type videoMedia struct {
	// LanguageOrigin is api when the language was given, auto when the emulator detected it.
	LanguageOrigin    string `json:"languageOrigin,omitempty"`
	Transcript        bool   `json:"transcript,omitempty"`
	TranscriptSummary bool   `json:"transcriptSummary,omitempty"`
	// SummaryAttributes are the parts of the summary that transcriptSummary makes (abstract,
	// takeaways); none is a full summary. The service never shows them.
	SummaryAttributes []string `json:"summaryAttributes,omitempty"`
	// SummaryMade is set once a summary was asked for (or generated): another is 409.
	SummaryMade bool `json:"summaryMade,omitempty"`
	// SourceURL is the address a video was created from; such a video takes no upload.
	SourceURL string `json:"sourceUrl,omitempty"`
	// SourceSize and SourceSHA256 describe a complete source (uploaded or copied).
	SourceSize   int64  `json:"sourceSize,omitempty"`
	SourceSHA256 string `json:"sourceSha256,omitempty"`
	// SourceCompletedAt is the emulator's clock when an upload's last chunk made the source
	// complete (hashed); zero for a source copied or taken from an address.
	SourceCompletedAt time.Time `json:"sourceCompletedAt,omitzero"`
	// Ingest is "" before any byte arrived, then uploading, uploaded, ingesting, ingested.
	Ingest    string         `json:"ingest,omitempty"`
	Qualities []qualityState `json:"qualities,omitempty"`
	// Clip and WatermarkID are kept from the create and never sent back, as the service does.
	Clip        *clipRange `json:"clip,omitempty"`
	WatermarkID string     `json:"watermarkId,omitempty"`
	// ThumbnailVersion moves with every thumbnail change, so that the thumbnail's URL changes.
	ThumbnailVersion int        `json:"thumbnailVersion,omitempty"`
	Captions         []trackRec `json:"captions,omitempty"`
	Chapters         []trackRec `json:"chapters,omitempty"`
}

// qualityState is one encoded version of a video: hls or mp4 at a height.
type qualityState struct {
	Type    string `json:"type"`
	Quality string `json:"quality"`
	Status  string `json:"status"`
}

// clipRange is the part of its source that a video was created from.
type clipRange struct {
	StartTimecode string `json:"startTimecode,omitempty"`
	EndTimecode   string `json:"endTimecode,omitempty"`
}

// trackRec is one caption or chapter file of a video: its language, whether it is the default
// caption (chapters have none), and a version that moves with every upload, so that its src
// changes.
type trackRec struct {
	Language string `json:"language"`
	Default  bool   `json:"default,omitempty"`
	Version  int    `json:"version"`
}

// videoProperties are a video's flags, tags and metadata: stored and sent alike.
type videoProperties struct {
	Discarded  bool        `json:"discarded"`
	Public     bool        `json:"public"`
	Panoramic  bool        `json:"panoramic"`
	MP4Support bool        `json:"mp4Support"`
	Tags       []string    `json:"tags"`
	Metadata   []Metadatum `json:"metadata"`
}

// Restream is one restreaming destination of a live stream.
type Restream struct {
	Name      string `json:"name"`
	ServerURL string `json:"serverUrl"`
	StreamKey string `json:"streamKey"`
}

// liveStream is the stored record of a live stream.
type liveStream struct {
	ID           string     `json:"liveStreamId"`
	Name         string     `json:"name"`
	StreamKey    string     `json:"streamKey"`
	Public       bool       `json:"public"`
	PlayerID     string     `json:"playerId"`
	Broadcasting bool       `json:"broadcasting"`
	CreatedAt    time.Time  `json:"createdAt"`
	UpdatedAt    time.Time  `json:"updatedAt"`
	Restreams    []Restream `json:"restreams"`
	// BroadcastStartedAt is when the running broadcast began; zero when not broadcasting.
	BroadcastStartedAt time.Time `json:"broadcastStartedAt,omitzero"`
	// ThumbnailVersion counts the thumbnails uploaded, so that each has an address of its own;
	// CustomThumbnail says whether the last one is still there (not deleted).
	ThumbnailVersion int  `json:"thumbnailVersion,omitempty"`
	CustomThumbnail  bool `json:"customThumbnail,omitempty"`
}

// playerTheme is the stored record of a player theme.
type playerTheme struct {
	ID string `json:"playerId"`
	playerSettings
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
	// Logo is the theme's logo, nil when it has none.
	Logo *playerLogo `json:"logo,omitempty"`
}

// playerLogo is a player theme's logo: its link as sent, and a version that moves with every
// upload, so that its address changes.
type playerLogo struct {
	Link    string `json:"link"`
	Version int    `json:"version"`
}

// uploadToken is a delegated upload token. The token is its id and its secret; Owner is the
// fingerprint of the key that made it, whose uploads budget /upload uses. ExpiresAt is zero for
// a token that never expires.
type uploadToken struct {
	Token     string    `json:"token"`
	TTL       int64     `json:"ttl"`
	CreatedAt time.Time `json:"createdAt"`
	ExpiresAt time.Time `json:"expiresAt,omitzero"`
	Owner     string    `json:"owner"`
}

// watermark is a watermark image: the service keeps its id and creation time, nothing of the
// image.
type watermark struct {
	ID        string    `json:"watermarkId"`
	CreatedAt time.Time `json:"createdAt"`
}

// playerSettings are what a player theme's body may set, stored and sent as they are. Colours
// are kept as they were sent, character for character; Name "" is a theme without a name.
type playerSettings struct {
	Name             string `json:"name,omitempty"`
	Text             string `json:"text"`
	Link             string `json:"link"`
	LinkHover        string `json:"linkHover"`
	LinkActive       string `json:"linkActive"`
	TrackPlayed      string `json:"trackPlayed"`
	TrackUnplayed    string `json:"trackUnplayed"`
	TrackBackground  string `json:"trackBackground"`
	BackgroundTop    string `json:"backgroundTop"`
	BackgroundBottom string `json:"backgroundBottom"`
	BackgroundText   string `json:"backgroundText"`
	EnableAPI        bool   `json:"enableApi"`
	EnableControls   bool   `json:"enableControls"`
	ForceAutoplay    bool   `json:"forceAutoplay"`
	HideTitle        bool   `json:"hideTitle"`
	ForceLoop        bool   `json:"forceLoop"`
}

// store is the service's data; Emulator.mu guards it. Slices keep creation order, which is the
// default order of every list.
type store struct {
	Webhooks     []*Webhook     `json:"webhooks"`
	Videos       []*video       `json:"videos"`
	LiveStreams  []*liveStream  `json:"liveStreams"`
	Players      []*playerTheme `json:"players"`
	UploadTokens []*uploadToken `json:"uploadTokens,omitempty"`
	Watermarks   []*watermark   `json:"watermarks,omitempty"`
	// Discarded are the videos deleted with the Video Restore feature on (discarded_videos_api.go).
	Discarded []*video `json:"discarded,omitempty"`
	// Plays are the views recorded through the control API, which the analytics answer from.
	Plays     []*play    `json:"plays,omitempty"`
	Summaries []*summary `json:"summaries,omitempty"`
}

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// randomID returns prefix followed by n random base62 characters from crypto/rand.
func randomID(prefix string, n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms.
	var sb strings.Builder
	sb.Grow(len(prefix) + n)
	sb.WriteString(prefix)
	for _, c := range b {
		// 248 is the largest multiple of 62 below 256; values above it would bias the
		// alphabet, so they are folded onto a second draw.
		for c >= 248 {
			var one [1]byte
			_, _ = rand.Read(one[:])
			c = one[0]
		}
		sb.WriteByte(base62[c%62])
	}
	return sb.String()
}

// insertWebhookLocked stores a new webhook; the caller holds e.mu.
func (e *Emulator) insertWebhookLocked(rawURL string, names []string) (Webhook, error) {
	if len(e.st.Webhooks) >= e.opts.MaxWebhooks {
		return Webhook{}, ErrWebhookLimit
	}
	w := &Webhook{
		WebhookID:       randomID("webhook_", 22),
		CreatedAt:       e.now().UTC().Truncate(time.Second),
		Events:          slices.Clone(names),
		URL:             rawURL,
		SignatureSecret: randomID("", 32),
	}
	e.st.Webhooks = append(e.st.Webhooks, w)
	return cloneWebhook(w), nil
}

func cloneWebhook(w *Webhook) Webhook {
	c := *w
	c.Events = slices.Clone(w.Events)
	return c
}

// purgeExpiredLocked deletes sandbox videos whose 24 hours have passed. Expiry is checked
// lazily against the emulator's clock: by every read of the videos (withFreshStore), by the
// simulated uploads and recordings, and by a clock advance. It reports whether anything was
// deleted, so the caller can save the state.
//
// Expired upload tokens are deleted the same way: an expired token is gone.
func (e *Emulator) purgeExpiredLocked(now time.Time) bool {
	before := len(e.st.Videos) + len(e.st.UploadTokens)
	e.st.Videos = slices.DeleteFunc(e.st.Videos, func(v *video) bool {
		return !v.ExpiresAt.IsZero() && !now.Before(v.ExpiresAt)
	})
	e.st.UploadTokens = slices.DeleteFunc(e.st.UploadTokens, func(t *uploadToken) bool {
		return !t.ExpiresAt.IsZero() && !now.Before(t.ExpiresAt)
	})
	discarded := e.purgeDiscardedLocked(now)
	orphans := e.dropOrphanSummariesLocked()
	return len(e.st.Videos)+len(e.st.UploadTokens) != before || discarded || orphans
}
