package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
)

var _ datasource.DataSource = (*videosDataSource)(nil)

type videosDataSource struct{ pd *providerData }

// NewVideosDataSource returns the videos data source; it is being written.
func NewVideosDataSource() datasource.DataSource { return &videosDataSource{} }

func (r *videosDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_videos"
}

func (r *videosDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{}
}

func (r *videosDataSource) Read(context.Context, datasource.ReadRequest, *datasource.ReadResponse) {}
