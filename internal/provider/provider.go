package provider

import (
	"context"
	"fmt"
	"maps"

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

	"github.com/videohost/terraform-provider-videohost/internal/provider/accesstoken"
	"github.com/videohost/terraform-provider-videohost/internal/provider/analytics"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/provider/livestream"
	"github.com/videohost/terraform-provider-videohost/internal/provider/playertheme"
	"github.com/videohost/terraform-provider-videohost/internal/provider/tag"
	"github.com/videohost/terraform-provider-videohost/internal/provider/uploadtoken"
	"github.com/videohost/terraform-provider-videohost/internal/provider/video"
	"github.com/videohost/terraform-provider-videohost/internal/provider/videocaption"
	"github.com/videohost/terraform-provider-videohost/internal/provider/videochapter"
	"github.com/videohost/terraform-provider-videohost/internal/provider/videosummary"
	"github.com/videohost/terraform-provider-videohost/internal/provider/watermark"
	"github.com/videohost/terraform-provider-videohost/internal/provider/webhook"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

var (
	_ provider.ProviderWithFunctions          = (*VideohostProvider)(nil)
	_ provider.ProviderWithEphemeralResources = (*VideohostProvider)(nil)
	_ provider.ProviderWithListResources      = (*VideohostProvider)(nil)
	_ provider.ProviderWithActions            = (*VideohostProvider)(nil)
	_ provider.ProviderWithValidateConfig     = (*VideohostProvider)(nil)
)

// VideohostProvider is the provider; version is the release version, put into the user agent.
type VideohostProvider struct {
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
	// The labels added to every video, and those left to other systems (framework.DefaultLabels).
	DefaultTags        types.Set    `tfsdk:"default_tags"`
	DefaultMetadata    types.Map    `tfsdk:"default_metadata"`
	IgnoreTags         types.Object `tfsdk:"ignore_tags"`
	IgnoreMetadataKeys types.Object `tfsdk:"ignore_metadata_keys"`
}

// New returns the constructor of the provider that providerserver.Serve and the tests use.
func New(version string) func() provider.Provider {
	return func() provider.Provider {
		return &VideohostProvider{version: version}
	}
}

func (p *VideohostProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "videohost"
	resp.Version = p.version
}

func (p *VideohostProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The videohost provider manages the videos of the video hosting service (a local " +
			"file uploaded in chunks and resumed after an interruption, or a URL, or a copy), their captions and " +
			"chapters, watermarks, delegated upload tokens, webhooks, live streams and player themes, and reads " +
			"each of them.",
		Attributes: withDefaultLabels(map[string]schema.Attribute{
			"api_key": schema.StringAttribute{
				MarkdownDescription: "API key of the workspace. Sandbox and production keys differ. " +
					"No default: required, unless the environment variable `" + framework.EnvAPIKey + "` is set. " +
					"Keep it out of source trees: prefer the environment variable.",
				Optional:  true,
				Sensitive: true,
			},
			"environment": schema.StringAttribute{
				MarkdownDescription: "Environment of the service: `sandbox` or `production`. It picks the " +
					"default address (`" + videohost.SandboxURL + "` or `" + videohost.ProductionURL + "`). " +
					"Defaults to the environment variable `" + framework.EnvEnvironment + "`, then to `sandbox`.",
				Optional:   true,
				Validators: []validator.String{stringvalidator.OneOf(videohost.EnvironmentSandbox, videohost.EnvironmentProduction)},
			},
			"base_url": schema.StringAttribute{
				MarkdownDescription: "Absolute http or https address of the API; overrides the address of the " +
					"`environment` (for a local emulator or a proxy). Defaults to the environment variable `" +
					framework.EnvBaseURL + "`, then to the address of the environment.",
				Optional:   true,
				Validators: []validator.String{framework.BaseURLValidator()},
			},
			"auth_scheme": schema.StringAttribute{
				MarkdownDescription: "How requests are authenticated: `bearer` (an access token obtained with " +
					"the API key and refreshed before it expires) or `basic` (the API key on every request). " +
					"Defaults to `bearer`. No environment variable.",
				Optional:   true,
				Validators: []validator.String{stringvalidator.OneOf(videohost.AuthBearer, videohost.AuthBasic)},
			},
			"max_retries": schema.Int64Attribute{
				CustomType: framework.WholeNumberType{Unit: "retries"},
				MarkdownDescription: fmt.Sprintf("How many times one call is retried after a rate limit (429), "+
					"and, for reads and deletes, after a network error or a server error. Must be 0 or more; "+
					"`0` sends every call once. Defaults to `%d`. No environment variable.", videohost.DefaultMaxRetries),
				Optional:   true,
				Validators: []validator.Int64{int64validator.AtLeast(0)},
			},
			"upload_chunk_size_mib": schema.Int64Attribute{
				CustomType: framework.WholeNumberType{Unit: "MiB"},
				MarkdownDescription: fmt.Sprintf("Size in MiB of one chunk of a video's `source_file` upload, %d to %d "+
					"(the service's bounds of a chunk). Larger chunks make fewer requests of the uploads rate limit; "+
					"an interrupted upload resumes from whole chunks. Default: unset, each upload chooses: one wave of chunks of "+
					"at least 32 MiB over its connections, or whole waves of equal chunks, and the largest chunks when "+
					"the file needs more than a window of the uploads limit. No environment variable.",
					videohost.MinUploadChunkSize>>20, videohost.MaxUploadChunkSize>>20),
				Optional:   true,
				Validators: []validator.Int64{int64validator.Between(videohost.MinUploadChunkSize>>20, videohost.MaxUploadChunkSize>>20)},
			},
			"upload_chunks_in_flight": schema.Int64Attribute{
				CustomType: framework.WholeNumberType{Unit: "chunks"},
				MarkdownDescription: fmt.Sprintf("How many chunks of one video source are sent together, 1 to %d, each on "+
					"a connection of its own. Over a long path (a CI runner or an office tens of milliseconds from the "+
					"service) one connection carries only so much, and N chunks in flight carry about N times as much, "+
					"as far as the uploads rate limit and the link allow. Default: unset, each upload chooses: as many as its "+
					"chunks fill, up to %d and never more than a window of the uploads limit takes, so that the last "+
					"wave is as full as the others. No environment variable.",
					videohost.MaxUploadChunksInFlight, videohost.MaxUploadChunksInFlight),
				Optional:   true,
				Validators: []validator.Int64{int64validator.Between(1, videohost.MaxUploadChunksInFlight)},
			},
		}),
	}
}

// withDefaultLabels adds to attrs the attributes of default labels and ignore rules, held to the
// bounds of a video's tags and metadata (the one kind whose published shape has them).
func withDefaultLabels(attrs map[string]schema.Attribute) map[string]schema.Attribute {
	maps.Copy(attrs, DefaultLabelsAttributes(video.TagsValidator(), video.MetadataValidator()))
	return attrs
}

func (p *VideohostProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		webhook.NewWebhookResource,
		livestream.NewLiveStreamResource,
		playertheme.NewPlayerThemeResource,
		videocaption.NewVideoCaptionResource,
		videochapter.NewVideoChapterResource,
		uploadtoken.NewUploadTokenResource,
		watermark.NewWatermarkResource,
		video.NewVideoResource,
		videosummary.NewVideoSummaryResource,
	}
}

