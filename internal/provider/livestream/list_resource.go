package livestream

// The videohost_live_stream list resource: the live streams that terraform query finds.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

type liveStreamListModel struct {
	Name types.String `tfsdk:"name"`
}

// NewLiveStreamListResource returns the videohost_live_stream list resource. The list items
// carry every attribute of the resource, so include_resource costs no request per live stream;
// restream keys come as the state keeps them (stream_key), since a list knows nothing of a
// configuration's write-only keys.
func NewLiveStreamListResource() list.ListResource {
	return framework.NewListResource("_live_stream", framework.Listing[videohost.LiveStream, liveStreamListModel, videohost.LiveStreamFilter]{
		Description: "Lists the live streams of the workspace for `terraform query`, optionally only those " +
			"whose name contains a text. Each result is a live stream's identity (`id`) and its name; with " +
			"`include_resource = true`, also every attribute of the resource, the stream keys included. " +
			"Terraform 1.14 and later.",
		Filters: map[string]listschema.Attribute{
			"name": listschema.StringAttribute{
				MarkdownDescription: "Only the live streams whose name contains this text (case-sensitive, matched by " +
					"the service). Unset lists every live stream.",
				Optional:   true,
				Validators: []validator.String{framework.NotBlank()},
			},
		},
		Filter: func(m liveStreamListModel) videohost.LiveStreamFilter {
			return videohost.LiveStreamFilter{Name: m.Name.ValueString()}
		},
		Walk:        (*videohost.Client).WalkLiveStreams,
		What:        "live streams",
		Id:          func(l videohost.LiveStream) string { return l.ID },
		DisplayName: func(l videohost.LiveStream) string { return l.Name },
		Model: func(ctx context.Context, l videohost.LiveStream) (any, diag.Diagnostics) {
			return LiveStreamResourceModelFrom(ctx, l, nil, false)
		},
		ErrorSummary: "Unable to List Live Streams",
		Attrs:        map[string]path.Path{"name": path.Root("name")},
	})
}
