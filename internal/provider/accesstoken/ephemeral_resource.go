package accesstoken

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
)

var _ ephemeral.EphemeralResourceWithConfigure = (*accessTokenEphemeralResource)(nil)

// NewAccessTokenEphemeralResource returns the videohost_access_token ephemeral resource.
func NewAccessTokenEphemeralResource() ephemeral.EphemeralResource {
	return &accessTokenEphemeralResource{}
}

// accessTokenEphemeralResource hands out a short-lived bearer token for tools that should not
// hold the API key. Being ephemeral, the token never reaches the plan or the state.
type accessTokenEphemeralResource struct {
	pd *framework.ProviderData
}

// accessTokenModel is the result of the ephemeral resource.
type accessTokenModel struct {
	AccessToken types.String `tfsdk:"access_token"`
	ExpiresAt   types.String `tfsdk:"expires_at"`
}

func (r *accessTokenEphemeralResource) Metadata(_ context.Context, req ephemeral.MetadataRequest, resp *ephemeral.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_access_token"
}

func (r *accessTokenEphemeralResource) Schema(_ context.Context, _ ephemeral.SchemaRequest, resp *ephemeral.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A short-lived access token of the bearer scheme, obtained with the provider's API " +
			"key, for tools (scripts, other providers) that need to call the service without holding the key. " +
			"Being ephemeral (Terraform 1.10 or later), it is never written to the plan or the state; use it " +
			"in provider blocks, ephemeral variables or write-only arguments. The provider's token source is " +
			"shared, so the token is the one the provider itself is using when it is still valid.",
		Attributes: map[string]schema.Attribute{
			"access_token": schema.StringAttribute{
				Computed:  true,
				Sensitive: true,
				MarkdownDescription: "The access token, sent as `Authorization: Bearer <access_token>`. " +
					"Sensitive.",
			},
			"expires_at": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "When the access token expires, in RFC 3339 format (UTC). Request a new one " +
					"after that.",
			},
		},
	}
}

func (r *accessTokenEphemeralResource) Configure(_ context.Context, req ephemeral.ConfigureRequest, resp *ephemeral.ConfigureResponse) {
	r.pd = framework.ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (r *accessTokenEphemeralResource) Open(ctx context.Context, _ ephemeral.OpenRequest, resp *ephemeral.OpenResponse) {
	if !framework.RequireConfigured(r.pd, &resp.Diagnostics) {
		return
	}
	token, err := r.pd.Client.AccessToken(ctx)
	if err != nil {
		// The token request has no attributes of this resource to point at.
		framework.AddAPIErrorDiagnostics(&resp.Diagnostics, "Unable to Obtain an Access Token", err, r.pd, nil)
		return
	}
	resp.Diagnostics.Append(resp.Result.Set(ctx, accessTokenModel{
		AccessToken: types.StringValue(token.AccessToken),
		ExpiresAt:   types.StringValue(token.ExpiresAt.UTC().Format(time.RFC3339)),
	})...)
}
