package provider

// The videohost_player_theme data source: one player theme, read by its id.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// NewPlayerThemeDataSource returns the videohost_player_theme data source: one player theme,
// read by id.
func NewPlayerThemeDataSource() datasource.DataSource {
	return newObjectDataSource("_player_theme", objectRead[videohost.PlayerTheme]{
		description: "Reads one player theme by its id: its colours and switches, with the service's " +
			"defaults filled in.",
		attributes:    playerThemeDataAttributes,
		idDescription: "The id (`playerId`) of the player theme to read. An id that does not exist is an error.",
		idWhat:        "a player theme (its playerId)", listedBy: "videohost_player_themes",
		idParam: "playerId", title: "Player Theme",
		get: (*videohost.Client).GetPlayerTheme,
		state: func(_ context.Context, p videohost.PlayerTheme) (any, diag.Diagnostics) {
			return playerThemeModelFrom(p), nil
		},
	})
}
