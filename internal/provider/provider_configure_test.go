package provider_test

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// Tests of the provider's configuration: bad input refused with a diagnostic on the attribute.

// providerBadInput are the rows of the provider block; they are the provider's plan-time checks.
func providerBadInput() []acctest.BadInputRow {
	return []acctest.BadInputRow{
		{Name: "provider/unknown environment", ProviderBody: `environment = "staging"`, Config: acctest.OkWebhook,
			Want: `(?s)environment.*value must be one of.*"sandbox".*"production"`, ConfigOnly: true, NoRequest: true},
		{Name: "provider/base_url without scheme", OwnProvider: true, ProviderBody: `base_url = "api.example.test"
  api_key = %[2]q`, Config: acctest.OkWebhook,
			Want: `(?s)Invalid URL.*base_url "api\.example\.test" is not an http or https address: use an absolute http or https address`, ConfigOnly: true, NoRequest: true},
		{Name: "provider/base_url ftp", OwnProvider: true, ProviderBody: `base_url = "ftp://api.example.test"
  api_key = %[2]q`, Config: acctest.OkWebhook,
			Want: `(?s)Invalid URL.*base_url "ftp://api\.example\.test" is not an http or https address`, ConfigOnly: true, NoRequest: true},
		{Name: "provider/base_url without host", OwnProvider: true, ProviderBody: `base_url = "https://"
  api_key = %[2]q`, Config: acctest.OkWebhook,
			Want: `(?s)Invalid URL.*base_url.*has no host`, ConfigOnly: true, NoRequest: true},
		{Name: "provider/base_url with a query", OwnProvider: true, ProviderBody: `base_url = "%[1]s/?version=2"
  api_key = %[2]q`, Config: acctest.OkWebhook,
			Want: `(?s)Invalid URL.*base_url.*carries a query or a fragment: remove it`, ConfigOnly: true, NoRequest: true},
		{Name: "provider/base_url with the key as user", OwnProvider: true, ProviderBody: `base_url = "http://%[2]s@127.0.0.1:1"
  api_key = %[2]q`, Config: acctest.OkWebhook,
			Want: `(?s)Invalid URL.*base_url.*REDACTED@127\.0\.0\.1:1.*carries user information.*remove it.*API key has a setting of its own`, ConfigOnly: true, NoRequest: true},
		{Name: "provider/empty api_key", OwnProvider: true, ProviderBody: `base_url = %[1]q
  api_key = ""`, Config: acctest.OkWebhook,
			Want: `(?s)Missing API Key.*Set the provider attribute api_key or the environment variable VIDEOHOST_API_KEY`, ConfigOnly: true, NoRequest: true},
		{Name: "provider/api_key with a newline", OwnProvider: true, ProviderBody: `base_url = %[1]q
  api_key = "%[2]s\n"`, Config: acctest.OkWebhook,
			Want: `(?s)Invalid Provider Configuration.*white space: remove it`, ConfigOnly: true, NoRequest: true},
		{Name: "provider/unknown auth_scheme", ProviderBody: `auth_scheme = "digest"`, Config: acctest.OkWebhook,
			Want: `(?s)auth_scheme.*value must be one of.*"bearer".*"basic"`, ConfigOnly: true, NoRequest: true},
		{Name: "provider/negative max_retries", ProviderBody: `max_retries = -1`, Config: acctest.OkWebhook,
			Want: `(?s)max_retries.*value must be at least 0`, ConfigOnly: true, NoRequest: true},
		{Name: "provider/unknown attribute", ProviderBody: `timeout = 5`, Config: acctest.OkWebhook,
			Want: `(?s)Unsupported argument.*"timeout" is not expected here`, ConfigOnly: true, NoRequest: true},
	}
}

