package framework

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// ManagedResource is what every managed resource of the provider is: configured by the
// provider, imported by id, and identified by id (identity.go).
type ManagedResource interface {
	resource.ResourceWithConfigure
	resource.ResourceWithImportState
	resource.ResourceWithIdentity
}

// A managed resource is made of small pieces, each embedded only by the resources that need
// it (as the framework's mixins of large providers are): managedBase, which every resource
// identified by one id embeds; deletedByID, for a resource whose object one call deletes by
// its id; withIDImport, for its identity and its import by that id; and withPlannedUpdate, for
// a resource whose update sends nothing. A resource with a rule of its own (the upload token's
// import by fingerprint and delete by token, the tracks' two-part ids) writes that method
// itself instead of embedding the piece.

// ManagedBase is embedded by every resource whose object the service identifies by the id it
// gives: its type name, its configuration (resourceBase), and the name and attributes of its
// object for the shared writes and the rules of a refresh (writeTarget, readRemote).
type ManagedBase struct {
	ResourceBase
	// writeTarget names the object ("Live Stream") and maps the API's parameters to attributes.
	WriteTarget
}

// NewManagedBase is the base of the resource that writes t. Its type name is t's kind in snake
// case.
func NewManagedBase(t WriteTarget) ManagedBase {
	return ManagedBase{ResourceBase: ResourceBase{TypeName: resourceTypeName(t)}, WriteTarget: t}
}

// resourceTypeName is the type name, without the provider's, of the resource that writes t:
// its kind in snake case ("_live_stream").
func resourceTypeName(t WriteTarget) string {
	return "_" + strings.ReplaceAll(lower(t.Kind), " ", "_")
}

// DeletedByID is the managedBase of a resource whose object one call (its writeTarget's
// deleteByID) deletes by its id.
type DeletedByID struct {
	ManagedBase
}

// NewDeletedByID is the base of the resource that writes t and whose objects t.deleteByID deletes.
func NewDeletedByID(t WriteTarget) DeletedByID {
	return DeletedByID{ManagedBase: NewManagedBase(t)}
}

// Delete deletes the object through the shared delete machinery (deleteObject); one already
// gone counts as deleted.
func (b *DeletedByID) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	id, ok := ConfiguredID(ctx, b.Pd, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	DeleteObject(ctx, b.Pd, b.WriteTarget, &resp.Diagnostics, id, func(ctx context.Context) error {
		return b.DeleteByID(b.Pd.Client, ctx, id)
	})
}

// WithIDImport gives a resource the identity of one attribute, id, and its import by that id
// or identity (importByID).
type WithIDImport struct {
	// What describes the id in the identity schema: "webhook (`webhookId`)".
	What string
	// HowToFind tells the user where to find valid ids when the one given is refused.
	HowToFind string
}

// NewIDImport is the identity and import of the resource that writes t, whose id the service
// calls idParam ("liveStreamId").
func NewIDImport(t WriteTarget, idParam string) WithIDImport {
	typeName := resourceTypeName(t)
	return WithIDImport{
		What: lower(t.Kind) + " (`" + idParam + "`)",
		HowToFind: fmt.Sprintf("Import a %s by its id (%s) exactly as the service gives it; the "+
			"videohost%ss data source and terraform query (list \"videohost%s\") list them",
			lower(t.Kind), idParam, typeName, typeName),
	}
}

func (w WithIDImport) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = IdIdentitySchema(w.What)
}

// ImportState imports by the id of terraform import or of an import block, or by an import
// block's identity (importByID).
func (w WithIDImport) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importByID(ctx, req, resp, w.HowToFind)
}

// WithPlannedUpdate is the Update of a resource whose update has nothing to send (every change
// the service would see forces a replacement): it records the plan as the state, with the
// identity of its id.
type WithPlannedUpdate struct{}

func (WithPlannedUpdate) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var id types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("id"), &id)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.State.Raw = req.Plan.Raw
	resp.Diagnostics.Append(SetIDIdentity(ctx, resp.Identity, id)...)
}

// SetStateAndIdentity records what a create or an update leaves: the state m of the object
// and its identity, id.
func SetStateAndIdentity(ctx context.Context, state *tfsdk.State, identity *tfsdk.ResourceIdentity, m any, id types.String) diag.Diagnostics {
	diags := state.Set(ctx, m)
	diags.Append(SetIDIdentity(ctx, identity, id)...)
	return diags
}

// ReadRemote is the part that every resource's Read shares: it sets the identity from id, then
// fetches the object with get. It reports false when Read has nothing more to do: the provider
// has no client yet (the state stays as it is), the object was deleted outside Terraform (it
// leaves the state with a warning that ends with afterDeletion, what the user should know of
// the next apply), or the read failed (an error).
func ReadRemote[T any](ctx context.Context, b *ManagedBase, resp *resource.ReadResponse, id types.String, afterDeletion string,
	get func(*videohost.Client, context.Context, string) (T, error),
) (T, bool) {
	var zero T
	// Set before anything else: a state written before resources had an identity (or by a
	// Terraform that keeps none) gets one on its first refresh, whatever the refresh finds.
	resp.Diagnostics.Append(SetIDIdentity(ctx, resp.Identity, id)...)
	if b.Pd == nil {
		// The provider's configuration depends on values not known yet; the state stays as it
		// is until it can be refreshed.
		return zero, false
	}
	obj, err := get(b.Pd.Client, ctx, id.ValueString())
	if errors.Is(err, videohost.ErrNotFound) {
		// In the past tense: Terraform prints a refresh's warnings again at the end of the apply
		// that followed it, when the object has been created again.
		resp.Diagnostics.AddWarning(b.Kind+" Deleted Outside Terraform", fmt.Sprintf(
			"The %s %s no longer existed on the service when Terraform read it: it was deleted outside Terraform. "+
				"Terraform removed it from the state and, where it is still configured, planned to create it again%s.",
			lower(b.Kind), id.ValueString(), afterDeletion))
		resp.State.RemoveResource(ctx)
		return zero, false
	}
	if err != nil {
		AddAPIErrorDiagnostics(&resp.Diagnostics, "Unable to Read "+b.Kind, err, b.Pd, b.Attrs)
		return zero, false
	}
	return obj, true
}

// KeptString is a computed attribute that the service sets once, when it creates the object:
// the plan keeps the state's value instead of showing it as known after apply.
func KeptString(description string) schema.StringAttribute {
	return schema.StringAttribute{
		MarkdownDescription: description,
		Computed:            true,
		PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
}

// KeptSecret is a keptString that holds a secret.
func KeptSecret(description string) schema.StringAttribute {
	a := KeptString(description)
	a.Sensitive = true
	return a
}

// ResourceAssetsAttribute is the assets attribute of a resource whose object plays in the
// service's player (a video, a live stream): the addresses of its outputs (playerAssets, and
// with mp4 the video's mp4 download), which the plan keeps from the state.
func ResourceAssetsAttribute(description string, mp4 bool) schema.SingleNestedAttribute {
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
