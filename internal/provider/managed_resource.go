package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// managedResource is what every managed resource of the provider is: configured by the
// provider, imported by id, and identified by id (identity.go).
type managedResource interface {
	resource.ResourceWithConfigure
	resource.ResourceWithImportState
	resource.ResourceWithIdentity
}

// managedBase is embedded by every managed resource. The service identifies every object by
// the id it gives, so the identity, the import, the delete and the rules of a refresh are the
// same for all of them, and are written here once; a resource's own file holds its schema,
// its create, its read of the state and its update.
type managedBase struct {
	resourceBase
	// writeTarget names the object ("Live Stream") and maps the API's parameters to attributes.
	writeTarget
	// idParam is the service's name of the id: "liveStreamId".
	idParam string
	// del deletes the object with that id; deleting what is already gone succeeds or is
	// ErrNotFound.
	del func(*videohost.Client, context.Context, string) error
}

// newManagedBase is the base of the resource that writes t, whose id the service calls
// idParam, and that del deletes. Its type name is t's kind in snake case.
func newManagedBase(t writeTarget, idParam string, del func(*videohost.Client, context.Context, string) error) managedBase {
	return managedBase{
		resourceBase: resourceBase{typeName: "_" + strings.ReplaceAll(lower(t.kind), " ", "_")},
		writeTarget:  t, idParam: idParam, del: del,
	}
}

func (b *managedBase) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = idIdentitySchema(lower(b.kind) + " (`" + b.idParam + "`)")
}

// ImportState imports by the id of terraform import or of an import block, or by an import
// block's identity (importByID).
func (b *managedBase) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importByID(ctx, req, resp, fmt.Sprintf("Import a %s by its id (%s) exactly as the service gives it; the "+
		"videohost%ss data source and terraform query (list \"videohost%s\") list them",
		lower(b.kind), b.idParam, b.typeName, b.typeName))
}

// Delete deletes the object through the shared delete machinery (deleteObject); one already
// gone counts as deleted.
func (b *managedBase) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	id, ok := configuredID(ctx, b.pd, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	deleteObject(ctx, b.pd, b.writeTarget, &resp.Diagnostics, id, func(ctx context.Context) error {
		return b.del(b.pd.client, ctx, id)
	})
}

// setStateAndIdentity records what a create or an update leaves: the state m of the object
// and its identity, id.
func setStateAndIdentity(ctx context.Context, state *tfsdk.State, identity *tfsdk.ResourceIdentity, m any, id types.String) diag.Diagnostics {
	diags := state.Set(ctx, m)
	diags.Append(setIDIdentity(ctx, identity, id)...)
	return diags
}

// readRemote is the part that every resource's Read shares: it sets the identity from id, then
// fetches the object with get. It reports false when Read has nothing more to do: the provider
// has no client yet (the state stays as it is), the object was deleted outside Terraform (it
// leaves the state with a warning that ends with afterDeletion, what the user should know of
// the next apply), or the read failed (an error).
func readRemote[T any](ctx context.Context, b *managedBase, resp *resource.ReadResponse, id types.String, afterDeletion string,
	get func(*videohost.Client, context.Context, string) (T, error),
) (T, bool) {
	var zero T
	// Set before anything else: a state written before resources had an identity (or by a
	// Terraform that keeps none) gets one on its first refresh, whatever the refresh finds.
	resp.Diagnostics.Append(setIDIdentity(ctx, resp.Identity, id)...)
	if b.pd == nil {
		// The provider's configuration depends on values not known yet; the state stays as it
		// is until it can be refreshed.
		return zero, false
	}
	obj, err := get(b.pd.client, ctx, id.ValueString())
	if errors.Is(err, videohost.ErrNotFound) {
		resp.Diagnostics.AddWarning(b.kind+" Deleted Outside Terraform", fmt.Sprintf(
			"The %s %s no longer exists on the service: it was deleted outside Terraform. It is removed from the "+
				"state; the next apply creates it again if it is still configured%s.", lower(b.kind), id.ValueString(), afterDeletion))
		resp.State.RemoveResource(ctx)
		return zero, false
	}
	if err != nil {
		addAPIErrorDiagnostics(&resp.Diagnostics, "Unable to Read "+b.kind, err, b.pd, b.attrs)
		return zero, false
	}
	return obj, true
}

// keptString is a computed attribute that the service sets once, when it creates the object:
// the plan keeps the state's value instead of showing it as known after apply.
func keptString(description string) schema.StringAttribute {
	return schema.StringAttribute{
		MarkdownDescription: description,
		Computed:            true,
		PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
}

// keptSecret is a keptString that holds a secret.
func keptSecret(description string) schema.StringAttribute {
	a := keptString(description)
	a.Sensitive = true
	return a
}

// resourceAssetsAttribute is the assets attribute of a resource whose object plays in the
// service's player (a video, a live stream): the addresses of its outputs (playerAssets, and
// with mp4 the video's mp4 download), which the plan keeps from the state.
func resourceAssetsAttribute(description string, mp4 bool) schema.SingleNestedAttribute {
	attrs := map[string]schema.Attribute{}
	for name, d := range playerAssets {
		attrs[name] = schema.StringAttribute{Computed: true, MarkdownDescription: d}
	}
	if mp4 {
		attrs["mp4"] = schema.StringAttribute{Computed: true, MarkdownDescription: mp4Asset}
	}
	return schema.SingleNestedAttribute{
		MarkdownDescription: description,
		Computed:            true,
		PlanModifiers:       []planmodifier.Object{objectplanmodifier.UseStateForUnknown()},
		Attributes:          attrs,
	}
}
