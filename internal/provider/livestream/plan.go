package livestream

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
)

var _ resource.ResourceWithValidateConfig = (*liveStreamResource)(nil)

// ValidateConfig checks what the schema's validators cannot say in a user's words: the number
// of restreams, and each restream's choice of key. The count is checked here rather than by a
// validator of the list, since the framework does not validate the items of a list that its
// own validators refused: six restreams would hide every error of each restream. Each message
// names the restream by its place and name, and lands on the attribute to set.
func (r *liveStreamResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var restreams types.List
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("restreams"), &restreams)...)
	if resp.Diagnostics.HasError() || restreams.IsNull() || restreams.IsUnknown() {
		return
	}
	items := restreams.Elements()
	if n := len(items); n > maxRestreams {
		resp.Diagnostics.AddAttributeError(path.Root("restreams"), "Too Many Restreams", fmt.Sprintf(
			"restreams lists %d restreams; the service sends a live stream on to at most %d destinations. Remove %d "+
				"of them (each restream's own errors, if any, are reported as well).", n, maxRestreams, n-maxRestreams))
	}
	for i, item := range items {
		obj, ok := item.(types.Object)
		if !ok || obj.IsNull() || obj.IsUnknown() {
			continue
		}
		validateRestreamKey(obj.Attributes(), path.Root("restreams").AtListIndex(i), i, &resp.Diagnostics)
	}
}

// validateRestreamKey checks that a restream sets exactly one of stream_key and stream_key_wo,
// and stream_key_wo_version only with stream_key_wo. An unknown value counts as set: it may
// be known at apply.
func validateRestreamKey(attrs map[string]attr.Value, at path.Path, i int, diags *diag.Diagnostics) {
	set := func(name string) bool { v, ok := attrs[name]; return ok && !v.IsNull() }
	who := restreamWords(attrs, i)
	keyInState, keyWO, version := set("stream_key"), set("stream_key_wo"), set("stream_key_wo_version")
	switch {
	case keyInState && keyWO:
		diags.AddAttributeError(at.AtName("stream_key_wo"), "Two Stream Keys for One Restream", fmt.Sprintf(
			"%s sets both stream_key and stream_key_wo (%s and %s); the destination takes one key. Keep "+
				"stream_key to have the key in the state (sensitive), or stream_key_wo to keep it out of the plan and "+
				"the state (Terraform 1.11 or later, with stream_key_wo_version), and remove the other.",
			framework.UpperFirst(who), at.AtName("stream_key"), at.AtName("stream_key_wo")))
	case !keyInState && !keyWO:
		// On the item: the attribute to set is not in the configuration, so there is no line of
		// its own to highlight.
		diags.AddAttributeError(at, "Missing Stream Key for a Restream", fmt.Sprintf(
			"%s has no stream key: set %s to the key the destination gave for its ingest, or set %s (write-only, "+
				"Terraform 1.11 or later, with stream_key_wo_version) to keep the key out of the plan and the state. "+
				"A configuration written by -generate-config-out (terraform plan or terraform query) has stream_key = "+
				"null here, since Terraform never writes a sensitive value into a file: fill in the key.",
			framework.UpperFirst(who), at.AtName("stream_key"), at.AtName("stream_key_wo")))
	}
	if version && !keyWO {
		diags.AddAttributeError(at.AtName("stream_key_wo_version"), "Stream Key Version Without a Write-Only Key",
			fmt.Sprintf("%s sets %s, which counts the changes of a write-only key, but has no stream_key_wo. Remove "+
				"stream_key_wo_version, or move the key from stream_key to %s.", framework.UpperFirst(who),
				at.AtName("stream_key_wo_version"), at.AtName("stream_key_wo")))
	}
}

// restreamWords names restream i in a user's words: its place in the list, and its name when
// the configuration gives one.
func restreamWords(attrs map[string]attr.Value, i int) string {
	words := fmt.Sprintf("restream %d of restreams (restreams[%d])", i+1, i)
	if name, ok := attrs["name"].(types.String); ok && !name.IsNull() && !name.IsUnknown() && framework.NonBlank.MatchString(name.ValueString()) {
		words = fmt.Sprintf("restream %d of restreams, %q (restreams[%d])", i+1, name.ValueString(), i)
	}
	return words
}
