// Package videohost is the API client of the video hosting service. It knows nothing of
// Terraform: it speaks HTTP and JSON, holds the credentials, shares one rate limiter per class
// among all goroutines, retries what is safe to retry and decodes the service's errors.
//
// The calls live in one file per area of the service's API: videos.go (with video_status.go and
// source_upload.go, the resumable upload of a source, upload_shape.go, the chunks and connections
// it chooses, and upload_hash.go, its bytes hashed as sent), discarded_videos.go, captions.go
// (captions and chapters, their uploads included), summaries.go, tags.go, analytics.go,
// webhooks.go (with delivery_check.go and signature.go, the signatures of deliveries for
// receivers), live_streams.go, players.go (themes and their logos), upload_tokens.go and
// watermarks.go. What every kind's calls share is collection.go (get, list, create, update, delete
// of one collection, the list walked once and shared through list_cache.go), patch_field.go (a
// member of a PATCH body: set, cleared or left) and ids.go (ids checked before they go into a
// path). The request path is in files named for what they do: client.go and config.go (the client
// and its settings), request.go, json_body.go (bodies as sent, and their size), auth.go,
// redirects.go, ratelimit.go and ratelimit_waits.go, errors.go, response_body.go, paginate.go,
// multipart.go, uploads.go (what every upload shares), progress.go, logging.go and redact.go (what
// a log may show), wire_time.go (dates as the service writes them), and kept_bodies.go (webhooks
// and the like read from a body that another tool kept, such as the state of the restapi
// provider). A test file is named after the file it tests; catalogue_test.go in internal/provider
// checks that this list names every file.
package videohost

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// Rate-limit classes. The client sends every multipart request (a video source's chunk, a
// caption, an image) as an upload, GET and HEAD as reads and every other method as a write.
const (
	ClassReads   = "reads"
	ClassWrites  = "writes"
	ClassUploads = "uploads"
)

// RateLimitClasses returns every rate-limit class, in the order RateLimitWaits reports them.
// The client keeps one gate for each, and the provider's documentation names each of them.
func RateLimitClasses() []string {
	return []string{ClassReads, ClassWrites, ClassUploads}
}

// Client is the API client; safe for concurrent use. One Client holds one token pair, one
// rate-limit gate per class and one shared webhook list, so every goroutine of a provider
// should share it.
type Client struct {
	cfg       Config
	base      *url.URL
	http      *http.Client
	log       Logger
	userAgent string

	basicAuth string
	tokens    *tokenSource
	limiters  map[string]*limiter
	// lists holds the shared list of each collection path, a *listCache[T] (see collection.list).
	lists sync.Map
	// listNow is the clock of the shared lists' ListTTL; tests set one they control.
	listNow func() time.Time

	// The backoff of retried faults, and the shortest wait after a 429; tests shrink them.
	backoffBase time.Duration
	backoffMax  time.Duration
	minRateWait time.Duration
	// How often an upload reports its progress.
	progressEvery time.Duration
}

// New validates cfg and builds a client: invalid config is a *ConfigError here, not at the first
// request, so that the provider can report it against the attribute that holds it.
func New(cfg Config) (*Client, error) {
	cfg, base, err := normalize(cfg)
	if err != nil {
		return nil, err
	}
	// The timeout lives in each request's context. A given client is copied, so that the
	// redirect policy is not set on the caller's.
	hc := &http.Client{Transport: defaultTransport()}
	if cfg.HTTPClient != nil {
		cp := *cfg.HTTPClient
		hc = &cp
	}
	hc.CheckRedirect = noRedirects
	c := &Client{
		cfg:           cfg,
		base:          base,
		http:          hc,
		log:           cfg.Logger,
		userAgent:     "terraform-provider-videohost/" + cfg.Version,
		backoffBase:   300 * time.Millisecond,
		backoffMax:    10 * time.Second,
		minRateWait:   time.Second,
		progressEvery: progressEvery,
		listNow:       time.Now,
	}
	if c.log == nil {
		c.log = nopLogger{}
	}
	c.basicAuth = "Basic " + base64.StdEncoding.EncodeToString([]byte(cfg.APIKey+":"))
	c.tokens = &tokenSource{c: c, now: time.Now}
	c.limiters = make(map[string]*limiter, len(RateLimitClasses()))
	for _, class := range RateLimitClasses() {
		c.limiters[class] = newLimiter(class)
	}
	// The chunks of one upload go out together while the uploads limit is still unknown: a
	// probe of one would leave the other connections idle for a whole chunk, seconds over a
	// long path, and the service's smallest uploads limit (40 a window, the sandbox's) is above
	// the most chunks an upload sends together (MaxUploadChunksInFlight), which an upload whose
	// chunks in flight are chosen for it may send.
	uploads := c.limiters[ClassUploads]
	uploads.blind, uploads.lasting = cfg.UploadChunksInFlight, true
	if uploads.blind == 0 {
		uploads.blind = MaxUploadChunksInFlight
	}
	return c, nil
}

// Detached returns a context for finishing, after ctx ended, what the operation had started
// (reconciling an ambiguous create, looking up a new webhook's secret, deleting an ephemeral
// token when Terraform closes it): ctx's values without its cancellation, bounded by the
// configured request timeout plus the longest rate window the client has seen. A follow-up that
// finds its class's window spent (a token's delete after a burst of writes) must be able to wait
// for the next window: bounded by the request timeout alone, it gave up before it could send,
// and the token outlived its run.
func (c *Client) Detached(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), c.cfg.Timeout+c.longestWindow())
}

// longestWindow is the longest rate window any class has announced (its Retry-After), 0 while
// none has.
func (c *Client) longestWindow() time.Duration {
	var w time.Duration
	for _, l := range c.limiters {
		l.mu.Lock()
		w = max(w, l.span)
		l.mu.Unlock()
	}
	return w
}

// BaseURL is the address the client sends to.
func (c *Client) BaseURL() string { return c.base.String() }

// Settings is the configuration the client was built from, with its defaults filled in and
// without its Logger and HTTPClient: what New needs to build an equal client in another process
// (the provider hands the upload tokens that it could not delete in time to one). It holds the
// API key.
func (c *Client) Settings() Config {
	cfg := c.cfg
	cfg.Logger, cfg.HTTPClient = nil, nil
	if cfg.MaxRetries == 0 { // normalized from NoRetries; a zero given to New is the default
		cfg.MaxRetries = NoRetries
	}
	return cfg
}

// Environment is sandbox or production.
func (c *Client) Environment() string { return c.cfg.Environment }

// AuthScheme is bearer or basic.
func (c *Client) AuthScheme() string { return c.cfg.AuthScheme }

// UserAgent is the User-Agent header the client sends.
func (c *Client) UserAgent() string { return c.userAgent }

// idleConnsPerHost is how many idle connections to the service the default transport keeps: as
// many as an upload has chunks in flight, and a few for the calls beside them.
const idleConnsPerHost = MaxUploadChunksInFlight + 4

// defaultTransport is Go's default transport keeping idleConnsPerHost idle connections to the
// service, not 2: a chunk that starts as another ends reuses a connection instead of opening
// one, which over a long path costs round trips and TCP's slow start again.
func defaultTransport() http.RoundTripper {
	t, ok := http.DefaultTransport.(*http.Transport)
	if !ok {
		return http.DefaultTransport
	}
	t = t.Clone()
	t.MaxIdleConnsPerHost = idleConnsPerHost
	return t
}
