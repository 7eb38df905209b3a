package playertheme

// The videohost_player_theme data source: one player theme, read by its id.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// NewPlayerThemeDataSource returns the videohost_player_theme data source: one player theme,
// read by id.
func NewPlayerThemeDataSource() datasource.DataSource {
	return framework.NewObjectDataSource("_player_theme", framework.ObjectRead[videohost.PlayerTheme]{
		Description: "Reads one player theme by its id: its colours and switches, with the service's " +
			"defaults filled in.",
		Attributes:    playerThemeDataAttributes,
		IdDescription: "The id (`playerId`) of the player theme to read. An id that does not exist is an error.",
		IdWhat:        "a player theme (its playerId)", ListedBy: "videohost_player_themes",
		IdParam: "playerId", Title: "Player Theme",
		Get: (*videohost.Client).GetPlayerTheme,
		State: func(_ context.Context, p videohost.PlayerTheme) (any, diag.Diagnostics) {
			return PlayerThemeModelFrom(p), nil
		},
	})
}
