package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// Tests of the provider's configuration: bad input refused with a diagnostic on the attribute.

// providerBadInput are the rows of the provider block; they are the provider's plan-time checks.
func providerBadInput() []badInputRow {
	return []badInputRow{
		{name: "provider/unknown environment", providerBody: `environment = "staging"`, config: okWebhook,
			want: `(?s)environment.*value must be one of.*"sandbox".*"production"`, configOnly: true, noRequest: true},
		{name: "provider/base_url without scheme", ownProvider: true, providerBody: `base_url = "api.example.test"
  api_key = %[2]q`, config: okWebhook,
			want: `(?s)Invalid URL.*base_url "api\.example\.test" is not an http or https address: use an absolute http or https address`, configOnly: true, noRequest: true},
		{name: "provider/base_url ftp", ownProvider: true, providerBody: `base_url = "ftp://api.example.test"
  api_key = %[2]q`, config: okWebhook,
			want: `(?s)Invalid URL.*base_url "ftp://api\.example\.test" is not an http or https address`, configOnly: true, noRequest: true},
		{name: "provider/base_url without host", ownProvider: true, providerBody: `base_url = "https://"
  api_key = %[2]q`, config: okWebhook,
			want: `(?s)Invalid URL.*base_url.*has no host`, configOnly: true, noRequest: true},
		{name: "provider/base_url with a query", ownProvider: true, providerBody: `base_url = "%[1]s/?version=2"
  api_key = %[2]q`, config: okWebhook,
			want: `(?s)Invalid URL.*base_url.*carries a query or a fragment: remove it`, configOnly: true, noRequest: true},
		{name: "provider/base_url with the key as user", ownProvider: true, providerBody: `base_url = "http://%[2]s@127.0.0.1:1"
  api_key = %[2]q`, config: okWebhook,
			want: `(?s)Invalid URL.*base_url.*REDACTED@127\.0\.0\.1:1.*carries user information.*remove it.*API key has a setting of its own`, configOnly: true, noRequest: true},
		{name: "provider/empty api_key", ownProvider: true, providerBody: `base_url = %[1]q
  api_key = ""`, config: okWebhook,
			want: `(?s)Missing API Key.*Set the provider attribute api_key or the environment variable VIDEOHOST_API_KEY`, configOnly: true, noRequest: true},
		{name: "provider/api_key with a newline", ownProvider: true, providerBody: `base_url = %[1]q
  api_key = "%[2]s\n"`, config: okWebhook,
			want: `(?s)Invalid Provider Configuration.*white space: remove it`, configOnly: true, noRequest: true},
		{name: "provider/unknown auth_scheme", providerBody: `auth_scheme = "digest"`, config: okWebhook,
			want: `(?s)auth_scheme.*value must be one of.*"bearer".*"basic"`, configOnly: true, noRequest: true},
		{name: "provider/negative max_retries", providerBody: `max_retries = -1`, config: okWebhook,
			want: `(?s)max_retries.*value must be at least 0`, configOnly: true, noRequest: true},
		{name: "provider/unknown attribute", providerBody: `timeout = 5`, config: okWebhook,
			want: `(?s)Unsupported argument.*"timeout" is not expected here`, configOnly: true, noRequest: true},
	}
}

func TestConfigureBuildsClient(t *testing.T) {
	resp := configure(t, map[string]tftypes.Value{
		"api_key":     str("key-1"),
		"environment": str("production"),
		"auth_scheme": str("basic"),
		"max_retries": tftypes.NewValue(tftypes.Number, 2),
	})
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	pd, ok := resp.ResourceData.(*providerData)
	if !ok || pd.client == nil {
		t.Fatalf("ResourceData = %#v", resp.ResourceData)
	}
	if resp.DataSourceData != pd || resp.EphemeralResourceData != pd {
		t.Error("resources, data sources and ephemeral resources must share one client")
	}
	if pd.environment != videohost.EnvironmentProduction || pd.baseURL != videohost.ProductionURL {
		t.Errorf("environment %q at %q, want production at %s", pd.environment, pd.baseURL, videohost.ProductionURL)
	}
}

func TestConfigureFromEnvironment(t *testing.T) {
	t.Setenv(envAPIKey, "key-from-env")
	t.Setenv(envEnvironment, "production")
	t.Setenv(envBaseURL, "http://127.0.0.1:9/api")
	resp := configureWithEnv(t, nil)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	pd, ok := resp.ResourceData.(*providerData)
	if !ok || pd.environment != "production" || !strings.HasPrefix(pd.baseURL, "http://127.0.0.1:9/api") {
		t.Fatalf("ResourceData = %#v", resp.ResourceData)
	}

	// The configuration wins over the environment.
	resp = configureWithEnv(t, map[string]tftypes.Value{"environment": str("sandbox"), "base_url": str("https://proxy.example.test")})
	pd, ok = resp.ResourceData.(*providerData)
	if !ok || pd.environment != "sandbox" || !strings.HasPrefix(pd.baseURL, "https://proxy.example.test") {
		t.Fatalf("ResourceData = %#v, %v", resp.ResourceData, resp.Diagnostics)
	}
}

func TestConfigureDefaults(t *testing.T) {
	resp := configure(t, map[string]tftypes.Value{"api_key": str("k")})
	pd, ok := resp.ResourceData.(*providerData)
	if !ok || pd.environment != videohost.EnvironmentSandbox || pd.baseURL != videohost.SandboxURL {
		t.Fatalf("ResourceData = %#v, %v", resp.ResourceData, resp.Diagnostics)
	}
}

func TestConfigureMissingKey(t *testing.T) {
	resp := configure(t, nil)
	errorOn(t, resp.Diagnostics, "api_key", "api_key", envAPIKey)
	if resp.ResourceData != nil {
		t.Error("a provider without a key must not hand out a client")
	}
}

func TestConfigureBadEnvironmentVariables(t *testing.T) {
	t.Setenv(envAPIKey, "k")
	t.Setenv(envEnvironment, "staging")
	t.Setenv(envBaseURL, "")
	resp := configureWithEnv(t, nil)
	errorOn(t, resp.Diagnostics, "environment", envEnvironment, "staging", "sandbox or production")

	t.Setenv(envEnvironment, "")
	t.Setenv(envBaseURL, "api.example.test")
	resp = configureWithEnv(t, nil)
	errorOn(t, resp.Diagnostics, "base_url", envBaseURL)
}

func TestConfigureClientRefusalOnAttribute(t *testing.T) {
	// A key with a trailing newline passes the schema but not the client.
	resp := configure(t, map[string]tftypes.Value{"api_key": str("key\n")})
	errorOn(t, resp.Diagnostics, "api_key", "white space")
}

func TestConfigureUnknownValues(t *testing.T) {
	resp := configure(t, map[string]tftypes.Value{
		"api_key":  tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
		"base_url": str("https://api.example.test"),
	})
	if resp.Diagnostics.HasError() {
		t.Fatalf("an unknown value must not fail the plan: %v", resp.Diagnostics)
	}
	if resp.Diagnostics.WarningsCount() != 1 || !strings.Contains(resp.Diagnostics.Warnings()[0].Detail(), "api_key") {
		t.Errorf("want one warning naming api_key, got %v", resp.Diagnostics)
	}
	if resp.ResourceData != nil || resp.DataSourceData != nil {
		t.Error("no client may be handed out before the values are known")
	}
}
