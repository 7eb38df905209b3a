package uploadtoken

// The videohost_upload_tokens data source: the workspace's upload tokens.

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

// uploadTokensModel is the configuration and result of videohost_upload_tokens.
type uploadTokensModel struct {
	SortBy       types.String `tfsdk:"sort_by"`
	SortOrder    types.String `tfsdk:"sort_order"`
	UploadTokens types.List   `tfsdk:"upload_tokens"`
}

// NewUploadTokensDataSource returns the videohost_upload_tokens data source: every upload
// token of the workspace, every page, the tokens sensitive.
func NewUploadTokensDataSource() datasource.DataSource {
	return framework.NewListDataSource("_upload_tokens", framework.ListRead[videohost.UploadToken, uploadTokensModel, videohost.UploadTokenFilter]{
		Description: "Lists every delegated upload token of the workspace (every page), with its fingerprint (the id " +
			"that the `videohost_upload_token` resource imports by) and the token itself, which is sensitive.",
		Filters: framework.WithSortFilters(map[string]schema.Attribute{}, "createdAt", "ttl"),
		Items:   "upload_tokens", ItemsDescription: "The upload tokens, in the service's order; empty when there are none.",
		ItemAttributes: uploadTokenDataAttributes,
		Title:          "Upload Tokens", FilterPaths: framework.WithSortFilterPaths(map[string]path.Path{}),
		Filter: func(_ context.Context, m uploadTokensModel) (videohost.UploadTokenFilter, diag.Diagnostics) {
			return videohost.UploadTokenFilter{SortBy: m.SortBy.ValueString(), SortOrder: m.SortOrder.ValueString()}, nil
		},
		List: (*videohost.Client).ListUploadTokens,
		Object: func(_ context.Context, t videohost.UploadToken) (types.Object, diag.Diagnostics) {
			return UploadTokenModelFrom(t).Object()
		},
	})
}
