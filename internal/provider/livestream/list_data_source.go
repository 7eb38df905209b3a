package provider

// The videohost_live_streams data source: the live streams that its filters select.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

type liveStreamsModel struct {
	Name        types.String `tfsdk:"name"`
	SortBy      types.String `tfsdk:"sort_by"`
	SortOrder   types.String `tfsdk:"sort_order"`
	LiveStreams types.List   `tfsdk:"live_streams"`
}

// NewLiveStreamsDataSource returns the videohost_live_streams data source: the live streams
// that match server-side filters.
func NewLiveStreamsDataSource() datasource.DataSource {
	return newListDataSource("_live_streams", listRead[videohost.LiveStream, liveStreamsModel, videohost.LiveStreamFilter]{
		description: "Lists the live streams of the workspace that match the filters (every page); the service filters and sorts them.",
		filters: withSortFilters(map[string]schema.Attribute{
			"name": textFilter("Only the live streams whose name matches this text (the service matches it, " +
				"possibly a part of the name, ignoring case). Unset: no filter; must not be empty."),
		}, "name", "createdAt", "updatedAt"),
		items: "live_streams", itemsDescription: "The matching live streams, in the service's order; empty when none match.",
		itemAttributes: liveStreamDataAttributes,
		title:          "Live Streams",
		filterPaths:    withSortFilterPaths(map[string]path.Path{"name": path.Root("name")}),
		filter: func(_ context.Context, m liveStreamsModel) (videohost.LiveStreamFilter, diag.Diagnostics) {
			return videohost.LiveStreamFilter{
				Name:      m.Name.ValueString(),
				SortBy:    m.SortBy.ValueString(),
				SortOrder: m.SortOrder.ValueString(),
			}, nil
		},
		list: (*videohost.Client).ListLiveStreams,
		object: func(_ context.Context, ls videohost.LiveStream) (types.Object, diag.Diagnostics) {
			return liveStreamModelFrom(ls).object()
		},
	})
}
