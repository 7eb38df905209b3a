package provider

// The videohost_player_theme list resource: the player themes that terraform query finds.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// NewPlayerThemeListResource returns the videohost_player_theme list resource. The list items
// carry every attribute of the resource.
func NewPlayerThemeListResource() list.ListResource {
	return newListResource("_player_theme", listing[videohost.PlayerTheme, struct{}, videohost.PlayerThemeFilter]{
		description: "Lists every player theme of the workspace for `terraform query` (the service has no " +
			"filter on themes). Each result is a theme's identity (`id`) and its name; with `include_resource = " +
			"true`, also every attribute of the resource. Terraform 1.14 and later.",
		filters:     map[string]listschema.Attribute{},
		filter:      func(struct{}) videohost.PlayerThemeFilter { return videohost.PlayerThemeFilter{} },
		walk:        (*videohost.Client).WalkPlayerThemes,
		what:        "player themes",
		id:          func(p videohost.PlayerTheme) string { return p.ID },
		displayName: playerThemeDisplayName,
		model: func(_ context.Context, p videohost.PlayerTheme) (any, diag.Diagnostics) {
			return playerThemeResourceModelFrom(p, nil), nil
		},
		errorSummary: "Unable to List Player Themes",
	})
}

// playerThemeDisplayName is a theme's name, or its id for a theme without one.
func playerThemeDisplayName(p videohost.PlayerTheme) string {
	if p.Name == "" {
		return p.ID + " (no name)"
	}
	return p.Name
}
