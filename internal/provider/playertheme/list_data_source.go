package playertheme

// The videohost_player_themes data source: the player themes that its filters select.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// playerThemesModel is the configuration and result of videohost_player_themes.
type playerThemesModel struct {
	SortBy       types.String `tfsdk:"sort_by"`
	SortOrder    types.String `tfsdk:"sort_order"`
	PlayerThemes types.List   `tfsdk:"player_themes"`
}

// NewPlayerThemesDataSource returns the videohost_player_themes data source: every player
// theme, every page.
func NewPlayerThemesDataSource() datasource.DataSource {
	return framework.NewListDataSource("_player_themes", framework.ListRead[videohost.PlayerTheme, playerThemesModel, videohost.PlayerThemeFilter]{
		Description: "Lists every player theme of the workspace (every page). The service has no filter on themes; " +
			"it sorts them.",
		Filters: framework.WithSortFilters(map[string]schema.Attribute{}, "name", "createdAt", "updatedAt"),
		Items:   "player_themes", ItemsDescription: "The player themes, in the service's order; empty when there are none.",
		ItemAttributes: playerThemeDataAttributes,
		Title:          "Player Themes", FilterPaths: framework.WithSortFilterPaths(map[string]path.Path{}),
		Filter: func(_ context.Context, m playerThemesModel) (videohost.PlayerThemeFilter, diag.Diagnostics) {
			return videohost.PlayerThemeFilter{SortBy: m.SortBy.ValueString(), SortOrder: m.SortOrder.ValueString()}, nil
		},
		List: (*videohost.Client).ListPlayerThemes,
		Object: func(_ context.Context, p videohost.PlayerTheme) (types.Object, diag.Diagnostics) {
			return PlayerThemeModelFrom(p).Object()
		},
	})
}
