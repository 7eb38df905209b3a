package videohost

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

var _ error = (*ConfigError)(nil)

// Environments of the service. Their API keys differ.
const (
	EnvironmentSandbox    = "sandbox"
	EnvironmentProduction = "production"
)

const (
	ProductionURL = "https://ws.api.video"
	SandboxURL    = "https://sandbox.api.video"
)

const (
	AuthBearer = "bearer"
	AuthBasic  = "basic"
)

// Config is what a Client is built from. Zero values take the documented defaults.
type Config struct {
	Environment string // sandbox (default) or production; picks the default address
	BaseURL     string // overrides the environment's address
	APIKey      string // required
	AuthScheme  string // bearer (default) or basic
	Version     string // put into the user agent
	// Timeout bounds one HTTP attempt, and the follow-up of a cancelled operation (Detached).
	Timeout time.Duration
	// MaxRetries bounds the retries of one call (429, and network errors or 5xx on GET and
	// DELETE); NoRetries sends every call once.
	MaxRetries int
	Logger     Logger `json:"-"` // nil discards; never crosses to another process (Settings)
	// HTTPClient replaces the default transport; its CheckRedirect is replaced: the client
	// never follows a redirect.
	HTTPClient *http.Client `json:"-"`
	// ListTTL is how long the lookups of a kind (LookupWebhook, LookupLiveStream,
	// LookupPlayerTheme) are served from one shared list of that kind.
	ListTTL time.Duration
	// UploadChunkSize is the size of one chunk of a video source, MinUploadChunkSize to
	// MaxUploadChunkSize (the service's bounds of a chunk that is not the last); zero lets each
	// upload choose it for its file and the uploads limit (see chooseUploadShape).
	UploadChunkSize int64
	// UploadChunksInFlight is how many chunks of one source are sent together, 1 to
	// MaxUploadChunksInFlight; zero lets each upload choose it (see chooseUploadShape).
	UploadChunksInFlight int
}

// Defaults of the zero values of Config.
const (
	DefaultTimeout    = 30 * time.Second
	DefaultMaxRetries = 5
	DefaultVersion    = "dev"
	// Long enough to cover the refresh of one plan over thousands of objects, which Terraform
	// spreads over a minute or more (3,000 objects took 68 s on a loaded 2-core machine, and a
	// list that expired midway was walked twice). The next plan still sees changes made outside
	// Terraform: Terraform configures the provider anew, hence a new client and new lists, for
	// every plan and every apply, and a write of this client empties its kind's list at once.
	DefaultListTTL = 5 * time.Minute
)

// The bounds of the upload settings: the service's smallest chunk that is not the last, its
// largest chunk, and a number of parallel chunks beyond which only the rate limit is felt.
const (
	MinUploadChunkSize      = 5 << 20
	MaxUploadChunkSize      = 200 << 20
	MaxUploadChunksInFlight = 16
)

// NoRetries is the MaxRetries that sends every call once: zero means the default.
const NoRetries = -1

// ConfigError is an invalid Config. Field names the Config field at fault, so that a caller can
// point its own user at the setting that holds it.
type ConfigError struct {
	Field   string
	Problem string // what is wrong and what to do
}

func (e *ConfigError) Error() string {
	return "videohost: invalid " + e.Field + ": " + e.Problem
}

// normalize applies the defaults and checks every field.
func normalize(cfg Config) (Config, *url.URL, error) {
	if err := cfg.account(); err != nil {
		return cfg, nil, err
	}
	raw := cfg.BaseURL
	if raw == "" {
		raw = SandboxURL
		if cfg.Environment == EnvironmentProduction {
			raw = ProductionURL
		}
	}
	base, err := parseBaseURL(raw)
	if err != nil {
		return cfg, nil, err
	}
	cfg.BaseURL = base.String()
	if cfg.Version == "" {
		cfg.Version = DefaultVersion
	}
	if err := cfg.limits(); err != nil {
		return cfg, nil, err
	}
	return cfg, base, nil
}

// account checks and defaults who the client is and how it proves it: the environment, the
// API key and the authentication scheme.
func (cfg *Config) account() error {
	if err := oneOf("Environment", "an environment", &cfg.Environment, EnvironmentSandbox, EnvironmentProduction); err != nil {
		return err
	}
	switch {
	case cfg.APIKey == "":
		return &ConfigError{Field: "APIKey", Problem: fmt.Sprintf(
			"the API key is required: set the key of the %s environment, taken from the dashboard "+
				"(sandbox and production keys differ)", cfg.Environment)}
	case strings.TrimSpace(cfg.APIKey) != cfg.APIKey:
		return &ConfigError{Field: "APIKey", Problem: "the API key starts or ends with " +
			"white space: remove it (a copied key often carries a trailing newline)"}
	}
	return oneOf("AuthScheme", "an authentication scheme", &cfg.AuthScheme, AuthBearer, AuthBasic)
}

