package provider

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

var (
	_ provider.Provider                       = (*videohostProvider)(nil)
	_ provider.ProviderWithFunctions          = (*videohostProvider)(nil)
	_ provider.ProviderWithEphemeralResources = (*videohostProvider)(nil)
)

// Environment variables read when the matching attribute is not set.
const (
	envAPIKey      = "VIDEOHOST_API_KEY"
	envEnvironment = "VIDEOHOST_ENVIRONMENT"
	envBaseURL     = "VIDEOHOST_BASE_URL"
)

const (
	// webhookListTTL is how long one list of the webhooks answers the reads of a plan. It is
	// short enough that the next plan sees changes made outside Terraform, and long enough to
	// cover the refresh of one plan over many webhooks.
	webhookListTTL = 10 * time.Second
)

// videohostProvider is the provider; version is the release version, put into the user agent.
type videohostProvider struct {
	version string
}

type providerModel struct {
	APIKey      types.String `tfsdk:"api_key"`
	Environment types.String `tfsdk:"environment"`
	BaseURL     types.String `tfsdk:"base_url"`
	AuthScheme  types.String `tfsdk:"auth_scheme"`
	MaxRetries  types.Int64  `tfsdk:"max_retries"`
}

// New returns the constructor of the provider that providerserver.Serve and the tests use.
func New(version string) func() provider.Provider {
	return func() provider.Provider {
		return &videohostProvider{version: version}
	}
}

func (p *videohostProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "videohost"
	resp.Version = p.version
}

func (p *videohostProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The videohost provider manages the webhooks of the video hosting service " +
			"and reads its videos and live streams.",
		Attributes: map[string]schema.Attribute{
			"api_key": schema.StringAttribute{
				MarkdownDescription: "API key of the workspace. Sandbox and production keys differ. " +
					"No default: required, unless the environment variable `" + envAPIKey + "` is set. " +
					"Keep it out of source trees: prefer the environment variable.",
				Optional:  true,
				Sensitive: true,
			},
			"environment": schema.StringAttribute{
				MarkdownDescription: "Environment of the service: `sandbox` or `production`. It picks the " +
					"default address (`" + videohost.SandboxURL + "` or `" + videohost.ProductionURL + "`). " +
					"Defaults to the environment variable `" + envEnvironment + "`, then to `sandbox`.",
				Optional:   true,
				Validators: []validator.String{stringvalidator.OneOf(videohost.EnvironmentSandbox, videohost.EnvironmentProduction)},
			},
			"base_url": schema.StringAttribute{
				MarkdownDescription: "Absolute http or https address of the API; overrides the address of the " +
					"`environment` (for a local emulator or a proxy). Defaults to the environment variable `" +
					envBaseURL + "`, then to the address of the environment.",
				Optional:   true,
				Validators: []validator.String{baseURLValidator{}},
			},
			"auth_scheme": schema.StringAttribute{
				MarkdownDescription: "How requests are authenticated: `bearer` (an access token obtained with " +
					"the API key and refreshed before it expires) or `basic` (the API key on every request). " +
					"Defaults to `bearer`. No environment variable.",
				Optional:   true,
				Validators: []validator.String{stringvalidator.OneOf(videohost.AuthBearer, videohost.AuthBasic)},
			},
			"max_retries": schema.Int64Attribute{
				MarkdownDescription: fmt.Sprintf("How many times one call is retried after a rate limit (429), "+
					"and, for reads and deletes, after a network error or a server error. Must be 0 or more; "+
					"`0` sends every call once. Defaults to `%d`. No environment variable.", videohost.DefaultMaxRetries),
				Optional:   true,
				Validators: []validator.Int64{int64validator.AtLeast(0)},
			},
		},
	}
}

