package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
)

var _ datasource.DataSource = (*webhookDataSource)(nil)

type webhookDataSource struct{ pd *providerData }

// NewWebhookDataSource returns the webhook data source; it is being written.
func NewWebhookDataSource() datasource.DataSource { return &webhookDataSource{} }

func (r *webhookDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_webhook"
}

func (r *webhookDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{}
}

func (r *webhookDataSource) Read(context.Context, datasource.ReadRequest, *datasource.ReadResponse) {}