func TestConfigureBuildsClient(t *testing.T) {
	resp := configure(t, map[string]tftypes.Value{
		"api_key":     acctest.Str("key-1"),
		"environment": acctest.Str("production"),
		"auth_scheme": acctest.Str("basic"),
		"max_retries": tftypes.NewValue(tftypes.Number, 2),
	})
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	pd, ok := resp.ResourceData.(*framework.ProviderData)
	if !ok || pd.Client == nil {
		t.Fatalf("ResourceData = %#v", resp.ResourceData)
	}
	if resp.DataSourceData != pd || resp.EphemeralResourceData != pd {
		t.Error("resources, data sources and ephemeral resources must share one client")
	}
	if pd.Environment != videohost.EnvironmentProduction || pd.BaseURL != videohost.ProductionURL {
		t.Errorf("environment %q at %q, want production at %s", pd.Environment, pd.BaseURL, videohost.ProductionURL)
	}
}

func TestConfigureFromEnvironment(t *testing.T) {
	t.Setenv(framework.EnvAPIKey, "key-from-env")
	t.Setenv(framework.EnvEnvironment, "production")
	t.Setenv(framework.EnvBaseURL, "http://127.0.0.1:9/api")
	resp := configureWithEnv(t, nil)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	pd, ok := resp.ResourceData.(*framework.ProviderData)
	if !ok || pd.Environment != "production" || !strings.HasPrefix(pd.BaseURL, "http://127.0.0.1:9/api") {
		t.Fatalf("ResourceData = %#v", resp.ResourceData)
	}

	// The configuration wins over the environment.
	resp = configureWithEnv(t, map[string]tftypes.Value{"environment": acctest.Str("sandbox"), "base_url": acctest.Str("https://proxy.example.test")})
	pd, ok = resp.ResourceData.(*framework.ProviderData)
	if !ok || pd.Environment != "sandbox" || !strings.HasPrefix(pd.BaseURL, "https://proxy.example.test") {
		t.Fatalf("ResourceData = %#v, %v", resp.ResourceData, resp.Diagnostics)
	}
}

func TestConfigureDefaults(t *testing.T) {
	resp := configure(t, map[string]tftypes.Value{"api_key": acctest.Str("k")})
	pd, ok := resp.ResourceData.(*framework.ProviderData)
	if !ok || pd.Environment != videohost.EnvironmentSandbox || pd.BaseURL != videohost.SandboxURL {
		t.Fatalf("ResourceData = %#v, %v", resp.ResourceData, resp.Diagnostics)
	}
}

func TestConfigureMissingKey(t *testing.T) {
	resp := configure(t, nil)
	errorOn(t, resp.Diagnostics, "api_key", "api_key", framework.EnvAPIKey)
	if resp.ResourceData != nil {
		t.Error("a provider without a key must not hand out a client")
	}
}

func TestConfigureBadEnvironmentVariables(t *testing.T) {
	t.Setenv(framework.EnvAPIKey, "k")
	t.Setenv(framework.EnvEnvironment, "staging")
	t.Setenv(framework.EnvBaseURL, "")
	resp := configureWithEnv(t, nil)
	errorOn(t, resp.Diagnostics, "environment", framework.EnvEnvironment, "staging", "sandbox or production")

	t.Setenv(framework.EnvEnvironment, "")
	t.Setenv(framework.EnvBaseURL, "api.example.test")
	resp = configureWithEnv(t, nil)
	errorOn(t, resp.Diagnostics, "base_url", framework.EnvBaseURL)
}

func TestConfigureClientRefusalOnAttribute(t *testing.T) {
	// A key with a trailing newline passes the schema but not the client.
	resp := configure(t, map[string]tftypes.Value{"api_key": acctest.Str("key\n")})
	errorOn(t, resp.Diagnostics, "api_key", "white space")
}

func TestConfigureUnknownValues(t *testing.T) {
	resp := configure(t, map[string]tftypes.Value{
		"api_key":  tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
		"base_url": acctest.Str("https://api.example.test"),
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
