package provider

// The create and update of videohost_player_theme, in one place so that the resource's methods
// hold no request of their own.

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// createPlayerTheme creates a theme; a create whose outcome is unknown adopts the theme it
// stored: the service has no filter on themes, so every theme is listed and the one with
// every value sent, created since the attempt, is taken.
// It goes through the shared create machinery, which adds the diagnostics; false when there is
// nothing to record.
func createPlayerTheme(ctx context.Context, pd *providerData, diags *diag.Diagnostics, in videohost.PlayerThemeInput) (videohost.PlayerTheme, bool) {
	return createObject(ctx, pd, playerThemeWrites, diags, adoptionCreateOps(pd, adoptableCreate[videohost.PlayerTheme]{
		kind: "player theme", path: "/players",
		create: func(ctx context.Context) (videohost.PlayerTheme, error) { return pd.client.CreatePlayerTheme(ctx, in) },
		list: func(ctx context.Context) ([]videohost.PlayerTheme, error) {
			return pd.client.ListPlayerThemes(ctx, videohost.PlayerThemeFilter{})
		},
		matches: func(p videohost.PlayerTheme) bool { return playerThemeHolds(p, in) },
		id:      func(p videohost.PlayerTheme) string { return p.ID },
		created: func(p videohost.PlayerTheme) *time.Time { return p.CreatedAt },
	}))
}

// playerThemeWrites names the player theme for the shared create and delete machinery.
var playerThemeWrites = writeTarget{kind: "Player Theme", attrs: playerThemeAttributePaths}

// playerThemeHolds reports whether p has every value that in sends.
func playerThemeHolds(p videohost.PlayerTheme, in videohost.PlayerThemeInput) bool {
	if v, ok := in.Name.Get(); ok && p.Name != v {
		return false
	}
	for _, c := range themeColours {
		if v, ok := c.in(&in).Get(); ok && *c.api(&p) != v {
			return false
		}
	}
	for _, s := range themeSwitches {
		if v, ok := s.in(&in).Get(); ok && *s.api(&p) != v {
			return false
		}
	}
	return true
}

// updatePlayerTheme sends what changed. A PATCH of nothing is not sent: the theme is read, so
// that the state still gets the service's current values.
func updatePlayerTheme(ctx context.Context, pd *providerData, id string, in videohost.PlayerThemeInput) (videohost.PlayerTheme, error) {
	if in == (videohost.PlayerThemeInput{}) {
		return pd.client.GetPlayerTheme(ctx, id)
	}
	return pd.client.UpdatePlayerTheme(ctx, id, in)
}
