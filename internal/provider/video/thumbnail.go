package video

// The image thumbnail of videohost_video: thumbnail_file, uploaded in place (POST
// /videos/{id}/thumbnail). The service has no delete of a video's thumbnail, so removing
// thumbnail_file leaves the image where it is (the plan says so); thumbnail_timecode, which
// picks a frame instead, cannot be set with it. thumbnail_file.go has what live streams share.

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// addVideoThumbnailAttributes adds thumbnail_file and thumbnail_sha256 to the video's schema.
func addVideoThumbnailAttributes(attrs map[string]schema.Attribute) {
	file, sum := framework.ThumbnailAttributes("video", "removing it keeps the image as the thumbnail, since the service "+
		"cannot delete a video's thumbnail (set `thumbnail_timecode` instead to pick a frame). Cannot be set with "+
		"`thumbnail_timecode`.")
	file.Validators = []validator.String{stringvalidator.ConflictsWith(path.MatchRoot("thumbnail_timecode"))}
	attrs["thumbnail_file"], attrs["thumbnail_sha256"] = file, sum
}

// PlanVideoThumbnail plans thumbnail_sha256 and, when an update uploads the file, the video's
// assets as unknown; a plan that removes thumbnail_file says what stays.
func PlanVideoThumbnail(ctx context.Context, plan *VideoResourceModel, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) bool {
	var state *VideoResourceModel
	if !req.State.Raw.IsNull() {
		s, ok := framework.ModelOf[VideoResourceModel](ctx, req.State, &resp.Diagnostics)
		if !ok {
			return false
		}
		state = &s
	}
	var stateSum *types.String
	if state != nil {
		stateSum = &state.ThumbnailSHA256
	}
	uploads := framework.PlanThumbnail(ctx, plan.ThumbnailFile, &plan.ThumbnailSHA256, stateSum, req, resp)
	if resp.Diagnostics.HasError() {
		return false
	}
	if state == nil {
		return true
	}
	if uploads {
		// The thumbnail gets a new address, and the video's updatedAt moves.
		plan.Assets = types.ObjectUnknown(VideoResourceAssetsTypes)
		plan.UpdatedAt = types.StringUnknown()
		// Only this plan makes the change, after the framework planned the computed values
		// from the state: a language the service has not detected yet may be there after it.
		if state.Language.IsNull() {
			plan.Language = types.StringUnknown()
		}
	}
	if plan.ThumbnailFile.IsNull() && !state.ThumbnailFile.IsNull() && plan.ThumbnailTimecode.IsNull() {
		resp.Diagnostics.AddAttributeWarning(path.Root("thumbnail_file"), "Video Thumbnail Kept", fmt.Sprintf(
			"The service cannot delete a video's thumbnail: without thumbnail_file, video %s keeps the image "+
				"uploaded from %s as its thumbnail, and Terraform stops managing it. To change it, set "+
				"thumbnail_file to another image, or thumbnail_timecode to pick a frame of the video.",
			state.ID.ValueString(), state.ThumbnailFile.ValueString()))
	}
	return true
}

// videoThumbnailAddress is the address of the video's thumbnail, "" when it shows none.
func videoThumbnailAddress(v videohost.Video) string {
	if v.Assets == nil {
		return ""
	}
	return v.Assets.Thumbnail
}

// checkVideoThumbnail makes the refreshed state's thumbnail hash null, with a warning, when the
// video shows another thumbnail than the one Terraform uploaded, so that the next apply uploads
// the file again.
func checkVideoThumbnail(ctx context.Context, state *VideoResourceModel, v videohost.Video, private framework.PrivateReader, diags *diag.Diagnostics) {
	if !state.ThumbnailFile.IsNull() && framework.ThumbnailReplacedOutside(ctx, private, "video", v.ID, videoThumbnailAddress(v), diags) {
		state.ThumbnailSHA256 = types.StringNull()
	}
}
