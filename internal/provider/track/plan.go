package track

// The plan of captions and chapters: their file checked and hashed without a request.

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/localfile"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
)

// ModifyPlan reads the source file when the plan is made: a file that cannot be uploaded is an
// error on source_file before any request, and the file's hash becomes source_sha256, whose
// change uploads it again. src is kept when nothing is uploaded.
func (b *TrackBase) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	var file types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("source_file"), &file)...)
	if resp.Diagnostics.HasError() || file.IsNull() {
		return
	}
	sum := types.StringUnknown()
	if !file.IsUnknown() {
		name := file.ValueString()
		prior := framework.LoadHashRecord(ctx, req.Private, "source_file", name)
		f, why := localfile.InspectWebVTT(name, prior)
		if why != "" {
			resp.Diagnostics.AddAttributeError(path.Root("source_file"), "Unusable Source File",
				fmt.Sprintf("source_file must name a WebVTT file to upload as the %s: %s.", b.noun, why))
			return
		}
		framework.KeepNewHashRecord(ctx, name, prior, f.Record)
		framework.StoreHashRecord(ctx, resp.Private, "source_file", f.Record, &resp.Diagnostics)
		sum = types.StringValue(f.SHA256)
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("source_sha256"), sum)...)
	if req.State.Raw.IsNull() {
		return
	}
	var prior types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("source_sha256"), &prior)...)
	// The file is uploaded again, which gives it a new address, unless its hash is the state's.
	// Without a change in the configuration, Terraform would otherwise plan the old address.
	src := types.StringUnknown()
	if !sum.IsUnknown() && sum.Equal(prior) {
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("src"), &src)...)
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("src"), src)...)
}
