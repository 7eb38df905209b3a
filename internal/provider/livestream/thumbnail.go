package livestream

// The thumbnail of videohost_live_stream: an image file uploaded beside the live stream's
// PATCH (POST /live-streams/{id}/thumbnail); removing thumbnail_file deletes it (DELETE
// /live-streams/{id}/thumbnail), and the live stream shows the service's own thumbnail again.
// thumbnail_file.go has what videos share.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

var _ resource.ResourceWithModifyPlan = (*liveStreamResource)(nil)

// addLiveStreamThumbnailAttributes adds thumbnail_file and thumbnail_sha256 to the schema.
func addLiveStreamThumbnailAttributes(attrs map[string]schema.Attribute) {
	attrs["thumbnail_file"], attrs["thumbnail_sha256"] = framework.ThumbnailAttributes("live stream",
		"removing it deletes the thumbnail, and the live stream shows the service's own again.")
}

// ModifyPlan takes the thumbnail file's SHA-256 and, when the apply uploads or deletes the
// thumbnail, plans the assets as unknown: the thumbnail's address changes.
func (r *liveStreamResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	plan, ok := framework.ModelOf[liveStreamResourceModel](ctx, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	var stateSum *types.String
	deletes := false
	if !req.State.Raw.IsNull() {
		state, ok := framework.ModelOf[liveStreamResourceModel](ctx, req.State, &resp.Diagnostics)
		if !ok {
			return
		}
		stateSum = &state.ThumbnailSHA256
		deletes = plan.ThumbnailFile.IsNull() && !state.ThumbnailFile.IsNull()
	}
	uploads := framework.PlanThumbnail(ctx, plan.ThumbnailFile, &plan.ThumbnailSHA256, stateSum, req, resp)
	if resp.Diagnostics.HasError() {
		return
	}
	if stateSum != nil && (uploads || deletes) {
		plan.Assets = types.ObjectUnknown(liveStreamAssetsTypes)
		plan.UpdatedAt = types.StringUnknown()
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// liveStreamThumbnailAddress is the address of the live stream's thumbnail, "" when it shows none.
func liveStreamThumbnailAddress(l videohost.LiveStream) string {
	if l.Assets == nil {
		return ""
	}
	return l.Assets.Thumbnail
}

// keepLiveStreamThumbnail carries the thumbnail file and hash of state into the refreshed m;
// a thumbnail set outside Terraform makes the hash null, so that the next apply uploads the file.
func keepLiveStreamThumbnail(ctx context.Context, m *liveStreamResourceModel, state liveStreamResourceModel, ls videohost.LiveStream,
	private framework.PrivateReader, diags *diag.Diagnostics,
) {
	m.ThumbnailFile, m.ThumbnailSHA256 = state.ThumbnailFile, state.ThumbnailSHA256
	if !state.ThumbnailFile.IsNull() &&
		framework.ThumbnailReplacedOutside(ctx, private, "live stream", ls.ID, liveStreamThumbnailAddress(ls), diags) {
		m.ThumbnailSHA256 = types.StringNull()
	}
}
