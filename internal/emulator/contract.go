// Package emulator is a faithful local implementation of the video hosting service of
// shared/spec/service-api.md: store, auth, rate limits, paging, errors, signed event delivery,
// fault injection and a control API under /_emulator/. It knows neither the client nor
// Terraform.
package emulator

// CONTRACT FILE: written first so that the provider's acceptance tests and the demo can be
// built against the emulator while it is being written. The emulator helper replaces these
// bodies and moves the declarations into files named for what they hold, keeping every exported
// name and signature (adding is fine).

import (
	"net/http"
	"time"
)

// Limits are requests per window for each rate-limit class; zero takes the environment's
// default (sandbox 40/40/100, production 100/200/500).
type Limits struct {
	Uploads, Writes, Reads int
}

// Faults are injected failures, all off by default.
type Faults struct {
	// ErrorRate is the share (0..1) of rate-limited API requests answered 500.
	ErrorRate float64
	// CommitThen500Rate is the share (0..1) of POST /webhooks that store the webhook and
	// answer 500 all the same.
	CommitThen500Rate float64
	// Latency is added before every API answer.
	Latency time.Duration
	// Burst429 answers the next N rate-limited API requests 429.
	Burst429 int
}

// Options configure one emulator; zero values take the documented defaults.
type Options struct {
	Environment          string   // sandbox (default) or production
	APIKeys              []string // when empty, one key is generated (see APIKeys())
	OtherEnvironmentKeys []string
	TokenTTL             time.Duration // default 3600 s
	MaxWebhooks          int           // default 20
	SecretInResponses    bool          // also put signatureSecret into create and get answers
	DocsURL              string        // default https://docs.api.video/reference
	Limits               Limits
	RateWindow           time.Duration // default 1 minute
	SeedVideos           int
	SeedLiveStreams      int
	DeliveryRetries      int           // default 3
	DeliveryRetryDelay   time.Duration // default 3 s
	DeliveryTimeout      time.Duration // default 5 s
	StatePath            string        // when set, state is loaded from and saved to this JSON file
	ControlToken         string        // when set, /_emulator/ requires Authorization: Bearer <token>
	Faults               Faults
	Now                  func() time.Time // injectable clock; default time.Now
}

// Emulator is one service instance; safe for concurrent use.
type Emulator struct{}

// New builds an emulator (loading StatePath when it exists).
func New(opts Options) (*Emulator, error) { panic("contract") }

// ServeHTTP serves the service API and the control API.
func (e *Emulator) ServeHTTP(w http.ResponseWriter, r *http.Request) { panic("contract") }

// APIKeys returns the keys of this environment (the generated one when none was given).
func (e *Emulator) APIKeys() []string { panic("contract") }

// Webhook is the emulator's own record of a webhook (its own wire type, independent of the
// client's).
type Webhook struct {
	WebhookID       string    `json:"webhookId"`
	CreatedAt       time.Time `json:"createdAt"`
	Events          []string  `json:"events"`
	URL             string    `json:"url"`
	SignatureSecret string    `json:"signatureSecret"`
}

// CreateWebhook stores a webhook as if created outside Terraform (control API).
func (e *Emulator) CreateWebhook(url string, events []string) (Webhook, error) { panic("contract") }

// DeleteWebhook removes a webhook as if deleted outside Terraform; false when absent.
func (e *Emulator) DeleteWebhook(id string) bool { panic("contract") }

// Webhooks returns every stored webhook, oldest first.
func (e *Emulator) Webhooks() []Webhook { panic("contract") }

// RequestCount is how many requests of method whose path starts with pathPrefix reached the
// API so far (control API requests are not counted); method "" counts every method.
func (e *Emulator) RequestCount(method, pathPrefix string) int { panic("contract") }

// SetFaults replaces the injected faults.
func (e *Emulator) SetFaults(f Faults) { panic("contract") }

// RevokeTokens makes every access and refresh token issued so far invalid.
func (e *Emulator) RevokeTokens() { panic("contract") }

// Close stops pending deliveries and saves state when StatePath is set.
func (e *Emulator) Close() error { panic("contract") }
