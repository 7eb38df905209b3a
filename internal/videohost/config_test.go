package videohost

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestNewDefaults(t *testing.T) {
	tests := []struct {
		name   string
		cfg    Config
		base   string
		env    string
		scheme string
		ua     string
	}{
		{name: "zero values", cfg: Config{APIKey: "k"}, base: SandboxURL, env: EnvironmentSandbox, scheme: AuthBearer,
			ua: "terraform-provider-videohost/dev"},
		{name: "production", cfg: Config{APIKey: "k", Environment: "production", Version: "1.0.0"}, base: ProductionURL,
			env: EnvironmentProduction, scheme: AuthBearer, ua: "terraform-provider-videohost/1.0.0"},
		{name: "base URL overrides the environment",
			cfg:  Config{APIKey: "k", Environment: "production", BaseURL: "http://127.0.0.1:8080/"},
			base: "http://127.0.0.1:8080", env: EnvironmentProduction, scheme: AuthBearer, ua: "terraform-provider-videohost/dev"},
		{name: "base URL with a path", cfg: Config{APIKey: "k", BaseURL: "https://proxy.test/videohost/", AuthScheme: "basic"},
			base: "https://proxy.test/videohost", env: EnvironmentSandbox, scheme: AuthBasic, ua: "terraform-provider-videohost/dev"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := New(tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if c.BaseURL() != tt.base || c.Environment() != tt.env || c.AuthScheme() != tt.scheme || c.UserAgent() != tt.ua {
				t.Fatalf("got %s %s %s %s", c.BaseURL(), c.Environment(), c.AuthScheme(), c.UserAgent())
			}
			if c.cfg.Timeout != DefaultTimeout || c.cfg.MaxRetries != DefaultMaxRetries || c.cfg.ListTTL != DefaultListTTL {
				t.Fatalf("timeout %s, retries %d, list TTL %s", c.cfg.Timeout, c.cfg.MaxRetries, c.cfg.ListTTL)
			}
		})
	}
	c, err := New(Config{APIKey: "k", Timeout: time.Second, MaxRetries: 2, ListTTL: time.Minute})
	if err != nil || c.cfg.Timeout != time.Second || c.cfg.MaxRetries != 2 || c.cfg.ListTTL != time.Minute {
		t.Fatalf("set values were not kept: %+v, %v", c.cfg, err)
	}
}

func TestNewRejectsInvalidConfig(t *testing.T) {
	tests := []struct {
		name  string
		cfg   Config
		field string
		says  string
	}{
		{"unknown environment", Config{APIKey: "k", Environment: "staging"}, "Environment", `use "sandbox" or "production"`},
		{"environment in capitals", Config{APIKey: "k", Environment: "Production"}, "Environment", "use"},
		{"ftp base URL", Config{APIKey: "k", BaseURL: "ftp://files.test"}, "BaseURL", "not an http or https address"},
		{"relative base URL", Config{APIKey: "k", BaseURL: "/api"}, "BaseURL", "use an absolute http or https address"},
		{"no host", Config{APIKey: "k", BaseURL: "http://"}, "BaseURL", "has no host"},
		{"port only", Config{APIKey: "k", BaseURL: "http://:8080"}, "BaseURL", "has no host"},
		{"user information", Config{APIKey: "k", BaseURL: "https://key:@ws.test"}, "BaseURL", "the API key has a setting of its own"},
		{"query", Config{APIKey: "k", BaseURL: "https://ws.test/?x=1"}, "BaseURL", "query or a fragment"},
		{"unparsable", Config{APIKey: "k", BaseURL: "http://[::1"}, "BaseURL", "cannot be parsed"},
		{"no key", Config{}, "APIKey", "the API key is required"},
		{"no key in production", Config{Environment: "production"}, "APIKey", "key of the production environment"},
		{"key with a newline", Config{APIKey: "k\n"}, "APIKey", "white space"},
		{"unknown scheme", Config{APIKey: "k", AuthScheme: "oauth"}, "AuthScheme", `use "bearer" or "basic"`},
		{"negative timeout", Config{APIKey: "k", Timeout: -time.Second}, "Timeout", "positive duration"},
		{"negative retries", Config{APIKey: "k", MaxRetries: -2}, "MaxRetries", "positive count"},
		{"negative TTL", Config{APIKey: "k", ListTTL: -time.Second}, "ListTTL", "zero for the default"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := New(tt.cfg)
			var ce *ConfigError
			if c != nil || !errors.As(err, &ce) {
				t.Fatalf("New = %v, %v; want a *ConfigError", c, err)
			}
			if ce.Field != tt.field || !strings.Contains(err.Error(), tt.says) || !strings.Contains(err.Error(), tt.field) {
				t.Fatalf("err = %q (field %s), want field %s and %q", err, ce.Field, tt.field, tt.says)
			}
		})
	}
}

