package provider

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

// idIdentityModel is the identity of a resource of the provider.
type idIdentityModel struct {
	ID types.String `tfsdk:"id"`
}

// idIdentitySchema is the identity schema of a resource whose service id is described by
// what (for example "webhook (the service's `webhookId`)").
func idIdentitySchema(what string) identityschema.Schema {
	return identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"id": identityschema.StringAttribute{
				Description:       "Identifier of the " + what + ", as the service gives it.",
				RequiredForImport: true,
			},
		},
	}
}

// setIDIdentity sets identity to id. Identity is nil only when the resource has no identity
// schema, which every resource of the provider has; it is checked all the same, so that a
// resource without one does not panic.
func setIDIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, id types.String) diag.Diagnostics {
	if identity == nil || id.IsNull() || id.IsUnknown() {
		return nil
	}
	return identity.Set(ctx, idIdentityModel{ID: id})
}

// importByID imports a resource by the id that terraform import or an import block's id gives,
// or by the id of an import block's identity (Terraform 1.12 and later). Either way the id is
// checked before any request: one with a slash or a dot step could name another endpoint.
// howToFind tells the user where to find valid ids when the one given is refused.
func importByID(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse, howToFind string) {
	id, ok := importedID(ctx, req, &resp.Diagnostics)
	if !ok {
		return
	}
	if why := idProblem(id); why != "" {
		resp.Diagnostics.AddError("Invalid Import ID", howToFind+": "+why+".")
		return
	}
	setImportedID(ctx, resp, id)
}

// importedIdentity is the identity of an import block (Terraform 1.12 and later), read as I,
// when the import gives no id; nil when it gives one (terraform import, or an import block's
// id). False, with the error in diags, when the identity could not be read.
func importedIdentity[I any](ctx context.Context, req resource.ImportStateRequest, diags *diag.Diagnostics) (*I, bool) {
	if req.ID != "" || req.Identity == nil {
		return nil, true
	}
	ident := new(I)
	diags.Append(req.Identity.Get(ctx, ident)...)
	return ident, !diags.HasError()
}

// importedID is the id that an import names, by its id or by an identity of one id; false
// when the identity could not be read.
func importedID(ctx context.Context, req resource.ImportStateRequest, diags *diag.Diagnostics) (string, bool) {
	ident, ok := importedIdentity[idIdentityModel](ctx, req, diags)
	switch {
	case !ok:
		return "", false
	case ident != nil:
		return ident.ID.ValueString(), true
	}
	return req.ID, true
}

// setImportedID records what an import of the object id leaves: its id, and its identity.
func setImportedID(ctx context.Context, resp *resource.ImportStateResponse, id string) {
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
	resp.Diagnostics.Append(setIDIdentity(ctx, resp.Identity, types.StringValue(id))...)
}
