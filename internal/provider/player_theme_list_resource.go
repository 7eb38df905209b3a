package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

var (
	_ list.ListResource              = (*playerThemeListResource)(nil)
	_ list.ListResourceWithConfigure = (*playerThemeListResource)(nil)
)

// playerThemeListResource is the list resource videohost_player_theme: terraform query
// (Terraform 1.14 and later) finds the player themes of the workspace with it.
type playerThemeListResource struct {
	pd *providerData
}

// playerThemeListing turns the player themes of the service's list into list results; the
// list items carry every attribute of the resource.
var playerThemeListing = listing[videohost.PlayerTheme]{
	what:        "player themes",
	id:          func(p videohost.PlayerTheme) string { return p.ID },
	displayName: playerThemeDisplayName,
	model: func(_ context.Context, p videohost.PlayerTheme) (any, diag.Diagnostics) {
		return playerThemeModelFrom(p), nil
	},
	errorSummary: "Unable to List Player Themes",
}

// playerThemeDisplayName is a theme's name, or its id for a theme without one.
func playerThemeDisplayName(p videohost.PlayerTheme) string {
	if p.Name == "" {
		return p.ID + " (no name)"
	}
	return p.Name
}

// NewPlayerThemeListResource returns the videohost_player_theme list resource.
func NewPlayerThemeListResource() list.ListResource { return &playerThemeListResource{} }

func (l *playerThemeListResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_player_theme"
}

func (l *playerThemeListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Lists every player theme of the workspace for `terraform query` (the service has no " +
			"filter on themes). Each result is a theme's identity (`id`) and its name; with `include_resource = " +
			"true`, also every attribute of the resource. Terraform 1.14 and later.",
		Attributes: map[string]listschema.Attribute{},
	}
}

func (l *playerThemeListResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	l.pd = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (l *playerThemeListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var diags diag.Diagnostics
	if !requireConfigured(l.pd, &diags) {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	stream.Results = playerThemeListing.results(ctx, req, l.pd, l.pd.client.WalkPlayerThemes(ctx, videohost.PlayerThemeFilter{}))
}
