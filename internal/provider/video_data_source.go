package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
)

var _ datasource.DataSource = (*videoDataSource)(nil)

type videoDataSource struct{ pd *providerData }

// NewVideoDataSource returns the video data source; it is being written.
func NewVideoDataSource() datasource.DataSource { return &videoDataSource{} }

func (r *videoDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_video"
}

func (r *videoDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{}
}

func (r *videoDataSource) Read(context.Context, datasource.ReadRequest, *datasource.ReadResponse) {}
