// Package videohost is the API client of the video hosting service. It knows nothing of
// Terraform: it speaks HTTP and JSON, holds the credentials, shares one rate limiter per class
// among all goroutines, retries what is safe to retry and decodes the service's errors.
package videohost

import (
	"context"
	"errors"
	"net/http"
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
	// DELETE); default 5. Zero means the default; a negative value is an error.
	MaxRetries int
	// Logger receives one line per request and per wait; nil discards.
	Logger Logger
	// HTTPClient replaces the default transport (tests); its Timeout is left alone.
	HTTPClient *http.Client
	// WebhookListTTL is how long LookupWebhook may serve answers from one shared list of the
	// webhooks; zero disables the shared list.
	WebhookListTTL time.Duration
}

// Logger is the small logging interface the client writes to. Fields never hold a key, a
// token, an Authorization header or a signature secret.
type Logger interface {
	Debug(ctx context.Context, msg string, fields map[string]any)
	Info(ctx context.Context, msg string, fields map[string]any)
	Warn(ctx context.Context, msg string, fields map[string]any)
}

// Sentinel errors for errors.Is.
var (
	ErrNotFound     = errors.New("videohost: not found")
	ErrUnauthorized = errors.New("videohost: unauthorized")
	ErrRateLimited  = errors.New("videohost: rate limited")
	// ErrAmbiguous marks a write that failed after it may have reached the server: it may or
	// may not have been committed, and it was not re-sent.
	ErrAmbiguous = errors.New("videohost: outcome unknown")
)
