package framework

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Every resource of the provider is identified by the id the service gives it, so every
// resource has the same identity: one attribute, id. Terraform 1.12 and later keep it in the
// state beside the attributes, import by it (import { identity = { id = ... } }) and find it in
// the results of list resources; older Terraform and OpenTofu ignore it.

// IdIdentityModel is the identity of a resource of the provider.
type IdIdentityModel struct {
	ID types.String `tfsdk:"id"`
}

// IdIdentitySchema is the identity schema of a resource whose service id is described by
// what (for example "webhook (the service's `webhookId`)").
func IdIdentitySchema(what string) identityschema.Schema {
	return identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"id": identityschema.StringAttribute{
				Description:       "Identifier of the " + what + ", as the service gives it.",
				RequiredForImport: true,
			},
		},
	}
}

// SetIDIdentity sets identity to id. Identity is nil only when the resource has no identity
// schema, which every resource of the provider has; it is checked all the same, so that a
// resource without one does not panic.
func SetIDIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, id types.String) diag.Diagnostics {
	if identity == nil || id.IsNull() || id.IsUnknown() {
		return nil
	}
	return identity.Set(ctx, IdIdentityModel{ID: id})
}

// importByID imports a resource by the id that terraform import or an import block's id gives,
// or by the id of an import block's identity (Terraform 1.12 and later). Either way the id is
// checked before any request: one with a slash or a dot step could name another endpoint.
// howToFind tells the user where to find valid ids when the one given is refused.
func importByID(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse, howToFind string) {
	id, ok := ImportedID(ctx, req, &resp.Diagnostics)
	if !ok {
		return
	}
	if why := IdProblem(id); why != "" {
		resp.Diagnostics.AddError("Invalid Import ID", howToFind+": "+why+".")
		return
	}
	SetImportedID(ctx, resp, id)
}

// ImportedIdentity is the identity of an import block (Terraform 1.12 and later), read as I,
// when the import gives no id; nil when it gives one (terraform import, or an import block's
// id). False, with the error in diags, when the identity could not be read.
func ImportedIdentity[I any](ctx context.Context, req resource.ImportStateRequest, diags *diag.Diagnostics) (*I, bool) {
	if req.ID != "" || req.Identity == nil {
		return nil, true
	}
	ident := new(I)
	diags.Append(req.Identity.Get(ctx, ident)...)
	return ident, !diags.HasError()
}

// ImportedID is the id that an import names, by its id or by an identity of one id; false
// when the identity could not be read.
func ImportedID(ctx context.Context, req resource.ImportStateRequest, diags *diag.Diagnostics) (string, bool) {
	ident, ok := ImportedIdentity[IdIdentityModel](ctx, req, diags)
	switch {
	case !ok:
		return "", false
	case ident != nil:
		return ident.ID.ValueString(), true
	}
	return req.ID, true
}

// SetImportedID records what an import of the object id leaves: its id, and its identity.
func SetImportedID(ctx context.Context, resp *resource.ImportStateResponse, id string) {
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
	resp.Diagnostics.Append(SetIDIdentity(ctx, resp.Identity, types.StringValue(id))...)
}
