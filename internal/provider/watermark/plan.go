package watermark

// The plan of videohost_watermark: its file checked and hashed without a request.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/localfile"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// WatermarkImage bounds a watermark's file: any JPEG or PNG of one upload.
var WatermarkImage = localfile.ImageLimits{MaxUpload: videohost.MaxUploadChunkSize}

// ModifyPlan checks that source_file is a JPEG or PNG image and takes the SHA-256 of its
// content, so that a change of the image shows in the plan as a replacement.
func (r *watermarkResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	var file, prior types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("source_file"), &file)...)
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("source_sha256"), &prior)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	sum := framework.PlanFileSHA256(ctx, file, WatermarkImage, "source_file", req, resp)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("source_sha256"), sum)...)
	// An imported watermark has no hash: the configuration's file is taken as its image.
	if !prior.IsNull() && !prior.IsUnknown() && !sum.Equal(prior) {
		resp.RequiresReplace = append(resp.RequiresReplace, path.Root("source_sha256"))
	}
}
