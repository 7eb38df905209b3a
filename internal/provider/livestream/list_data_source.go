package livestream

// The videohost_live_streams data source: the live streams that its filters select.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

type LiveStreamsModel struct {
	Name        types.String `tfsdk:"name"`
	StreamKey   types.String `tfsdk:"stream_key"`
	SortBy      types.String `tfsdk:"sort_by"`
	SortOrder   types.String `tfsdk:"sort_order"`
	LiveStreams types.List   `tfsdk:"live_streams"`
}

// NewLiveStreamsDataSource returns the videohost_live_streams data source: the live streams
// that match server-side filters.
func NewLiveStreamsDataSource() datasource.DataSource {
	return framework.NewListDataSource("_live_streams", framework.ListRead[videohost.LiveStream, LiveStreamsModel, videohost.LiveStreamFilter]{
		Description: "Lists the live streams of the workspace that match the filters (every page); the service filters and sorts them.",
		Filters: framework.WithSortFilters(map[string]schema.Attribute{
			"name": framework.TextFilter("Only the live streams whose name matches this text (the service matches it, " +
				"possibly a part of the name, ignoring case). Unset: no filter; must not be empty."),
			"stream_key": streamKeyFilter(),
		}, "name", "createdAt", "updatedAt"),
		Items: "live_streams", ItemsDescription: "The matching live streams, in the service's order; empty when none match.",
		ItemAttributes: liveStreamDataAttributes,
		Title:          "Live Streams",
		FilterPaths:    framework.WithSortFilterPaths(map[string]path.Path{"name": path.Root("name"), "streamKey": path.Root("stream_key")}),
		Filter: func(_ context.Context, m LiveStreamsModel) (videohost.LiveStreamFilter, diag.Diagnostics) {
			return videohost.LiveStreamFilter{
				Name:      m.Name.ValueString(),
				StreamKey: m.StreamKey.ValueString(),
				SortBy:    m.SortBy.ValueString(),
				SortOrder: m.SortOrder.ValueString(),
			}, nil
		},
		List: (*videohost.Client).ListLiveStreams,
		Object: func(_ context.Context, ls videohost.LiveStream) (types.Object, diag.Diagnostics) {
			return LiveStreamModelFrom(ls).Object()
		},
	})
}

// streamKeyFilter is the stream_key filter of the data source: a secret, shown by no plan.
func streamKeyFilter() schema.Attribute {
	return schema.StringAttribute{
		MarkdownDescription: "Only the live stream whose stream key is exactly this one (sensitive; the service " +
			"matches it whole). Unset: no filter; must not be empty. Give it from a variable or a secret store: " +
			"a key is a secret.",
		Optional:   true,
		Sensitive:  true,
		Validators: []validator.String{framework.NotBlank()},
	}
}
