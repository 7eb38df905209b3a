package playertheme

// The videohost_player_theme list resource: the player themes that terraform query finds.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// NewPlayerThemeListResource returns the videohost_player_theme list resource. The list items
// carry every attribute of the resource.
func NewPlayerThemeListResource() list.ListResource {
	return framework.NewListResource("_player_theme", framework.Listing[videohost.PlayerTheme, struct{}, videohost.PlayerThemeFilter]{
		Description: "Lists every player theme of the workspace for `terraform query` (the service has no " +
			"filter on themes). Each result is a theme's identity (`id`) and its name; with `include_resource = " +
			"true`, also every attribute of the resource. Terraform 1.14 and later.",
		Filters:     map[string]listschema.Attribute{},
		Filter:      func(struct{}) videohost.PlayerThemeFilter { return videohost.PlayerThemeFilter{} },
		Walk:        (*videohost.Client).WalkPlayerThemes,
		What:        "player themes",
		Id:          func(p videohost.PlayerTheme) string { return p.ID },
		DisplayName: playerThemeDisplayName,
		Model: func(_ context.Context, p videohost.PlayerTheme) (any, diag.Diagnostics) {
			return PlayerThemeResourceModelFrom(p, nil), nil
		},
		ErrorSummary: "Unable to List Player Themes",
	})
}

// playerThemeDisplayName is a theme's name, or its id for a theme without one.
func playerThemeDisplayName(p videohost.PlayerTheme) string {
	if p.Name == "" {
		return p.ID + " (no name)"
	}
	return p.Name
}
