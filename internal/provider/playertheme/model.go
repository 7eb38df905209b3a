package playertheme

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// playerThemeModel is one player theme: the state of videohost_player_theme, the data source
// videohost_player_theme and the items of videohost_player_themes.
type playerThemeModel struct {
	ID               types.String `tfsdk:"id"`
	Name             types.String `tfsdk:"name"`
	Text             types.String `tfsdk:"text"`
	Link             types.String `tfsdk:"link"`
	LinkHover        types.String `tfsdk:"link_hover"`
	LinkActive       types.String `tfsdk:"link_active"`
	TrackPlayed      types.String `tfsdk:"track_played"`
	TrackUnplayed    types.String `tfsdk:"track_unplayed"`
	TrackBackground  types.String `tfsdk:"track_background"`
	BackgroundTop    types.String `tfsdk:"background_top"`
	BackgroundBottom types.String `tfsdk:"background_bottom"`
	BackgroundText   types.String `tfsdk:"background_text"`
	EnableAPI        types.Bool   `tfsdk:"enable_api"`
	EnableControls   types.Bool   `tfsdk:"enable_controls"`
	ForceAutoplay    types.Bool   `tfsdk:"force_autoplay"`
	HideTitle        types.Bool   `tfsdk:"hide_title"`
	ForceLoop        types.Bool   `tfsdk:"force_loop"`
	Assets           types.Object `tfsdk:"assets"`
	CreatedAt        types.String `tfsdk:"created_at"`
	UpdatedAt        types.String `tfsdk:"updated_at"`
}

// playerThemeAssetsTypes are the attributes of a theme's assets.
var playerThemeAssetsTypes = map[string]attr.Type{"logo": types.StringType, "link": types.StringType}

// themeColour is one colour of a player theme: its attribute, its member on the wire, the
// service's default and where it sits in the model, the answer and the body.
type themeColour struct {
	Attr, Wire, Def, what string
	Model                 func(*playerThemeModel) *types.String
	Api                   func(*videohost.PlayerTheme) *string
	in                    func(*videohost.PlayerThemeInput) *videohost.Field[string]
}

// themeSwitch is one switch of a player theme, as themeColour is one colour.
type themeSwitch struct {
	Attr, Wire, what string
	Def              bool
	model            func(*playerThemeModel) *types.Bool
	Api              func(*videohost.PlayerTheme) *bool
	in               func(*videohost.PlayerThemeInput) *videohost.Field[bool]
}

// ThemeColours are the colours of a player theme, with the defaults of the contract.
var ThemeColours = []themeColour{
	{"text", "text", "rgba(255, 255, 255, 1)", "Colour of the player's text.",
		func(m *playerThemeModel) *types.String { return &m.Text }, func(p *videohost.PlayerTheme) *string { return &p.Text },
		func(in *videohost.PlayerThemeInput) *videohost.Field[string] { return &in.Text }},
	{"link", "link", "rgba(255, 255, 255, 1)", "Colour of the player's links.",
		func(m *playerThemeModel) *types.String { return &m.Link }, func(p *videohost.PlayerTheme) *string { return &p.Link },
		func(in *videohost.PlayerThemeInput) *videohost.Field[string] { return &in.Link }},
	{"link_hover", "linkHover", "rgba(255, 255, 255, 1)", "Colour of a link under the pointer.",
		func(m *playerThemeModel) *types.String { return &m.LinkHover }, func(p *videohost.PlayerTheme) *string { return &p.LinkHover },
		func(in *videohost.PlayerThemeInput) *videohost.Field[string] { return &in.LinkHover }},
	{"link_active", "linkActive", "rgba(255, 255, 255, 1)", "Colour of a link being clicked.",
		func(m *playerThemeModel) *types.String { return &m.LinkActive }, func(p *videohost.PlayerTheme) *string { return &p.LinkActive },
		func(in *videohost.PlayerThemeInput) *videohost.Field[string] { return &in.LinkActive }},
	{"track_played", "trackPlayed", "rgba(88, 131, 255, .95)", "Colour of the played part of the progress bar.",
		func(m *playerThemeModel) *types.String { return &m.TrackPlayed }, func(p *videohost.PlayerTheme) *string { return &p.TrackPlayed },
		func(in *videohost.PlayerThemeInput) *videohost.Field[string] { return &in.TrackPlayed }},
	{"track_unplayed", "trackUnplayed", "rgba(255, 255, 255, .35)", "Colour of the part of the progress bar not played yet.",
		func(m *playerThemeModel) *types.String { return &m.TrackUnplayed }, func(p *videohost.PlayerTheme) *string { return &p.TrackUnplayed },
		func(in *videohost.PlayerThemeInput) *videohost.Field[string] { return &in.TrackUnplayed }},
	{"track_background", "trackBackground", "rgba(255, 255, 255, .2)", "Colour of the progress bar's background.",
		func(m *playerThemeModel) *types.String { return &m.TrackBackground }, func(p *videohost.PlayerTheme) *string { return &p.TrackBackground },
		func(in *videohost.PlayerThemeInput) *videohost.Field[string] { return &in.TrackBackground }},
	{"background_top", "backgroundTop", "rgba(0, 0, 0, .7)", "Colour at the top of the controls' background gradient.",
		func(m *playerThemeModel) *types.String { return &m.BackgroundTop }, func(p *videohost.PlayerTheme) *string { return &p.BackgroundTop },
		func(in *videohost.PlayerThemeInput) *videohost.Field[string] { return &in.BackgroundTop }},
	{"background_bottom", "backgroundBottom", "rgba(0, 0, 0, .7)", "Colour at the bottom of the controls' background gradient.",
		func(m *playerThemeModel) *types.String { return &m.BackgroundBottom }, func(p *videohost.PlayerTheme) *string { return &p.BackgroundBottom },
		func(in *videohost.PlayerThemeInput) *videohost.Field[string] { return &in.BackgroundBottom }},
	{"background_text", "backgroundText", "rgba(255, 255, 255, 1)", "Colour of the background of the title text.",
		func(m *playerThemeModel) *types.String { return &m.BackgroundText }, func(p *videohost.PlayerTheme) *string { return &p.BackgroundText },
		func(in *videohost.PlayerThemeInput) *videohost.Field[string] { return &in.BackgroundText }},
}