func (p *VideohostProvider) ListResources(context.Context) []func() list.ListResource {
	return []func() list.ListResource{
		webhook.NewWebhookListResource,
		livestream.NewLiveStreamListResource,
		playertheme.NewPlayerThemeListResource,
		videocaption.NewVideoCaptionListResource,
		videochapter.NewVideoChapterListResource,
		uploadtoken.NewUploadTokenListResource,
		watermark.NewWatermarkListResource,
		video.NewVideoListResource,
		videosummary.NewVideoSummaryListResource,
	}
}

func (p *VideohostProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		webhook.NewWebhookDataSource,
		webhook.NewWebhooksDataSource,
		video.NewVideoDataSource,
		video.NewVideosDataSource,
		livestream.NewLiveStreamDataSource,
		livestream.NewLiveStreamsDataSource,
		playertheme.NewPlayerThemeDataSource,
		playertheme.NewPlayerThemesDataSource,
		uploadtoken.NewUploadTokensDataSource,
		watermark.NewWatermarksDataSource,
		video.NewDiscardedVideosDataSource,
		analytics.NewAnalyticsMetricDataSource,
		analytics.NewAnalyticsBreakdownDataSource,
		analytics.NewAnalyticsTimeseriesDataSource,
		tag.NewTagsDataSource,
		videosummary.NewSummariesDataSource,
	}
}

func (p *VideohostProvider) Functions(context.Context) []func() function.Function {
	return []func() function.Function{
		webhook.NewWebhookSignatureFunction,
		webhook.NewVerifyWebhookSignatureFunction,
	}
}

func (p *VideohostProvider) EphemeralResources(context.Context) []func() ephemeral.EphemeralResource {
	return []func() ephemeral.EphemeralResource{
		accesstoken.NewAccessTokenEphemeralResource,
		uploadtoken.NewUploadTokenEphemeralResource,
	}
}

// Actions run with Terraform 1.14 and later; other CLIs never ask for them.
func (p *VideohostProvider) Actions(context.Context) []func() action.Action {
	return []func() action.Action{
		webhook.NewWebhookCheckAction,
		livestream.NewLiveStreamCompleteAction,
		video.NewVideoRestoreAction,
	}
}
