package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
)

var _ datasource.DataSource = (*webhooksDataSource)(nil)

type webhooksDataSource struct{ pd *providerData }

// NewWebhooksDataSource returns the webhooks data source; it is being written.
func NewWebhooksDataSource() datasource.DataSource { return &webhooksDataSource{} }

func (r *webhooksDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_webhooks"
}

func (r *webhooksDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{}
}

func (r *webhooksDataSource) Read(context.Context, datasource.ReadRequest, *datasource.ReadResponse) {
}