func TestCheckBaseURL(t *testing.T) {
	for _, raw := range []string{"https://ws.api.video", "http://127.0.0.1:8080/", "https://proxy.test/videohost/v1"} {
		if err := CheckBaseURL(raw); err != nil {
			t.Errorf("CheckBaseURL(%q) = %v, want nil", raw, err)
		}
		if _, err := New(Config{APIKey: "k", BaseURL: raw}); err != nil {
			t.Errorf("New refuses %q, which CheckBaseURL accepts: %v", raw, err)
		}
	}
	for raw, says := range map[string]string{
		"ftp://files.test":              "not an http or https address",
		"https://ws.test/?":             "query or a fragment",
		"https://ws.test/?x=1":          "query or a fragment",
		"https://ws.test/#":             "query or a fragment",
		"https://ws.test/#top":          "query or a fragment",
		"https://":                      "has no host",
		"https://key-Zq8rT3vW9@ws.test": `"https://REDACTED@ws.test" carries user information`,
		"http://key-Zq8rT3vW9@[::1":     `"REDACTED@[::1" cannot be parsed`,
	} {
		err := CheckBaseURL(raw)
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != "BaseURL" || !strings.Contains(ce.Problem, says) {
			t.Errorf("CheckBaseURL(%q) = %v, want a BaseURL *ConfigError saying %q", raw, err, says)
			continue
		}
		if strings.Contains(err.Error(), "Zq8rT3vW9") {
			t.Errorf("CheckBaseURL(%q) repeats the user information: %v", raw, err)
		}
		if _, nerr := New(Config{APIKey: "k", BaseURL: raw}); nerr == nil || nerr.Error() != err.Error() {
			t.Errorf("New(%q) = %v, want the same refusal as CheckBaseURL", raw, nerr)
		}
	}
}

func TestUploadSettings(t *testing.T) {
	c, err := New(Config{APIKey: "k"})
	// Unset, both stay zero: each upload chooses them (chooseUploadShape).
	if err != nil || c.cfg.UploadChunkSize != 0 || c.cfg.UploadChunksInFlight != 0 {
		t.Fatalf("defaults: %+v, %v", c.cfg, err)
	}
	if c.limiters[ClassUploads] == nil || c.limiters[ClassUploads] == c.limiters[ClassWrites] {
		t.Fatal("the uploads class has no limiter of its own")
	}
	c, err = New(Config{APIKey: "k", UploadChunkSize: MinUploadChunkSize, UploadChunksInFlight: MaxUploadChunksInFlight})
	if err != nil || c.cfg.UploadChunkSize != MinUploadChunkSize || c.cfg.UploadChunksInFlight != MaxUploadChunksInFlight {
		t.Fatalf("bounds refused: %+v, %v", c.cfg, err)
	}
	for _, bad := range []Config{
		{APIKey: "k", UploadChunkSize: MinUploadChunkSize - 1},
		{APIKey: "k", UploadChunkSize: MaxUploadChunkSize + 1},
		{APIKey: "k", UploadChunkSize: -1},
		{APIKey: "k", UploadChunksInFlight: -1},
		{APIKey: "k", UploadChunksInFlight: MaxUploadChunksInFlight + 1},
	} {
		_, err := New(bad)
		var ce *ConfigError
		if !errors.As(err, &ce) || !strings.Contains(ce.Field, "Upload") || !strings.Contains(ce.Problem, "use") {
			t.Errorf("New(%+v) = %v, want a *ConfigError on an upload setting", bad, err)
		}
	}
}

// TestNewKeepsIdleConnectionsForChunks: without a client of the caller's, the transport keeps as
// many idle connections to the service as an upload may have chunks in flight (Go's default is 2,
// which would close and reopen connections between the chunks of 4 or 8 in flight).
func TestNewKeepsIdleConnectionsForChunks(t *testing.T) {
	c, err := New(Config{APIKey: testKey})
	if err != nil {
		t.Fatal(err)
	}
	tr, ok := c.http.Transport.(*http.Transport)
	if !ok || tr == http.DefaultTransport {
		t.Fatalf("transport %T, want a copy of Go's default", c.http.Transport)
	}
	if tr.MaxIdleConnsPerHost < MaxUploadChunksInFlight {
		t.Fatalf("the transport keeps %d idle connections per host, want at least %d", tr.MaxIdleConnsPerHost, MaxUploadChunksInFlight)
	}
}

// TestSettingsBuildsAnEqualClient: what Settings gives builds, through JSON (how the provider
// hands it to another process), a client that sends as the first does; its Logger and
// HTTPClient, which cannot cross, are left out.
func TestSettingsBuildsAnEqualClient(t *testing.T) {
	first, err := New(Config{APIKey: "k", Environment: "production", BaseURL: "http://127.0.0.1:8080/api/",
		AuthScheme: "basic", Version: "1.2.3", Timeout: 7 * time.Second, MaxRetries: NoRetries,
		Logger: nopLogger{}, HTTPClient: &http.Client{}, UploadChunkSize: MinUploadChunkSize, UploadChunksInFlight: 3})
	if err != nil {
		t.Fatal(err)
	}
	s := first.Settings()
	if s.Logger != nil || s.HTTPClient != nil {
		t.Fatalf("Settings kept the Logger or the HTTPClient: %+v", s)
	}
	raw, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back Config
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	second, err := New(back)
	if err != nil {
		t.Fatal(err)
	}
	if second.Settings() != s || second.cfg.MaxRetries != first.cfg.MaxRetries || second.basicAuth != first.basicAuth || second.UserAgent() != first.UserAgent() {
		t.Fatalf("the client built from the settings differs:\n%+v\n%+v", second.cfg, first.cfg)
	}
}
