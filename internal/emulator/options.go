package emulator

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strings"
	"time"
)

// Environment names.
const (
	EnvSandbox    = "sandbox"
	EnvProduction = "production"
)

// Defaults that Options falls back to when a field is left at its zero value.
const (
	DefaultTokenTTL           = time.Hour
	DefaultMaxWebhooks        = 20
	DefaultDocsURL            = "https://docs.api.video/reference"
	DefaultRateWindow         = time.Minute
	DefaultDeliveryRetries    = 3
	DefaultDeliveryRetryDelay = 3 * time.Second
	DefaultDeliveryTimeout    = 5 * time.Second
	DefaultDeliveryWorkers    = 16
	DefaultDeliveryQueue      = 10000
	DefaultIngestDelay        = 500 * time.Millisecond
	DefaultEncodingDelay      = 250 * time.Millisecond
	DefaultDetectedLanguage   = "en"
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
	// ReadErrorRate is the share (0..1) of rate-limited GET and HEAD API requests answered 500,
	// drawn after (and apart from) ErrorRate.
	ReadErrorRate float64
	// CommitThen500Rate is the share (0..1) of creates (POST /webhooks, /live-streams,
	// /players, /videos, /upload-tokens, /watermarks, captions, chapters, logos) and updates
	// (PATCH of live streams, player themes, videos, thumbnails and captions) that store the
	// change and answer 500 all the same. Deletes and source chunks (UploadCommitThen500Rate)
	// are not drawn.
	CommitThen500Rate float64
	// Latency is added before every API answer.
	Latency time.Duration
	// Burst429 answers the next N rate-limited API requests 429.
	Burst429 int
	// UploadCommitThen500Rate is the share (0..1) of source chunks (POST /videos/{id}/source)
	// that are stored and answered 500 all the same.
	UploadCommitThen500Rate float64
	// UploadCuts cuts the connection of the next N source chunks part way through their body:
	// nothing of such a chunk is stored and no answer is sent.
	UploadCuts int
	// UploadCutAfterBytes is how many bytes of a cut chunk's file are read before the cut
	// (default 1 MiB).
	UploadCutAfterBytes int64
}

// Options configure one emulator; zero values take the documented defaults.
type Options struct {
	Environment          string   // sandbox (default) or production
	APIKeys              []string // when empty, one key is generated (see APIKeys())
	OtherEnvironmentKeys []string
	TokenTTL             time.Duration // default 3600 s; rounded up to whole seconds
	MaxWebhooks          int           // default 20
	SecretInResponses    bool          // also put signatureSecret into create and get answers
	DocsURL              string        // default https://docs.api.video/reference
	Limits               Limits
	RateWindow           time.Duration // default 1 minute
	SeedVideos           int
	SeedLiveStreams      int
	DeliveryRetries      int           // default 3; a negative value disables retries
	DeliveryRetryDelay   time.Duration // default 3 s
	DeliveryTimeout      time.Duration // default 5 s
	DeliveryWorkers      int           // deliveries attempted at once; default 16
	DeliveryQueue        int           // deliveries pending at most (the rest is dropped); default 10000
	IngestDelay          time.Duration // each step of a source's ingest; default 500 ms
	EncodingDelay        time.Duration // the encoding of each quality; default 250 ms
	DetectedLanguage     string        // the language "detected" in a source; default en
	// HoldEncoding keeps every complete source as uploaded, its language undetected and no
	// quality encoded, until FinishEncoding runs its ingest and encoding at once: for tests
	// that choose when the service fills a video in instead of racing IngestDelay.
	HoldEncoding bool
	StatePath    string // when set, state is loaded from and saved to this JSON file
	ControlToken string // when set, /_emulator/ requires Authorization: Bearer <token>
	// VideoRestore turns on the Video Restore feature: a deleted video is discarded, kept for
	// DiscardRetention and restorable through /discarded/videos. Off, as for an account without it.
	VideoRestore bool
	// ControlAllowHosts are the Host names that the control API answers beside the address it
	// was reached on and the loopback names; "*" is any (control_guard.go).
	ControlAllowHosts []string
	// ControlAllowOrigins are the Origins (scheme://host[:port]) whose pages may call the control
	// API beside the emulator's own; "*" is any.
	ControlAllowOrigins []string
	Faults              Faults
	Now                 func() time.Time // injectable clock; default time.Now
}

