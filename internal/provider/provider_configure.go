package provider

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// Configure builds the client from the provider block and the environment variables, and
// hands it to every resource, data source and ephemeral resource.
func (p *VideohostProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if unknown := unknownAttributes(cfg); len(unknown) > 0 {
		deferConfigure(req, resp, unknown)
		return
	}

	ccfg := clientConfigFrom(cfg, &resp.Diagnostics)
	ctx = tflog.MaskFieldValuesWithFieldKeys(ctx, "api_key")
	if ccfg.APIKey != "" {
		ctx = tflog.MaskAllFieldValuesStrings(ctx, ccfg.APIKey)
		ctx = tflog.MaskMessageStrings(ctx, ccfg.APIKey)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	ccfg.Version = p.version
	ccfg.Logger = NewTFLogLogger(ccfg.APIKey)
	client, err := videohost.New(ccfg)
	if err != nil {
		addClientConfigDiagnostics(&resp.Diagnostics, err)
		return
	}

	pd := &framework.ProviderData{Client: client, Environment: client.Environment(), BaseURL: client.BaseURL()}
	pd.Labels = DefaultLabelsFrom(ctx, cfg.labelsConfig(), &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	tflog.Debug(ctx, "videohost client configured", map[string]any{
		"environment": pd.Environment,
		"base_url":    pd.BaseURL,
		"auth_scheme": ccfg.AuthScheme,
		"max_retries": ccfg.MaxRetries,
	})
	resp.ResourceData = pd
	resp.DataSourceData = pd
	resp.EphemeralResourceData = pd
	resp.ListResourceData = pd
	resp.ActionData = pd
}

// ValidateConfig refuses, when the plan is validated, an ignore rule that hides one of the
// provider's own defaults; Configure checks it again once variables are known.
func (p *VideohostProvider) ValidateConfig(ctx context.Context, req provider.ValidateConfigRequest, resp *provider.ValidateConfigResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	c := cfg.labelsConfig()
	if c.IgnoreTags.IsUnknown() || c.IgnoreMetadataKeys.IsUnknown() {
		return // Configure says so when the plan is made.
	}
	var ignored diag.Diagnostics
	CheckIgnoreRules(DefaultLabelsFrom(ctx, c, &ignored), &resp.Diagnostics)
}

// labelsConfig is the part of the provider's configuration that DefaultLabelsFrom reads.
func (cfg providerModel) labelsConfig() DefaultLabelsConfig {
	return DefaultLabelsConfig{DefaultTags: cfg.DefaultTags, DefaultMetadata: cfg.DefaultMetadata,
		IgnoreTags: cfg.IgnoreTags, IgnoreMetadataKeys: cfg.IgnoreMetadataKeys}
}

// deferConfigure handles a provider block with values that another resource computes, which
// are not known until apply. The provider cannot build a client yet; it leaves the data of
// resources empty so they defer their calls, and says so once instead of failing the plan.
func deferConfigure(req provider.ConfigureRequest, resp *provider.ConfigureResponse, unknown []string) {
	if req.ClientCapabilities.DeferralAllowed {
		resp.Deferred = &provider.Deferred{Reason: provider.DeferredReasonProviderConfigUnknown}
		return
	}
	resp.Diagnostics.AddWarning("Provider Configuration Not Yet Known",
		fmt.Sprintf("The provider attributes %v depend on values known only after apply, so the videohost "+
			"provider cannot contact the service during this plan. Resources and data sources that need it "+
			"report an error until the values are known; apply the resources they depend on first "+
			"(terraform apply -target=...) if that happens.", unknown))
}

// clientConfigFrom is the client's configuration from the provider block, the environment
// variables and the defaults, with an attribute error for each value that cannot be used.
func clientConfigFrom(cfg providerModel, diags *diag.Diagnostics) videohost.Config {
	c := videohost.Config{
		APIKey:      stringOrEnv(cfg.APIKey, framework.EnvAPIKey),
		Environment: videohost.EnvironmentSandbox,
		BaseURL:     stringOrEnv(cfg.BaseURL, framework.EnvBaseURL),
		AuthScheme:  videohost.AuthBearer,
		MaxRetries:  videohost.DefaultMaxRetries,
	}
	if c.APIKey == "" {
		diags.AddAttributeError(path.Root("api_key"), "Missing API Key",
			"Set the provider attribute api_key or the environment variable "+framework.EnvAPIKey+
				" to an API key of the workspace (the sandbox and production keys differ).")
	}
	if v := stringOrEnv(cfg.Environment, framework.EnvEnvironment); v != "" {
		c.Environment = v
	}
	if c.Environment != videohost.EnvironmentSandbox && c.Environment != videohost.EnvironmentProduction {
		// Only the environment variable can get here: the attribute is validated at plan time.
		diags.AddAttributeError(path.Root("environment"), "Invalid Environment",
			fmt.Sprintf("The environment variable %s is %q; set it to sandbox or production, or set the "+
				"provider attribute environment.", framework.EnvEnvironment, c.Environment))
	}
	if c.BaseURL != "" && cfg.BaseURL.IsNull() {
		// Only the environment variable can get here, as above.
		if why := framework.BaseURLProblem(c.BaseURL); why != "" {
			diags.AddAttributeError(path.Root("base_url"), "Invalid Base URL",
				fmt.Sprintf("The environment variable %s %s. Correct or unset it, or set the provider attribute "+
					"base_url.", framework.EnvBaseURL, why))
		}
	}
	if !cfg.AuthScheme.IsNull() {
		c.AuthScheme = cfg.AuthScheme.ValueString()
	}
	if !cfg.MaxRetries.IsNull() {
		c.MaxRetries = int(cfg.MaxRetries.ValueInt64())
	}
	if !cfg.UploadChunkSizeMiB.IsNull() {
		c.UploadChunkSize = cfg.UploadChunkSizeMiB.ValueInt64() << 20
	}
	if !cfg.UploadChunksInFlight.IsNull() {
		c.UploadChunksInFlight = int(cfg.UploadChunksInFlight.ValueInt64())
	}
	if c.MaxRetries == 0 {
		// The client reads a zero as "use the default"; the user asked for no retries.
		c.MaxRetries = videohost.NoRetries
	}
	return c
}

// addClientConfigDiagnostics reports a configuration that the client refused, on the
// attribute that set the value when the client names it.
func addClientConfigDiagnostics(diags *diag.Diagnostics, err error) {
	detail := "Correct the provider configuration; the client of the service refused it: " + err.Error()
	var cfgErr *videohost.ConfigError
	if errors.As(err, &cfgErr) {
		if attr, ok := configFieldAttributes[cfgErr.Field]; ok {
			diags.AddAttributeError(path.Root(attr), "Invalid Provider Configuration", detail)
			return
		}
	}
	diags.AddError("Invalid Provider Configuration", detail)
}

// configFieldAttributes maps the fields of the client's Config to the provider attributes
// that set them, so that a value the client refuses is reported on its attribute.
var configFieldAttributes = map[string]string{
	"APIKey":      "api_key",
	"Environment": "environment",
	"BaseURL":     "base_url",
	"AuthScheme":  "auth_scheme",
	"MaxRetries":  "max_retries",
	// The client names the field of its Config; the provider's attribute is in MiB.
	"UploadChunkSize":      "upload_chunk_size_mib",
	"UploadChunksInFlight": "upload_chunks_in_flight",
}

// unknownAttributes names the attributes whose values are not known yet.
func unknownAttributes(cfg providerModel) []string {
	var names []string
	for name, v := range map[string]interface{ IsUnknown() bool }{
		"api_key":                 cfg.APIKey,
		"environment":             cfg.Environment,
		"base_url":                cfg.BaseURL,
		"auth_scheme":             cfg.AuthScheme,
		"max_retries":             cfg.MaxRetries,
		"upload_chunk_size_mib":   cfg.UploadChunkSizeMiB,
		"upload_chunks_in_flight": cfg.UploadChunksInFlight,
	} {
		if v.IsUnknown() {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// stringOrEnv returns the configured value, or the environment variable when it is not set.
func stringOrEnv(v types.String, env string) string {
	if !v.IsNull() {
		return v.ValueString()
	}
	return os.Getenv(env)
}
