package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

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

// playerThemeDataAttributes are the attributes of one player theme, all computed; the single
// data source makes id required.
func playerThemeDataAttributes() map[string]schema.Attribute {
	attrs := map[string]schema.Attribute{
		"id":   computedString("The player theme's id (`playerId`)."),
		"name": computedString("The theme's name; null when it has none."),
		"assets": computedObject("The theme's logo and the address it links to; null until a logo is uploaded.",
			map[string]schema.Attribute{
				"logo": computedString("Address of the logo image."),
				"link": computedString("Address the logo links to."),
			}),
		"created_at": computedString("When the theme was created, RFC 3339 (UTC)."),
		"updated_at": computedString("When the theme was last changed, RFC 3339 (UTC)."),
	}
	for _, c := range themeColours {
		attrs[c.attr] = computedString(c.what + " A colour `rgba(R, G, B, A)` as the service keeps it.")
	}
	for _, s := range themeSwitches {
		attrs[s.attr] = computedBool(s.what)
	}
	return attrs
}

// playerThemesModel is the configuration and result of videohost_player_themes.
type playerThemesModel struct {
	SortBy       types.String `tfsdk:"sort_by"`
	SortOrder    types.String `tfsdk:"sort_order"`
	PlayerThemes types.List   `tfsdk:"player_themes"`
}

// NewPlayerThemesDataSource returns the videohost_player_themes data source: every player
// theme, every page.
func NewPlayerThemesDataSource() datasource.DataSource {
	return newListDataSource("_player_themes", listRead[videohost.PlayerTheme, playerThemesModel, videohost.PlayerThemeFilter]{
		description: "Lists every player theme of the workspace (every page). The service has no filter on themes; " +
			"it sorts them.",
		filters: withSortFilters(map[string]schema.Attribute{}, "name", "createdAt", "updatedAt"),
		items:   "player_themes", itemsDescription: "The player themes, in the service's order; empty when there are none.",
		itemAttributes: playerThemeDataAttributes, elem: playerThemeObjectType,
		title: "Player Themes", filterPaths: withSortFilterPaths(map[string]path.Path{}),
		filter: func(_ context.Context, m playerThemesModel) (videohost.PlayerThemeFilter, diag.Diagnostics) {
			return videohost.PlayerThemeFilter{SortBy: m.SortBy.ValueString(), SortOrder: m.SortOrder.ValueString()}, nil
		},
		list: (*videohost.Client).ListPlayerThemes,
		object: func(_ context.Context, p videohost.PlayerTheme) (types.Object, diag.Diagnostics) {
			return playerThemeModelFrom(p).object()
		},
	})
}

// playerThemeObjectType is the type of the elements of player_themes, from the schema (see
// list_values.go).
var playerThemeObjectType = objectTypeOf(playerThemeDataAttributes())

// object is the player theme as an element of the player_themes list.
func (m playerThemeModel) object() (types.Object, diag.Diagnostics) {
	values := map[string]attr.Value{
		"id": m.ID, "name": m.Name, "assets": m.Assets, "created_at": m.CreatedAt, "updated_at": m.UpdatedAt,
	}
	for _, c := range themeColours {
		values[c.attr] = *c.model(&m)
	}
	for _, s := range themeSwitches {
		values[s.attr] = *s.model(&m)
	}
	return types.ObjectValue(playerThemeObjectType.AttrTypes, values)
}
