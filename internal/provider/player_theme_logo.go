package provider

// The logo of videohost_player_theme: an image file uploaded beside the theme's PATCH, with the
// address a click on it opens. The service keeps the image under a new URL at every upload and
// nothing that would tell whether it is the file's, so the plan takes the file's SHA-256 and a
// change of it (or of the link) uploads the file again; removing logo_file deletes the logo.

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// logoImage bounds a player theme's logo as the service does: a JPEG or PNG of at most
// 200 × 100 pixels and 100 KiB.
var logoImage = imageLimits{maxWidth: 200, maxHeight: 100, maxBytes: 100 << 10}

// playerThemeLogoAttributes are the logo's attributes of the resource's schema.
func playerThemeLogoAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"logo_file": schema.StringAttribute{
			MarkdownDescription: "Path of the theme's logo: a JPEG or PNG image (recognised by its content) of at most " +
				"200 × 100 pixels and 100 KiB, checked when the plan is made. A change of its content (`logo_sha256`) " +
				"uploads it again in place; removing it deletes the logo. No default: a theme without it has no logo.",
			Optional: true,
		},
		"logo_link": schema.StringAttribute{
			MarkdownDescription: "Address a click on the logo opens, an absolute http or https URL; needs `logo_file`. " +
				"A change uploads the logo again with the new link. No default: the logo links nowhere.",
			Optional: true,
			Validators: []validator.String{
				httpURLValidator(),
				stringvalidator.AlsoRequires(path.MatchRoot("logo_file")),
			},
		},
		"logo_sha256": schema.StringAttribute{
			MarkdownDescription: "SHA-256 of `logo_file`'s content (lowercase hex), taken when the plan is made; null " +
				"without a logo, or when the service has lost the logo (the next apply uploads it again).",
			Computed: true,
		},
		"logo_url": schema.StringAttribute{
			MarkdownDescription: "Address of the logo as the service serves it; it changes at every upload. Null " +
				"without a logo.",
			Computed: true,
		},
	}
}

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
	sum := planFileSHA256(plan.LogoFile, logoImage, path.Root("logo_file"), &resp.Diagnostics)
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

// playerThemeLogoPaths maps the members of the logo's endpoints, as a 400 names them, to the
// resource's attributes.
var playerThemeLogoPaths = map[string]path.Path{
	"file": path.Root("logo_file"), "link": path.Root("logo_link"), "logo": path.Root("logo_file"),
	"playerId": path.Root("id"),
}

// writeLogo makes the logo of the theme p what plan says, after prior (nil on a create): it
// uploads logo_file when it is new or changed, deletes the logo when logo_file was removed, and
// returns the theme as the service then has it. On failure the diagnostics say why and the
// theme is returned as it was, for the state.
func writeLogo(ctx context.Context, pd *providerData, p videohost.PlayerTheme, plan playerThemeResourceModel,
	prior *playerThemeResourceModel, diags *diag.Diagnostics,
) videohost.PlayerTheme {
	switch {
	case plan.LogoFile.IsNull():
		if p.Assets == nil {
			return p
		}
		if err := pd.client.DeletePlayerLogo(ctx, p.ID); err != nil && !errors.Is(err, videohost.ErrNotFound) {
			addAPIErrorDiagnostics(diags, "Unable to Delete Player Theme Logo", err, pd, playerThemeLogoPaths)
			return p
		}
		got, err := pd.client.GetPlayerTheme(ctx, p.ID)
		if err != nil {
			// The logo is gone; the theme is recorded without it.
			p.Assets = nil
			return p
		}
		return got
	case prior != nil && p.Assets != nil && !logoChanged(plan, *prior):
		return p
	}
	if _, err := checkPlannedImage(plan.LogoFile.ValueString(), plan.LogoSHA256.ValueString(), logoImage); err != nil {
		addImageFileError(diags, path.Root("logo_file"), "Unable to Upload Player Theme Logo", err)
		return p
	}
	got, err := uploadImage(ctx, plan.LogoFile.ValueString(), plan.LogoSHA256.ValueString(), logoImage,
		func(ctx context.Context, src videohost.UploadSource) (videohost.PlayerTheme, error) {
			return pd.client.UploadPlayerLogo(ctx, p.ID, plan.LogoLink.ValueString(), src)
		})
	if err != nil {
		addAPIErrorDiagnostics(diags, "Unable to Upload Player Theme Logo", err, pd, playerThemeLogoPaths)
		return p
	}
	return got
}
