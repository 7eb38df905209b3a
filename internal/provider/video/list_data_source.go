package video

// The videohost_videos data source: the videos that its filters select.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

var _ datasource.DataSourceWithConfigure = (*framework.ListDataSource[videohost.Video, VideosModel, videohost.VideoFilter])(nil)

type VideosModel struct {
	Title        types.String `tfsdk:"title"`
	Tags         types.List   `tfsdk:"tags"`
	Metadata     types.Map    `tfsdk:"metadata"`
	Description  types.String `tfsdk:"description"`
	LiveStreamID types.String `tfsdk:"live_stream_id"`
	SortBy       types.String `tfsdk:"sort_by"`
	SortOrder    types.String `tfsdk:"sort_order"`
	Videos       types.List   `tfsdk:"videos"`
}

// NewVideosDataSource returns the videohost_videos data source: the videos that match
// server-side filters.
func NewVideosDataSource() datasource.DataSource {
	return framework.NewListDataSource("_videos", framework.ListRead[videohost.Video, VideosModel, videohost.VideoFilter]{
		Description: "Lists the videos of the workspace that match the filters (every page); the service filters them.",
		Filters:     videoListFilters("videos"),
		Items:       "videos", ItemsDescription: "The matching videos.",
		ItemAttributes: videoDataAttributes,
		Title:          "Videos", FilterPaths: videoFilterPaths,
		Filter: videoFilterFrom,
		List:   (*videohost.Client).ListVideos,
		Object: func(_ context.Context, v videohost.Video) (types.Object, diag.Diagnostics) {
			return VideoModelFrom(v).Object()
		},
	})
}

// videoListFilters are the filters of a list of videos (what names the listed videos in their
// descriptions): those of GET /videos, which GET /discarded/videos takes too.
func videoListFilters(what string) map[string]schema.Attribute {
	return framework.WithSortFilters(map[string]schema.Attribute{
		"title": framework.TextFilter("Only the " + what + " whose title contains this text. Unset: no filter; must not be empty."),
		"tags": schema.ListAttribute{
			MarkdownDescription: "Only the " + what + " that carry all of these tags. Unset: no filter.",
			Optional:            true,
			ElementType:         types.StringType,
		},
		"metadata": schema.MapAttribute{
			MarkdownDescription: "Only the " + what + " whose metadata hold all of these key/value pairs. Unset: no filter.",
			Optional:            true,
			ElementType:         types.StringType,
		},
		"description":    framework.TextFilter("Only the " + what + " whose description contains this text. Unset: no filter; must not be empty."),
		"live_stream_id": framework.TextFilter("Only the " + what + " recorded from this live stream. Unset: no filter; must not be empty."),
	}, "title", "createdAt", "publishedAt", "updatedAt")
}

// videoFilterPaths maps the query parameters of GET /videos to the filter attributes.
var videoFilterPaths = framework.WithSortFilterPaths(map[string]path.Path{
	"title":        path.Root("title"),
	"tags":         path.Root("tags"),
	"tags[]":       path.Root("tags"),
	"metadata":     path.Root("metadata"),
	"description":  path.Root("description"),
	"liveStreamId": path.Root("live_stream_id"),
})

// videoFilterFrom is the client's filter of the configuration's.
func videoFilterFrom(ctx context.Context, m VideosModel) (videohost.VideoFilter, diag.Diagnostics) {
	f := videohost.VideoFilter{
		Title:        m.Title.ValueString(),
		Description:  m.Description.ValueString(),
		LiveStreamID: m.LiveStreamID.ValueString(),
		SortBy:       m.SortBy.ValueString(),
		SortOrder:    m.SortOrder.ValueString(),
	}
	var diags diag.Diagnostics
	if !m.Tags.IsNull() {
		diags.Append(m.Tags.ElementsAs(ctx, &f.Tags, false)...)
	}
	if !m.Metadata.IsNull() {
		diags.Append(m.Metadata.ElementsAs(ctx, &f.Metadata, false)...)
	}
	return f, diags
}
