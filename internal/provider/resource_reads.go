package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// refreshed names what a resource's Read refreshes, for the words of its diagnostics.
type refreshed struct {
	// noun and title name the object: "live stream", "Live Stream".
	noun, title string
	// afterDeletion ends the warning of an object deleted outside Terraform with what the user
	// should know of the next apply (", with a new stream key ..."); empty when nothing.
	afterDeletion string
	// attrs maps the API's parameter names to attributes, as addAPIErrorDiagnostics takes them.
	attrs map[string]path.Path
}

// readRemote is the part that every resource's Read shares: it sets the identity from id, then
// fetches the object with get. It reports false when Read has nothing more to do: the provider
// has no client yet (the state stays as it is), the object was deleted outside Terraform (it
// leaves the state with a warning), or the read failed (an error).
func readRemote[T any](ctx context.Context, pd *providerData, resp *resource.ReadResponse, id types.String, what refreshed,
	get func(*videohost.Client, context.Context, string) (T, error),
) (T, bool) {
	var zero T
	// Set before anything else: a state written before resources had an identity (or by a
	// Terraform that keeps none) gets one on its first refresh, whatever the refresh finds.
	resp.Diagnostics.Append(setIDIdentity(ctx, resp.Identity, id)...)
	if pd == nil {
		// The provider's configuration depends on values not known yet; the state stays as it
		// is until it can be refreshed.
		return zero, false
	}
	obj, err := get(pd.client, ctx, id.ValueString())
	if errors.Is(err, videohost.ErrNotFound) {
		resp.Diagnostics.AddWarning(what.title+" Deleted Outside Terraform", fmt.Sprintf(
			"The %s %s no longer exists on the service: it was deleted outside Terraform. It is removed from the "+
				"state; the next apply creates it again if it is still configured%s.", what.noun, id.ValueString(), what.afterDeletion))
		resp.State.RemoveResource(ctx)
		return zero, false
	}
	if err != nil {
		addAPIErrorDiagnostics(&resp.Diagnostics, "Unable to Read "+what.title, err, pd, what.attrs)
		return zero, false
	}
	return obj, true
}
