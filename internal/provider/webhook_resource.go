package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

var _ resource.Resource = (*webhookResource)(nil)

type webhookResource struct{ pd *providerData }

// NewWebhookResource returns the webhook resource; it is being written.
func NewWebhookResource() resource.Resource { return &webhookResource{} }

func (r *webhookResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_webhook"
}

func (r *webhookResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{}
}

func (r *webhookResource) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

func (r *webhookResource) Create(context.Context, resource.CreateRequest, *resource.CreateResponse) {}
func (r *webhookResource) Update(context.Context, resource.UpdateRequest, *resource.UpdateResponse) {}
func (r *webhookResource) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}
