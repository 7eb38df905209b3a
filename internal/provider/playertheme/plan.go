package playertheme

// The plan of videohost_player_theme, which is the plan of its logo: an image file uploaded
// beside the theme's PATCH, with the address a click on it opens. The service keeps the image
// under a new URL at every upload and nothing that would tell whether it is the file's, so the
// plan takes the file's SHA-256 and a change of it (or of the link) uploads the file again;
// removing logo_file deletes the logo (writeLogo, player_theme_writes.go).

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/localfile"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// ModifyPlan plans the logo: its SHA-256, taken from the file now, and what an upload changes.
func (r *playerThemeResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	modifyLogoPlan(ctx, req, resp)
}

// logoImage bounds a player theme's logo as the service does: a JPEG or PNG of at most
// 200 × 100 pixels and 100 KiB.
var logoImage = localfile.ImageLimits{MaxWidth: 200, MaxHeight: 100, MaxBytes: 100 << 10, MaxUpload: videohost.MaxUploadChunkSize}

// modifyLogoPlan takes the SHA-256 of logo_file and plans the logo's computed attributes: a new
// upload (a new hash or link, or a logo the service lost) makes the logo's address and the
// theme's assets unknown; no logo_file makes them null; otherwise they stay as they are.
func modifyLogoPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	var plan, state playerThemeResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	hasState := !req.State.Raw.IsNull()
	if hasState {
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	sum := framework.PlanFileSHA256(ctx, plan.LogoFile, logoImage, "logo_file", req, resp)
	if resp.Diagnostics.HasError() {
		return
	}
	plan.LogoSHA256 = sum
	// writes says whether the apply uploads or deletes the logo: the theme's updated_at moves
	// then, even when nothing else of the theme changes.
	writes := false
	switch {
	case plan.LogoFile.IsNull():
		writes = hasState && !state.LogoURL.IsNull()
		plan.LogoURL = types.StringNull()
		plan.Assets = types.ObjectNull(playerThemeAssetsTypes)
	case !hasState || logoChanged(plan, state):
		writes = true
		plan.LogoURL = types.StringUnknown()
		plan.Assets = types.ObjectUnknown(playerThemeAssetsTypes)
	default:
		plan.LogoURL, plan.Assets = state.LogoURL, state.Assets
	}
	if writes {
		plan.UpdatedAt = types.StringUnknown()
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// logoChanged reports whether plan uploads the logo again over state: another content, another
// link, or no logo on the service.
func logoChanged(plan, state playerThemeResourceModel) bool {
	return !plan.LogoSHA256.Equal(state.LogoSHA256) || !plan.LogoLink.Equal(state.LogoLink) ||
		state.LogoURL.IsNull() || state.LogoSHA256.IsNull()
}