// ThemeSwitches are the switches of a player theme, with the defaults of the contract.
var ThemeSwitches = []themeSwitch{
	{"enable_api", "enableApi", "Whether the player can be driven from the page's JavaScript (the player SDK).", true,
		func(m *playerThemeModel) *types.Bool { return &m.EnableAPI }, func(p *videohost.PlayerTheme) *bool { return &p.EnableAPI },
		func(in *videohost.PlayerThemeInput) *videohost.Field[bool] { return &in.EnableAPI }},
	{"enable_controls", "enableControls", "Whether the viewer sees the player's controls.", true,
		func(m *playerThemeModel) *types.Bool { return &m.EnableControls }, func(p *videohost.PlayerTheme) *bool { return &p.EnableControls },
		func(in *videohost.PlayerThemeInput) *videohost.Field[bool] { return &in.EnableControls }},
	{"force_autoplay", "forceAutoplay", "Whether playback starts as soon as the player loads.", false,
		func(m *playerThemeModel) *types.Bool { return &m.ForceAutoplay }, func(p *videohost.PlayerTheme) *bool { return &p.ForceAutoplay },
		func(in *videohost.PlayerThemeInput) *videohost.Field[bool] { return &in.ForceAutoplay }},
	{"hide_title", "hideTitle", "Whether the title is hidden while playing.", false,
		func(m *playerThemeModel) *types.Bool { return &m.HideTitle }, func(p *videohost.PlayerTheme) *bool { return &p.HideTitle },
		func(in *videohost.PlayerThemeInput) *videohost.Field[bool] { return &in.HideTitle }},
	{"force_loop", "forceLoop", "Whether playback starts again at the end.", false,
		func(m *playerThemeModel) *types.Bool { return &m.ForceLoop }, func(p *videohost.PlayerTheme) *bool { return &p.ForceLoop },
		func(in *videohost.PlayerThemeInput) *videohost.Field[bool] { return &in.ForceLoop }},
}

// playerThemeAttributePaths maps the members of the /players endpoints, as a 400 names them,
// to the attributes of a player theme.
var playerThemeAttributePaths = func() map[string]path.Path {
	m := map[string]path.Path{"name": path.Root("name"), "playerId": path.Root("id")}
	for _, c := range ThemeColours {
		m[c.Wire] = path.Root(c.Attr)
	}
	for _, s := range ThemeSwitches {
		m[s.Wire] = path.Root(s.Attr)
	}
	return m
}()

