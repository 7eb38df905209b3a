package livestream

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
)

// ClearedAttributeReplaces is the summary of the warning of a plan that replaces an object
// because an attribute was removed that the service gives no way to clear.
const ClearedAttributeReplaces = "Removed Attribute Forces Replacement"

// ReplaceWhenCleared plans a replacement when the attribute goes from a value to null: the
// service's published API takes a value for it in an update, never null, so the provider does
// not invent a way to clear it in place. A warning says why, what the replacement changes
// (consequence) and how to keep the object instead. Importing an object whose attribute is set,
// with a configuration that leaves it out, is the same case.
func ReplaceWhenCleared(thing, consequence string) planmodifier.String {
	return stringplanmodifier.RequiresReplaceIf(func(_ context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
		if req.StateValue.IsNull() || req.StateValue.IsUnknown() || !req.PlanValue.IsNull() {
			return
		}
		resp.RequiresReplace = true
		resp.Diagnostics.AddAttributeWarning(req.Path, ClearedAttributeReplaces, fmt.Sprintf(
			"%s was removed from the configuration, but the service offers no way to remove it from a %s: its "+
				"update takes a value for it, never null. Terraform will therefore replace the %s: %s. To keep this "+
				"%s, set %s again (it is %q now) or to another value.",
			req.Path, thing, thing, consequence, thing, req.Path, req.StateValue.ValueString()))
	},
		"Removing the attribute replaces the object: the service cannot clear it in place.",
		"Removing the attribute replaces the object: the service cannot clear it in place.")
}
