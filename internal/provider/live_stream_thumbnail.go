package provider

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

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

var _ resource.ResourceWithModifyPlan = (*liveStreamResource)(nil)

// addLiveStreamThumbnailAttributes adds thumbnail_file and thumbnail_sha256 to the schema.
func addLiveStreamThumbnailAttributes(attrs map[string]schema.Attribute) {
	attrs["thumbnail_file"], attrs["thumbnail_sha256"] = thumbnailAttributes("live stream",
		"removing it deletes the thumbnail, and the live stream shows the service's own again.")
}

// ModifyPlan takes the thumbnail file's SHA-256 and, when the apply uploads or deletes the
// thumbnail, plans the assets as unknown: the thumbnail's address changes.
func (r *liveStreamResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	plan, ok := modelOf[liveStreamResourceModel](ctx, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	var stateSum *types.String
	deletes := false
	if !req.State.Raw.IsNull() {
		state, ok := modelOf[liveStreamResourceModel](ctx, req.State, &resp.Diagnostics)
		if !ok {
			return
		}
		stateSum = &state.ThumbnailSHA256
		deletes = plan.ThumbnailFile.IsNull() && !state.ThumbnailFile.IsNull()
	}
	uploads := planThumbnail(ctx, plan.ThumbnailFile, &plan.ThumbnailSHA256, stateSum, req, resp)
	if resp.Diagnostics.HasError() {
		return
	}
	if stateSum != nil && (uploads || deletes) {
		plan.Assets = types.ObjectUnknown(liveStreamAssetsTypes)
		plan.UpdatedAt = types.StringUnknown()
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// writeLiveStreamThumbnail uploads plan's thumbnail file when it is new or changed over state
// (nil on a create), or deletes the thumbnail when plan no longer has one, and returns the live
// stream as the service then shows it. m, the state to record, keeps the file and its hash; a
// write that failed leaves the state's (a null hash on a create, so the next plan uploads).
func writeLiveStreamThumbnail(ctx context.Context, pd *providerData, ls videohost.LiveStream, plan liveStreamResourceModel,
	state *liveStreamResourceModel, private privateWriter, diags *diag.Diagnostics,
) (videohost.LiveStream, types.String, types.String) {
	switch {
	case plan.ThumbnailFile.IsNull():
		if state == nil || state.ThumbnailFile.IsNull() {
			return ls, plan.ThumbnailFile, plan.ThumbnailSHA256
		}
		got, err := pd.client.DeleteLiveStreamThumbnail(ctx, ls.ID)
		if err != nil {
			addAPIErrorDiagnostics(diags, "Unable to Delete Live Stream Thumbnail", err, pd, liveStreamAttributePaths)
			return ls, state.ThumbnailFile, state.ThumbnailSHA256
		}
		recordThumbnailAddress(ctx, private, "", diags)
		return got, plan.ThumbnailFile, plan.ThumbnailSHA256
	case state != nil && !state.ThumbnailSHA256.IsNull() && plan.ThumbnailSHA256.Equal(state.ThumbnailSHA256):
		return ls, plan.ThumbnailFile, plan.ThumbnailSHA256
	}
	got, ok := uploadThumbnail(ctx, pd, plan.ThumbnailFile, plan.ThumbnailSHA256, private,
		func(ctx context.Context, src videohost.UploadSource) (videohost.LiveStream, error) {
			return pd.client.UploadLiveStreamThumbnail(ctx, ls.ID, src)
		},
		func(l videohost.LiveStream) string { return liveStreamThumbnailAddress(l) }, diags)
	if !ok {
		if state == nil {
			return ls, plan.ThumbnailFile, types.StringNull()
		}
		return ls, state.ThumbnailFile, state.ThumbnailSHA256
	}
	return got, plan.ThumbnailFile, plan.ThumbnailSHA256
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
	private privateReader, diags *diag.Diagnostics,
) {
	m.ThumbnailFile, m.ThumbnailSHA256 = state.ThumbnailFile, state.ThumbnailSHA256
	if !state.ThumbnailFile.IsNull() &&
		thumbnailReplacedOutside(ctx, private, "live stream", ls.ID, liveStreamThumbnailAddress(ls), diags) {
		m.ThumbnailSHA256 = types.StringNull()
	}
}
