package tag

// The videohost_tags data source: the tags of the workspace's videos, with how many videos
// carry each.

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

// tagsModel is the configuration and result of videohost_tags.
type tagsModel struct {
	Value     types.String `tfsdk:"value"`
	SortBy    types.String `tfsdk:"sort_by"`
	SortOrder types.String `tfsdk:"sort_order"`
	Tags      types.List   `tfsdk:"tags"`
}

// NewTagsDataSource returns the videohost_tags data source: the tags that match the value
// filter, every page.
func NewTagsDataSource() datasource.DataSource {
	return framework.NewListDataSource("_tags", framework.ListRead[videohost.Tag, tagsModel, videohost.TagFilter]{
		Description: "Lists the tags of the workspace's videos that match the filter (every page), each with the " +
			"number of videos that carry it; the service filters and sorts them.",
		Filters: framework.WithSortFilters(map[string]schema.Attribute{
			"value": framework.TextFilter("Only the tags that contain this text (the service matches a part of the tag, ignoring " +
				"accents and case). Unset: every tag; must not be empty."),
		}, "value", "videoCount"),
		Items: "tags", ItemsDescription: "The matching tags, in the service's order (by `value` unless `sort_by` says " +
			"otherwise); empty when none match.",
		ItemAttributes: tagDataAttributes,
		Title:          "Tags",
		FilterPaths:    framework.WithSortFilterPaths(map[string]path.Path{"value": path.Root("value")}),
		Filter: func(_ context.Context, m tagsModel) (videohost.TagFilter, diag.Diagnostics) {
			return videohost.TagFilter{Value: m.Value.ValueString(), SortBy: m.SortBy.ValueString(), SortOrder: m.SortOrder.ValueString()}, nil
		},
		List: (*videohost.Client).ListTags,
		Object: func(_ context.Context, t videohost.Tag) (types.Object, diag.Diagnostics) {
			return TagDataModelFrom(t).Object()
		},
	})
}
