package watermark

// The videohost_watermarks data source: the workspace's watermarks.

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

// watermarksModel is the configuration and result of videohost_watermarks.
type watermarksModel struct {
	SortBy     types.String `tfsdk:"sort_by"`
	SortOrder  types.String `tfsdk:"sort_order"`
	Watermarks types.List   `tfsdk:"watermarks"`
}

// NewWatermarksDataSource returns the videohost_watermarks data source: every watermark of the
// workspace, every page.
func NewWatermarksDataSource() datasource.DataSource {
	return framework.NewListDataSource("_watermarks", framework.ListRead[videohost.Watermark, watermarksModel, videohost.WatermarkFilter]{
		Description: "Lists every watermark of the workspace (every page): its id and creation time, all the service " +
			"keeps of a watermark.",
		Filters: framework.WithSortFilters(map[string]schema.Attribute{}, "createdAt"),
		Items:   "watermarks", ItemsDescription: "The watermarks, in the service's order; empty when there are none.",
		ItemAttributes: watermarkDataAttributes,
		Title:          "Watermarks", FilterPaths: framework.WithSortFilterPaths(map[string]path.Path{}),
		Filter: func(_ context.Context, m watermarksModel) (videohost.WatermarkFilter, diag.Diagnostics) {
			return videohost.WatermarkFilter{SortBy: m.SortBy.ValueString(), SortOrder: m.SortOrder.ValueString()}, nil
		},
		List: (*videohost.Client).ListWatermarks,
		Object: func(_ context.Context, w videohost.Watermark) (types.Object, diag.Diagnostics) {
			return WatermarkDataModelFrom(w).Object()
		},
	})
}