// PlayerThemeModelFrom maps a player theme of the service to the model. A theme without a
// name has a null name.
func PlayerThemeModelFrom(p videohost.PlayerTheme) playerThemeModel {
	m := playerThemeModel{
		ID:        types.StringValue(p.ID),
		Name:      types.StringNull(),
		Assets:    types.ObjectNull(playerThemeAssetsTypes),
		CreatedAt: framework.TimeString(p.CreatedAt),
		UpdatedAt: framework.TimeString(p.UpdatedAt),
	}
	if p.Name != "" {
		m.Name = types.StringValue(p.Name)
	}
	for _, c := range ThemeColours {
		*c.Model(&m) = types.StringValue(*c.Api(&p))
	}
	for _, s := range ThemeSwitches {
		*s.model(&m) = types.BoolValue(*s.Api(&p))
	}
	if p.Assets != nil {
		m.Assets = types.ObjectValueMust(playerThemeAssetsTypes, map[string]attr.Value{
			"logo": types.StringValue(p.Assets.Logo), "link": types.StringValue(p.Assets.Link),
		})
	}
	return m
}

// playerThemeDataAttributes are the attributes of one player theme, all computed; the single
// data source makes id required.
func playerThemeDataAttributes() map[string]schema.Attribute {
	attrs := map[string]schema.Attribute{
		"id":   framework.ComputedString("The player theme's id (`playerId`)."),
		"name": framework.ComputedString("The theme's name; null when it has none."),
		"assets": framework.ComputedObject("The theme's logo and the address it links to; null until a logo is uploaded.",
			map[string]schema.Attribute{
				"logo": framework.ComputedString("Address of the logo image."),
				"link": framework.ComputedString("Address the logo links to."),
			}),
		"created_at": framework.ComputedString("When the theme was created, RFC 3339 (UTC)."),
		"updated_at": framework.ComputedString("When the theme was last changed, RFC 3339 (UTC)."),
	}
	for _, c := range ThemeColours {
		attrs[c.Attr] = framework.ComputedString(c.what + " A colour `rgba(R, G, B, A)` as the service keeps it.")
	}
	for _, s := range ThemeSwitches {
		attrs[s.Attr] = framework.ComputedBool(s.what)
	}
	return attrs
}

// PlayerThemeObjectType is the type of the elements of player_themes, from the schema (see
// list_values.go).
var PlayerThemeObjectType = framework.ObjectTypeOf(playerThemeDataAttributes())

// Object is the player theme as an element of the player_themes list.
func (m playerThemeModel) Object() (types.Object, diag.Diagnostics) {
	values := map[string]attr.Value{
		"id": m.ID, "name": m.Name, "assets": m.Assets, "created_at": m.CreatedAt, "updated_at": m.UpdatedAt,
	}
	for _, c := range ThemeColours {
		values[c.Attr] = *c.Model(&m)
	}
	for _, s := range ThemeSwitches {
		values[s.Attr] = *s.model(&m)
	}
	return types.ObjectValue(PlayerThemeObjectType.AttrTypes, values)
}

// playerThemeResourceModel is the state of videohost_player_theme: the theme as the data
// sources show it, and its logo as the configuration gives it.
type playerThemeResourceModel struct {
	playerThemeModel
	LogoFile   types.String `tfsdk:"logo_file"`
	LogoLink   types.String `tfsdk:"logo_link"`
	LogoSHA256 types.String `tfsdk:"logo_sha256"`
	LogoURL    types.String `tfsdk:"logo_url"`
}

// PlayerThemeResourceModelFrom is the state of the theme p. The logo's file, link and hash are
// prior's (nil: none known, as in a list); a theme without a logo on the service has a null
// hash, so that a configured logo_file shows as a change and is uploaded again.
func PlayerThemeResourceModelFrom(p videohost.PlayerTheme, prior *playerThemeResourceModel) playerThemeResourceModel {
	m := playerThemeResourceModel{
		playerThemeModel: PlayerThemeModelFrom(p),
		LogoFile:         types.StringNull(), LogoLink: types.StringNull(),
		LogoSHA256: types.StringNull(), LogoURL: types.StringNull(),
	}
	if prior != nil {
		m.LogoFile, m.LogoLink = prior.LogoFile, prior.LogoLink
	}
	if p.Assets == nil {
		return m
	}
	m.LogoURL = types.StringValue(p.Assets.Logo)
	if prior != nil {
		m.LogoSHA256 = prior.LogoSHA256
		// A link changed outside Terraform shows as a change; a theme whose logo has no link
		// keeps a null one.
		if !prior.LogoLink.IsNull() && p.Assets.Link != prior.LogoLink.ValueString() {
			m.LogoLink = types.StringValue(p.Assets.Link)
		}
	}
	return m
}
