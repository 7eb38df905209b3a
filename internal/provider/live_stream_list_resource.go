package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

var (
	_ list.ListResource              = (*liveStreamListResource)(nil)
	_ list.ListResourceWithConfigure = (*liveStreamListResource)(nil)
)

// liveStreamListResource is the list resource videohost_live_stream: terraform query
// (Terraform 1.14 and later) finds the live streams of the workspace with it.
type liveStreamListResource struct {
	pd *providerData
}

type liveStreamListModel struct {
	Name types.String `tfsdk:"name"`
}

// liveStreamListing turns the live streams of the service's list into list results. The list
// items carry every attribute of the resource, so include_resource costs no request per live
// stream; restream keys come as the state keeps them (stream_key), since a list knows nothing
// of a configuration's write-only keys.
var liveStreamListing = listing[videohost.LiveStream]{
	what:        "live streams",
	id:          func(l videohost.LiveStream) string { return l.ID },
	displayName: func(l videohost.LiveStream) string { return l.Name },
	model: func(ctx context.Context, l videohost.LiveStream) (any, diag.Diagnostics) {
		return liveStreamResourceModelFrom(ctx, l, nil, false)
	},
	errorSummary: "Unable to List Live Streams",
	attrs:        map[string]path.Path{"name": path.Root("name")},
}

// NewLiveStreamListResource returns the videohost_live_stream list resource.
func NewLiveStreamListResource() list.ListResource { return &liveStreamListResource{} }

func (l *liveStreamListResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_live_stream"
}

func (l *liveStreamListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Lists the live streams of the workspace for `terraform query`, optionally only those " +
			"whose name contains a text. Each result is a live stream's identity (`id`) and its name; with " +
			"`include_resource = true`, also every attribute of the resource, the stream keys included. " +
			"Terraform 1.14 and later.",
		Attributes: map[string]listschema.Attribute{
			"name": listschema.StringAttribute{
				MarkdownDescription: "Only the live streams whose name contains this text (case-sensitive, matched by " +
					"the service). Unset lists every live stream.",
				Optional:   true,
				Validators: []validator.String{notBlank()},
			},
		},
	}
}

func (l *liveStreamListResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	l.pd = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (l *liveStreamListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var diags diag.Diagnostics
	if !requireConfigured(l.pd, &diags) {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	var cfg liveStreamListModel
	diags.Append(req.Config.Get(ctx, &cfg)...)
	if diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	stream.Results = liveStreamListing.results(ctx, req, l.pd,
		l.pd.client.WalkLiveStreams(ctx, videohost.LiveStreamFilter{Name: cfg.Name.ValueString()}))
}
