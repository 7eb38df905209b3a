package videosummary

// The videohost_summaries data source: the summaries of the workspace's videos that its
// filters select.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// summariesModel is the configuration and result of videohost_summaries.
type summariesModel struct {
	VideoID      types.String `tfsdk:"video_id"`
	Origin       types.String `tfsdk:"origin"`
	SourceStatus types.String `tfsdk:"source_status"`
	SortBy       types.String `tfsdk:"sort_by"`
	SortOrder    types.String `tfsdk:"sort_order"`
	Summaries    types.List   `tfsdk:"summaries"`
}

// NewSummariesDataSource returns the videohost_summaries data source: the summaries that match
// server-side filters, every page.
func NewSummariesDataSource() datasource.DataSource {
	return framework.NewListDataSource("_summaries", framework.ListRead[videohost.Summary, summariesModel, videohost.SummaryFilter]{
		Description: "Lists the summaries of the workspace's videos that match the filters (every page): whose video " +
			"each is, how it was made and the status of its text. The text itself is `videohost_video_summary`'s " +
			"(import a summary by its `id` to read and manage it).",
		Filters: framework.WithSortFilters(map[string]schema.Attribute{
			"video_id": schema.StringAttribute{
				MarkdownDescription: "Only the summary of this video. Unset: every video's.",
				Optional:            true,
				Validators:          framework.ServiceIDValidators("a video (its videoId)", "videohost_videos"),
			},
			"origin": enumFilter("Only the summaries made this way: `auto` (generated) or `api` (written). Unset: both.",
				"auto", summaryOriginAPI),
			"source_status": enumFilter("Only the summaries whose text has this status: `missing`, `waiting`, `failed`, "+
				"`completed` or `unprocessable`. Unset: every status.", "missing", "waiting", "failed", "completed", "unprocessable"),
		}, "createdAt", "updatedAt", "videoId"),
		Items: "summaries", ItemsDescription: "The matching summaries, in the service's order; empty when none match.",
		ItemAttributes: summaryDataAttributes,
		Title:          "Summaries",
		FilterPaths: framework.WithSortFilterPaths(map[string]path.Path{
			"videoId": path.Root("video_id"), "origin": path.Root("origin"), "sourceStatus": path.Root("source_status"),
		}),
		Filter: func(_ context.Context, m summariesModel) (videohost.SummaryFilter, diag.Diagnostics) {
			return videohost.SummaryFilter{
				VideoID: m.VideoID.ValueString(), Origin: m.Origin.ValueString(), SourceStatus: m.SourceStatus.ValueString(),
				SortBy: m.SortBy.ValueString(), SortOrder: m.SortOrder.ValueString(),
			}, nil
		},
		List: (*videohost.Client).ListSummaries,
		Object: func(_ context.Context, s videohost.Summary) (types.Object, diag.Diagnostics) {
			return SummaryDataModelFrom(s).Object()
		},
	})
}

// enumFilter is an optional filter of a list data source that takes one of values.
func enumFilter(description string, values ...string) schema.Attribute {
	return schema.StringAttribute{
		MarkdownDescription: description, Optional: true,
		Validators: []validator.String{stringvalidator.OneOf(values...)},
	}
}