// environmentLimits are the specification's per-minute limits.
var environmentLimits = map[string]Limits{
	EnvSandbox:    {Uploads: 40, Writes: 40, Reads: 100},
	EnvProduction: {Uploads: 100, Writes: 200, Reads: 500},
}

// withDefaults validates opts and fills every zero value with its default; the error joins
// every problem found.
func (o Options) withDefaults() (Options, error) {
	errs := []error{o.defaultEnvironment()}
	errs = append(errs, o.defaultAccount()...)
	errs = append(errs, o.defaultLimits()...)
	errs = append(errs, o.checkSeeds())
	errs = append(errs, o.defaultDeliveries())
	errs = append(errs, o.defaultEncoding())
	errs = append(errs, o.Faults.validate())
	errs = append(errs, o.checkKeys()...)
	if o.Now == nil {
		o.Now = time.Now
	}
	return o, errors.Join(errs...)
}

// defaultEnvironment takes the sandbox when no environment is given.
func (o *Options) defaultEnvironment() error {
	switch o.Environment {
	case "":
		o.Environment = EnvSandbox
	case EnvSandbox, EnvProduction:
	default:
		return fmt.Errorf("environment %q is neither %s nor %s", o.Environment, EnvSandbox, EnvProduction)
	}
	return nil
}

// defaultAccount fills the token lifetime, the webhook limit and the docs address.
func (o *Options) defaultAccount() []error {
	var errs []error
	if o.TokenTTL < 0 {
		errs = append(errs, errors.New("token TTL must not be negative"))
	}
	if o.TokenTTL == 0 {
		o.TokenTTL = DefaultTokenTTL
	}
	// Tokens carry whole seconds (exp and expires_in), so the TTL is rounded up.
	o.TokenTTL = ceilSeconds(o.TokenTTL)
	if o.MaxWebhooks < 0 {
		errs = append(errs, errors.New("max webhooks must not be negative"))
	}
	if o.MaxWebhooks == 0 {
		o.MaxWebhooks = DefaultMaxWebhooks
	}
	if o.DocsURL == "" {
		o.DocsURL = DefaultDocsURL
	} else if u, err := url.Parse(o.DocsURL); err != nil || u.Scheme == "" || u.Host == "" {
		errs = append(errs, fmt.Errorf("docs URL %q is not an absolute URL", o.DocsURL))
	}
	o.DocsURL = strings.TrimRight(o.DocsURL, "/")
	return errs
}

// defaultLimits fills the rate limits with the environment's, and the rate window.
func (o *Options) defaultLimits() []error {
	var errs []error
	def := environmentLimits[o.Environment]
	if o.Limits.Uploads < 0 || o.Limits.Writes < 0 || o.Limits.Reads < 0 {
		errs = append(errs, errors.New("rate limits must not be negative"))
	}
	if o.Limits.Uploads == 0 {
		o.Limits.Uploads = def.Uploads
	}
	if o.Limits.Writes == 0 {
		o.Limits.Writes = def.Writes
	}
	if o.Limits.Reads == 0 {
		o.Limits.Reads = def.Reads
	}
	if o.RateWindow < 0 {
		errs = append(errs, errors.New("rate window must not be negative"))
	}
	if o.RateWindow == 0 {
		o.RateWindow = DefaultRateWindow
	}
	return errs
}

// checkSeeds refuses negative seed counts.
func (o *Options) checkSeeds() error {
	if o.SeedVideos < 0 || o.SeedLiveStreams < 0 {
		return errors.New("seed counts must not be negative")
	}
	return nil
}

