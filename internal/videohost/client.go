// Package videohost is the API client of the video hosting service. It knows nothing of
// Terraform: it speaks HTTP and JSON, holds the credentials, shares one rate limiter per class
// among all goroutines, retries what is safe to retry and decodes the service's errors.
package videohost

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/url"
	"time"
)

// Environments of the service. Their API keys differ.
const (
	EnvironmentSandbox    = "sandbox"
	EnvironmentProduction = "production"
)

// Default addresses of the two environments.
const (
	ProductionURL = "https://ws.api.video"
	SandboxURL    = "https://sandbox.api.video"
)

// Authentication schemes.
const (
	AuthBearer = "bearer"
	AuthBasic  = "basic"
)

// Rate-limit classes. The client sends GET as a read and every other method as a write.
const (
	ClassReads  = "reads"
	ClassWrites = "writes"
)

// Config is what a Client is built from. Zero values take the documented defaults.
type Config struct {
	// Environment is sandbox (default) or production; it picks the default address.
	Environment string
	// BaseURL overrides the environment's address (absolute http or https URL).
	BaseURL string
	// APIKey is required.
	APIKey string
	// AuthScheme is bearer (default) or basic.
	AuthScheme string
	// Version is put into the user agent: terraform-provider-videohost/<Version>.
	Version string
	// Timeout bounds one HTTP attempt; default 30 s.
	Timeout time.Duration
	// MaxRetries bounds the retries of one call (429, and network errors or 5xx on GET and
	// DELETE); default 5. Zero means the default; NoRetries sends every call once; any other
	// negative value is an error.
	MaxRetries int
	// Logger receives one line per request and per wait; nil discards.
	Logger Logger
	// HTTPClient replaces the default transport (tests); its Timeout is left alone, its
	// CheckRedirect is not: the client never follows a redirect.
	HTTPClient *http.Client
	// WebhookListTTL is how long LookupWebhook may serve answers from one shared list of the
	// webhooks; with zero no list is kept (each lookup reads the webhook, and walks the list,
	// shared with any concurrent lookup, for its secret).
	WebhookListTTL time.Duration
}

// Logger is the small logging interface the client writes to. Fields never hold a key, a
// token, an Authorization header or a signature secret.
type Logger interface {
	Debug(ctx context.Context, msg string, fields map[string]any)
	Info(ctx context.Context, msg string, fields map[string]any)
	Warn(ctx context.Context, msg string, fields map[string]any)
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

	// basicAuth is the Authorization header of the basic scheme, encoded once.
	basicAuth string
	tokens    *tokenSource
	limiters  map[string]*limiter
	webhooks  *webhookCache

	// backoffBase and backoffMax shape the exponential backoff of retried faults; tests
	// shrink them to keep the suite fast.
	backoffBase time.Duration
	backoffMax  time.Duration
	// minRateWait is the shortest wait after a 429, whatever the header says.
	minRateWait time.Duration
}

// New validates cfg and builds a client. Invalid config is an error here, not at the first
// request, so that the provider can report it against the attribute that holds it.
func New(cfg Config) (*Client, error) {
	cfg, base, err := normalize(cfg)
	if err != nil {
		return nil, err
	}
	// The per-attempt timeout is applied through the request's context, so the default client
	// needs none of its own. A client given in cfg is copied, so that the redirect policy is
	// set on the copy and not on the caller's client.
	hc := &http.Client{}
	if cfg.HTTPClient != nil {
		cp := *cfg.HTTPClient
		hc = &cp
	}
	hc.CheckRedirect = noRedirects
	c := &Client{
		cfg:         cfg,
		base:        base,
		http:        hc,
		log:         cfg.Logger,
		userAgent:   "terraform-provider-videohost/" + cfg.Version,
		backoffBase: 300 * time.Millisecond,
		backoffMax:  10 * time.Second,
		minRateWait: time.Second,
	}
	if c.log == nil {
		c.log = nopLogger{}
	}
	c.basicAuth = "Basic " + base64.StdEncoding.EncodeToString([]byte(cfg.APIKey+":"))
	c.tokens = &tokenSource{c: c}
	c.limiters = map[string]*limiter{
		ClassReads:  newLimiter(ClassReads),
		ClassWrites: newLimiter(ClassWrites),
	}
	c.webhooks = &webhookCache{}
	return c, nil
}

// BaseURL is the address the client sends to.
func (c *Client) BaseURL() string { return c.base.String() }

// Environment is sandbox or production.
func (c *Client) Environment() string { return c.cfg.Environment }

// AuthScheme is bearer or basic.
func (c *Client) AuthScheme() string { return c.cfg.AuthScheme }

// UserAgent is the User-Agent header the client sends.
func (c *Client) UserAgent() string { return c.userAgent }
