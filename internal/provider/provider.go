package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

var (
	_ provider.ProviderWithFunctions          = (*videohostProvider)(nil)
	_ provider.ProviderWithEphemeralResources = (*videohostProvider)(nil)
	_ provider.ProviderWithListResources      = (*videohostProvider)(nil)
	_ provider.ProviderWithActions            = (*videohostProvider)(nil)
)

// Environment variables read when the matching attribute is not set.
const (
	envAPIKey      = "VIDEOHOST_API_KEY"
	envEnvironment = "VIDEOHOST_ENVIRONMENT"
	envBaseURL     = "VIDEOHOST_BASE_URL"
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
	// The chunking of video source uploads.
	UploadChunkSizeMiB   types.Int64 `tfsdk:"upload_chunk_size_mib"`
	UploadChunksInFlight types.Int64 `tfsdk:"upload_chunks_in_flight"`
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
		MarkdownDescription: "The videohost provider manages the videos of the video hosting service (a local " +
			"file uploaded in chunks and resumed after an interruption, or a URL, or a copy), their captions and " +
			"chapters, watermarks, delegated upload tokens, webhooks, live streams and player themes, and reads " +
			"each of them.",
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
				Validators: []validator.String{baseURLValidator()},
			},
			"auth_scheme": schema.StringAttribute{
				MarkdownDescription: "How requests are authenticated: `bearer` (an access token obtained with " +
					"the API key and refreshed before it expires) or `basic` (the API key on every request). " +
					"Defaults to `bearer`. No environment variable.",
				Optional:   true,
				Validators: []validator.String{stringvalidator.OneOf(videohost.AuthBearer, videohost.AuthBasic)},
			},
			"max_retries": schema.Int64Attribute{
				CustomType: wholeNumberType{unit: "retries"},
				MarkdownDescription: fmt.Sprintf("How many times one call is retried after a rate limit (429), "+
					"and, for reads and deletes, after a network error or a server error. Must be 0 or more; "+
					"`0` sends every call once. Defaults to `%d`. No environment variable.", videohost.DefaultMaxRetries),
				Optional:   true,
				Validators: []validator.Int64{int64validator.AtLeast(0)},
			},
			"upload_chunk_size_mib": schema.Int64Attribute{
				CustomType: wholeNumberType{unit: "MiB"},
				MarkdownDescription: fmt.Sprintf("Size in MiB of one chunk of a video's `source_file` upload, %d to %d "+
					"(the service's bounds of a chunk). Larger chunks make fewer requests of the uploads rate limit; "+
					"an interrupted upload resumes from whole chunks. Unset, each upload chooses: one wave of chunks of "+
					"at least 32 MiB over its connections, or whole waves of equal chunks, and the largest chunks when "+
					"the file needs more than a window of the uploads limit. No environment variable.",
					videohost.MinUploadChunkSize>>20, videohost.MaxUploadChunkSize>>20),
				Optional:   true,
				Validators: []validator.Int64{int64validator.Between(videohost.MinUploadChunkSize>>20, videohost.MaxUploadChunkSize>>20)},
			},
			"upload_chunks_in_flight": schema.Int64Attribute{
				CustomType: wholeNumberType{unit: "chunks"},
				MarkdownDescription: fmt.Sprintf("How many chunks of one video source are sent together, 1 to %d, each on "+
					"a connection of its own. Over a long path (a CI runner or an office tens of milliseconds from the "+
					"service) one connection carries only so much, and N chunks in flight carry about N times as much, "+
					"as far as the uploads rate limit and the link allow. Unset, each upload chooses: as many as its "+
					"chunks fill, up to %d and never more than a window of the uploads limit takes, so that the last "+
					"wave is as full as the others. No environment variable.",
					videohost.MaxUploadChunksInFlight, videohost.MaxUploadChunksInFlight),
				Optional:   true,
				Validators: []validator.Int64{int64validator.Between(1, videohost.MaxUploadChunksInFlight)},
			},
		},
	}
}

func (p *videohostProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		NewWebhookResource,
		NewLiveStreamResource,
		NewPlayerThemeResource,
		NewVideoCaptionResource,
		NewVideoChapterResource,
		NewUploadTokenResource,
		NewWatermarkResource,
		NewVideoResource,
		NewVideoSummaryResource,
	}
}

func (p *videohostProvider) ListResources(context.Context) []func() list.ListResource {
	return []func() list.ListResource{
		NewWebhookListResource,
		NewLiveStreamListResource,
		NewPlayerThemeListResource,
		NewVideoCaptionListResource,
		NewVideoChapterListResource,
		NewUploadTokenListResource,
		NewWatermarkListResource,
		NewVideoListResource,
		NewVideoSummaryListResource,
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
		NewPlayerThemeDataSource,
		NewPlayerThemesDataSource,
		NewUploadTokensDataSource,
		NewWatermarksDataSource,
		NewDiscardedVideosDataSource,
		NewAnalyticsMetricDataSource,
		NewAnalyticsBreakdownDataSource,
		NewAnalyticsTimeseriesDataSource,
		NewTagsDataSource,
		NewSummariesDataSource,
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
		NewUploadTokenEphemeralResource,
	}
}

// Actions run with Terraform 1.14 and later; other CLIs never ask for them.
func (p *videohostProvider) Actions(context.Context) []func() action.Action {
	return []func() action.Action{
		NewWebhookCheckAction,
		NewLiveStreamCompleteAction,
		NewVideoRestoreAction,
	}
}