// defaultDeliveries fills the retries, their delay, the receivers' time-out, the workers and
// the queue's bound; a negative retry count means none.
func (o *Options) defaultDeliveries() error {
	switch {
	case o.DeliveryRetries == 0:
		o.DeliveryRetries = DefaultDeliveryRetries
	case o.DeliveryRetries < 0:
		o.DeliveryRetries = 0
	}
	if o.DeliveryRetryDelay <= 0 {
		o.DeliveryRetryDelay = DefaultDeliveryRetryDelay
	}
	if o.DeliveryTimeout <= 0 {
		o.DeliveryTimeout = DefaultDeliveryTimeout
	}
	if o.DeliveryWorkers < 0 || o.DeliveryQueue < 0 {
		return errors.New("delivery workers and queue must not be negative")
	}
	o.DeliveryWorkers = cmp.Or(o.DeliveryWorkers, DefaultDeliveryWorkers)
	o.DeliveryQueue = cmp.Or(o.DeliveryQueue, DefaultDeliveryQueue)
	return nil
}

// defaultEncoding fills the delays of ingest and encoding and the detected language.
func (o *Options) defaultEncoding() error {
	if o.IngestDelay < 0 || o.EncodingDelay < 0 {
		return errors.New("ingest and encoding delays must not be negative")
	}
	if o.IngestDelay == 0 {
		o.IngestDelay = DefaultIngestDelay
	}
	if o.EncodingDelay == 0 {
		o.EncodingDelay = DefaultEncodingDelay
	}
	if o.DetectedLanguage == "" {
		o.DetectedLanguage = DefaultDetectedLanguage
	}
	if languageProblem(o.DetectedLanguage) != "" {
		return fmt.Errorf("detected language %q is not a known language tag", o.DetectedLanguage)
	}
	return nil
}

// checkKeys refuses empty keys and a key given for both environments.
func (o *Options) checkKeys() []error {
	var errs []error
	for _, k := range o.APIKeys {
		if k == "" {
			errs = append(errs, errors.New("an API key is empty"))
		}
	}
	for _, k := range o.OtherEnvironmentKeys {
		if k == "" {
			errs = append(errs, errors.New("an other-environment key is empty"))
		}
		if slices.Contains(o.APIKeys, k) {
			errs = append(errs, errors.New("a key is given both for this and for the other environment"))
		}
	}
	return errs
}

// otherEnvironment names the environment that the other-environment keys belong to.
func (o Options) otherEnvironment() string {
	if o.Environment == EnvProduction {
		return EnvSandbox
	}
	return EnvProduction
}

func ceilSeconds(d time.Duration) time.Duration {
	if r := d % time.Second; r != 0 {
		d += time.Second - r
	}
	return d
}

func (f Faults) validate() error {
	var errs []error
	if f.ErrorRate < 0 || f.ErrorRate > 1 || math.IsNaN(f.ErrorRate) {
		errs = append(errs, errors.New("fault error rate must be between 0 and 1"))
	}
	if f.ReadErrorRate < 0 || f.ReadErrorRate > 1 || math.IsNaN(f.ReadErrorRate) {
		errs = append(errs, errors.New("fault read error rate must be between 0 and 1"))
	}
	if f.CommitThen500Rate < 0 || f.CommitThen500Rate > 1 || math.IsNaN(f.CommitThen500Rate) {
		errs = append(errs, errors.New("fault commit-then-500 rate must be between 0 and 1"))
	}
	if f.UploadCommitThen500Rate < 0 || f.UploadCommitThen500Rate > 1 || math.IsNaN(f.UploadCommitThen500Rate) {
		errs = append(errs, errors.New("fault upload commit-then-500 rate must be between 0 and 1"))
	}
	if f.UploadCuts < 0 || f.UploadCutAfterBytes < 0 {
		errs = append(errs, errors.New("fault upload cuts and their byte count must not be negative"))
	}
	if f.Latency < 0 {
		errs = append(errs, errors.New("fault latency must not be negative"))
	}
	if f.Burst429 < 0 {
		errs = append(errs, errors.New("fault 429 burst must not be negative"))
	}
	return errors.Join(errs...)
}
