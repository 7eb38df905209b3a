package videohost

import (
	"errors"
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
		{"zero values", Config{APIKey: "k"}, SandboxURL, EnvironmentSandbox, AuthBearer, "terraform-provider-videohost/dev"},
		{"production", Config{APIKey: "k", Environment: "production", Version: "1.0.0"}, ProductionURL,
			EnvironmentProduction, AuthBearer, "terraform-provider-videohost/1.0.0"},
		{"base URL overrides the environment", Config{APIKey: "k", Environment: "production", BaseURL: "http://127.0.0.1:8080/"},
			"http://127.0.0.1:8080", EnvironmentProduction, AuthBearer, "terraform-provider-videohost/dev"},
		{"base URL with a path", Config{APIKey: "k", BaseURL: "https://proxy.test/videohost/", AuthScheme: "basic"},
			"https://proxy.test/videohost", EnvironmentSandbox, AuthBasic, "terraform-provider-videohost/dev"},
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
			if c.cfg.Timeout != DefaultTimeout || c.cfg.MaxRetries != DefaultMaxRetries {
				t.Fatalf("timeout %s, retries %d", c.cfg.Timeout, c.cfg.MaxRetries)
			}
		})
	}
	c, err := New(Config{APIKey: "k", Timeout: time.Second, MaxRetries: 2, WebhookListTTL: time.Minute})
	if err != nil || c.cfg.Timeout != time.Second || c.cfg.MaxRetries != 2 || c.cfg.WebhookListTTL != time.Minute {
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
		{"user information", Config{APIKey: "k", BaseURL: "https://key:@ws.test"}, "BaseURL", "belongs in APIKey"},
		{"query", Config{APIKey: "k", BaseURL: "https://ws.test/?x=1"}, "BaseURL", "query or a fragment"},
		{"unparsable", Config{APIKey: "k", BaseURL: "http://[::1"}, "BaseURL", "cannot be parsed"},
		{"no key", Config{}, "APIKey", "the API key is required"},
		{"no key in production", Config{Environment: "production"}, "APIKey", "key of the production environment"},
		{"key with a newline", Config{APIKey: "k\n"}, "APIKey", "white space"},
		{"unknown scheme", Config{APIKey: "k", AuthScheme: "oauth"}, "AuthScheme", `use "bearer" or "basic"`},
		{"negative timeout", Config{APIKey: "k", Timeout: -time.Second}, "Timeout", "positive duration"},
		{"negative retries", Config{APIKey: "k", MaxRetries: -2}, "MaxRetries", "positive count"},
		{"negative TTL", Config{APIKey: "k", WebhookListTTL: -time.Second}, "WebhookListTTL", "zero to disable"},
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