func (p *videohostProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}

	if unknown := unknownAttributes(cfg); len(unknown) > 0 {
		// A value that another resource computes is not known until apply. The provider cannot
		// build a client yet; it leaves the data of resources empty so they defer their calls,
		// and says so once instead of failing the plan.
		if req.ClientCapabilities.DeferralAllowed {
			resp.Deferred = &provider.Deferred{Reason: provider.DeferredReasonProviderConfigUnknown}
			return
		}
		resp.Diagnostics.AddWarning("Provider Configuration Not Yet Known",
			fmt.Sprintf("The provider attributes %v depend on values known only after apply, so the videohost "+
				"provider cannot contact the service during this plan. Resources and data sources that need it "+
				"report an error until the values are known; apply the resources they depend on first "+
				"(terraform apply -target=...) if that happens.", unknown))
		return
	}

	apiKey := stringOrEnv(cfg.APIKey, envAPIKey)
	if apiKey == "" {
		resp.Diagnostics.AddAttributeError(path.Root("api_key"), "Missing API Key",
			"Set the provider attribute api_key or the environment variable "+envAPIKey+
				" to an API key of the workspace (the sandbox and production keys differ).")
	}
	ctx = tflog.MaskFieldValuesWithFieldKeys(ctx, "api_key")
	if apiKey != "" {
		ctx = tflog.MaskAllFieldValuesStrings(ctx, apiKey)
		ctx = tflog.MaskMessageStrings(ctx, apiKey)
	}

	environment := videohost.EnvironmentSandbox
	if v := stringOrEnv(cfg.Environment, envEnvironment); v != "" {
		environment = v
	}
	if environment != videohost.EnvironmentSandbox && environment != videohost.EnvironmentProduction {
		// Only the environment variable can get here: the attribute is validated at plan time.
		resp.Diagnostics.AddAttributeError(path.Root("environment"), "Invalid Environment",
			fmt.Sprintf("The environment variable %s is %q; set it to sandbox or production, or set the "+
				"provider attribute environment.", envEnvironment, environment))
	}

	baseURL := stringOrEnv(cfg.BaseURL, envBaseURL)
	if baseURL != "" && cfg.BaseURL.IsNull() {
		if msg := checkBaseURL(baseURL); msg != "" {
			resp.Diagnostics.AddAttributeError(path.Root("base_url"), "Invalid Base URL",
				fmt.Sprintf("The environment variable %s must be an absolute http or https URL: %s. "+
					"Correct or unset it, or set the provider attribute base_url.", envBaseURL, msg))
		}
	}

	authScheme := videohost.AuthBearer
	if !cfg.AuthScheme.IsNull() {
		authScheme = cfg.AuthScheme.ValueString()
	}
	maxRetries := videohost.DefaultMaxRetries
	if !cfg.MaxRetries.IsNull() {
		maxRetries = int(cfg.MaxRetries.ValueInt64())
	}
	if maxRetries == 0 {
		// The client reads a zero as "use the default"; the user asked for no retries.
		maxRetries = videohost.NoRetries
	}
	if resp.Diagnostics.HasError() {
		return
	}

	client, err := videohost.New(videohost.Config{
		Environment:    environment,
		BaseURL:        baseURL,
		APIKey:         apiKey,
		AuthScheme:     authScheme,
		Version:        p.version,
		MaxRetries:     maxRetries,
		Logger:         newTFLogLogger(apiKey),
		WebhookListTTL: webhookListTTL,
	})
	if err != nil {
		detail := "Correct the provider configuration; the client of the service refused it: " + err.Error()
		var cfgErr *videohost.ConfigError
		if errors.As(err, &cfgErr) {
			if attr, ok := configFieldAttributes[cfgErr.Field]; ok {
				resp.Diagnostics.AddAttributeError(path.Root(attr), "Invalid Provider Configuration", detail)
				return
			}
		}
		resp.Diagnostics.AddError("Invalid Provider Configuration", detail)
		return
	}

	pd := &providerData{client: client, environment: client.Environment(), baseURL: client.BaseURL()}
	tflog.Debug(ctx, "videohost client configured", map[string]any{
		"environment": pd.environment,
		"base_url":    pd.baseURL,
		"auth_scheme": authScheme,
		"max_retries": maxRetries,
	})
	resp.ResourceData = pd
	resp.DataSourceData = pd
	resp.EphemeralResourceData = pd
}

// configFieldAttributes maps the fields of the client's Config to the provider attributes
// that set them, so that a value the client refuses is reported on its attribute.
var configFieldAttributes = map[string]string{
	"APIKey":      "api_key",
	"Environment": "environment",
	"BaseURL":     "base_url",
	"AuthScheme":  "auth_scheme",
	"MaxRetries":  "max_retries",
}

// unknownAttributes names the attributes whose values are not known yet.
func unknownAttributes(cfg providerModel) []string {
	var names []string
	for name, v := range map[string]interface{ IsUnknown() bool }{
		"api_key":     cfg.APIKey,
		"environment": cfg.Environment,
		"base_url":    cfg.BaseURL,
		"auth_scheme": cfg.AuthScheme,
		"max_retries": cfg.MaxRetries,
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

func (p *videohostProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		NewWebhookResource,
	}
}

func (p *videohostProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		NewWebhookDataSource,
		NewWebhooksDataSource,
		NewVideoDataSource,
		NewVideosDataSource,
		NewLiveStreamDataSource,
		NewLiveStreamsDataSource,
	}
}

func (p *videohostProvider) Functions(context.Context) []func() function.Function {
	return []func() function.Function{
		NewWebhookSignatureFunction,
		NewVerifyWebhookSignatureFunction,
	}
}

func (p *videohostProvider) EphemeralResources(context.Context) []func() ephemeral.EphemeralResource {
	return []func() ephemeral.EphemeralResource{
		NewAccessTokenEphemeralResource,
	}
}
