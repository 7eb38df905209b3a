package playertheme

// The create and update of videohost_player_theme, in one place so that the resource's methods
// hold no request of their own.

import (
	"context"
	"errors"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// createPlayerTheme creates a theme; a create whose outcome is unknown adopts the theme it
// stored: the service has no filter on themes, so every theme is listed and the one with
// every value sent, created since the attempt, is taken.
// It goes through the shared create machinery, which adds the diagnostics; false when there is
// nothing to record.
func createPlayerTheme(ctx context.Context, pd *framework.ProviderData, diags *diag.Diagnostics, in videohost.PlayerThemeInput) (videohost.PlayerTheme, bool) {
	return framework.CreateObject(ctx, pd, playerThemeWrites, diags, framework.AdoptionCreateOps(pd, framework.AdoptableCreate[videohost.PlayerTheme]{
		Kind: "player theme", Path: "/players",
		Create: func(ctx context.Context) (videohost.PlayerTheme, error) { return pd.Client.CreatePlayerTheme(ctx, in) },
		List: func(ctx context.Context) ([]videohost.PlayerTheme, error) {
			return pd.Client.ListPlayerThemes(ctx, videohost.PlayerThemeFilter{})
		},
		Matches: func(p videohost.PlayerTheme) bool { return PlayerThemeHolds(p, in) },
		Id:      func(p videohost.PlayerTheme) string { return p.ID },
		Created: func(p videohost.PlayerTheme) *time.Time { return p.CreatedAt },
	}))
}

// playerThemeWrites names the player theme for the shared create and delete machinery.
var playerThemeWrites = framework.WriteTarget{Kind: "Player Theme", DeleteByID: (*videohost.Client).DeletePlayerTheme, Attrs: playerThemeAttributePaths}

// PlayerThemeHolds reports whether p has every value that in sends.
func PlayerThemeHolds(p videohost.PlayerTheme, in videohost.PlayerThemeInput) bool {
	if v, ok := in.Name.Get(); ok && p.Name != v {
		return false
	}
	for _, c := range ThemeColours {
		if v, ok := c.in(&in).Get(); ok && *c.Api(&p) != v {
			return false
		}
	}
	for _, s := range ThemeSwitches {
		if v, ok := s.in(&in).Get(); ok && *s.Api(&p) != v {
			return false
		}
	}
	return true
}

// updatePlayerTheme sends what changed. A PATCH of nothing is not sent: the theme is read, so
// that the state still gets the service's current values.
func updatePlayerTheme(ctx context.Context, pd *framework.ProviderData, id string, in videohost.PlayerThemeInput) (videohost.PlayerTheme, error) {
	if in == (videohost.PlayerThemeInput{}) {
		return pd.Client.GetPlayerTheme(ctx, id)
	}
	return pd.Client.UpdatePlayerTheme(ctx, id, in)
}

// PlayerThemeInputFrom is the body that makes the service's theme what plan says: with prior
// nil (a create) every known value of plan, else only the values that differ from prior (a
// PATCH leaves the others as they are), and an empty name where prior had one.
func PlayerThemeInputFrom(plan playerThemeModel, prior *playerThemeModel) videohost.PlayerThemeInput {
	var in videohost.PlayerThemeInput
	changed := func(get func(*playerThemeModel) attr.Value) bool {
		v := get(&plan)
		if v.IsNull() || v.IsUnknown() {
			return false
		}
		return prior == nil || !v.Equal(get(prior))
	}
	switch {
	case changed(func(m *playerThemeModel) attr.Value { return m.Name }):
		in.Name = videohost.Value(plan.Name.ValueString())
	case plan.Name.IsNull() && prior != nil && !prior.Name.IsNull():
		// The published document gives the name as a string of at most 100 characters, never
		// null; the empty one is such a string, and a theme without a name reads back without
		// one (no name and an empty name are both null in the state).
		in.Name = videohost.Value("")
	}
	for _, c := range ThemeColours {
		if changed(func(m *playerThemeModel) attr.Value { return *c.Model(m) }) {
			*c.in(&in) = videohost.Value(c.Model(&plan).ValueString())
		}
	}
	for _, s := range ThemeSwitches {
		if changed(func(m *playerThemeModel) attr.Value { return *s.model(m) }) {
			*s.in(&in) = videohost.Value(s.model(&plan).ValueBool())
		}
	}
	return in
}

// PlayerThemeLogoPaths maps the members of the logo's endpoints, as a 400 names them, to the
// resource's attributes.
var PlayerThemeLogoPaths = map[string]path.Path{
	"file": path.Root("logo_file"), "link": path.Root("logo_link"), "logo": path.Root("logo_file"),
	"playerId": path.Root("id"),
}

// writeLogo makes the logo of the theme p what plan says, after prior (nil on a create): it
// uploads logo_file when it is new or changed, deletes the logo when logo_file was removed, and
// returns the theme as the service then has it. On failure the diagnostics say why and the
// theme is returned as it was, for the state.
func writeLogo(ctx context.Context, pd *framework.ProviderData, p videohost.PlayerTheme, plan playerThemeResourceModel,
	prior *playerThemeResourceModel, diags *diag.Diagnostics,
) videohost.PlayerTheme {
	switch {
	case plan.LogoFile.IsNull():
		if p.Assets == nil {
			return p
		}
		if err := pd.Client.DeletePlayerLogo(ctx, p.ID); err != nil && !errors.Is(err, videohost.ErrNotFound) {
			framework.AddAPIErrorDiagnostics(diags, "Unable to Delete Player Theme Logo", err, pd, PlayerThemeLogoPaths)
			return p
		}
		got, err := pd.Client.GetPlayerTheme(ctx, p.ID)
		if err != nil {
			// The logo is gone; the theme is recorded without it.
			p.Assets = nil
			return p
		}
		return got
	case prior != nil && p.Assets != nil && !logoChanged(plan, *prior):
		return p
	}
	if _, err := framework.CheckPlannedImage(ctx, plan.LogoFile.ValueString(), plan.LogoSHA256.ValueString(), logoImage); err != nil {
		framework.AddImageFileError(diags, path.Root("logo_file"), "Unable to Upload Player Theme Logo", err)
		return p
	}
	got, err := framework.UploadImage(ctx, plan.LogoFile.ValueString(), plan.LogoSHA256.ValueString(), logoImage,
		func(ctx context.Context, src videohost.UploadSource) (videohost.PlayerTheme, error) {
			return pd.Client.UploadPlayerLogo(ctx, p.ID, plan.LogoLink.ValueString(), src)
		})
	if err != nil {
		framework.AddAPIErrorDiagnostics(diags, "Unable to Upload Player Theme Logo", err, pd, PlayerThemeLogoPaths)
		return p
	}
	return got
}