// oneOf checks a setting that takes one of two values, the first being the default of empty.
// what names the setting with its article, for the message.
func oneOf(field, what string, v *string, byDefault, other string) error {
	switch *v {
	case "":
		*v = byDefault
	case byDefault, other:
	default:
		return &ConfigError{Field: field, Problem: fmt.Sprintf(
			"%q is not %s of the service: use %q or %q", *v, what, byDefault, other)}
	}
	return nil
}

func (cfg *Config) limits() error {
	if err := durationOrDefault("Timeout", &cfg.Timeout, DefaultTimeout); err != nil {
		return err
	}
	switch {
	case cfg.MaxRetries == NoRetries:
		cfg.MaxRetries = 0
	case cfg.MaxRetries < 0:
		return &ConfigError{Field: "MaxRetries", Problem: fmt.Sprintf(
			"%d is negative: use a positive count, zero for the default %d, or NoRetries", cfg.MaxRetries, DefaultMaxRetries)}
	case cfg.MaxRetries == 0:
		cfg.MaxRetries = DefaultMaxRetries
	}
	if err := durationOrDefault("ListTTL", &cfg.ListTTL, DefaultListTTL); err != nil {
		return err
	}
	return cfg.uploads()
}

// uploads checks the chunking of video sources; zero is left as it is: the choice of each upload.
func (cfg *Config) uploads() error {
	if n := cfg.UploadChunkSize; n != 0 && (n < MinUploadChunkSize || n > MaxUploadChunkSize) {
		return &ConfigError{Field: "UploadChunkSize", Problem: fmt.Sprintf(
			"%d bytes is outside the service's bounds of a chunk: use %d (5 MiB) to %d (200 MiB), "+
				"or zero to let each upload choose for its file and the uploads rate limit",
			n, MinUploadChunkSize, MaxUploadChunkSize)}
	}
	if n := cfg.UploadChunksInFlight; n < 0 || n > MaxUploadChunksInFlight {
		return &ConfigError{Field: "UploadChunksInFlight", Problem: fmt.Sprintf(
			"%d is not a number of parallel chunks: use 1 to %d, "+
				"or zero to let each upload choose for its file and the uploads rate limit",
			n, MaxUploadChunksInFlight)}
	}
	return nil
}

// durationOrDefault checks a duration setting whose zero means byDefault.
func durationOrDefault(field string, d *time.Duration, byDefault time.Duration) error {
	switch {
	case *d < 0:
		return &ConfigError{Field: field, Problem: fmt.Sprintf(
			"%s is negative: use a positive duration, or zero for the default %s", *d, byDefault)}
	case *d == 0:
		*d = byDefault
	}
	return nil
}

// CheckBaseURL returns a *ConfigError (Field "BaseURL") when raw cannot be the address of the
// API, and nil when New would accept it: an absolute http or https address with a host, without
// user information, query (a bare "?" included) or fragment.
func CheckBaseURL(raw string) error {
	_, err := parseBaseURL(raw)
	return err
}

// parseBaseURL is CheckBaseURL returning the address, without a trailing slash. User information
// is never quoted: a key pasted into the address would be there.
func parseBaseURL(raw string) (*url.URL, error) {
	shown := raw
	bad := func(why string) error {
		return &ConfigError{Field: "BaseURL", Problem: fmt.Sprintf(
			"%q %s: use an absolute http or https address such as %s", shown, why, SandboxURL)}
	}
	u, err := url.Parse(raw)
	if err != nil {
		if i := strings.LastIndex(raw, "@"); i >= 0 {
			shown = "REDACTED@" + raw[i+1:]
		}
		return nil, bad("cannot be parsed")
	}
	if u.User != nil {
		cp := *u
		cp.User = url.User("REDACTED")
		shown = cp.String()
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, bad("is not an http or https address")
	case u.Host == "" || u.Hostname() == "":
		return nil, bad("has no host")
	case u.User != nil:
		return nil, bad("carries user information before the host: remove it (the API key has a setting of its own)")
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.Contains(raw, "#"):
		return nil, bad("carries a query or a fragment: remove it, the client adds the paths and queries of the API")
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u, nil
}
