package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

var (
	_ datasource.DataSource              = (*playerThemeDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*playerThemeDataSource)(nil)
)

// NewPlayerThemeDataSource returns the videohost_player_theme data source.
func NewPlayerThemeDataSource() datasource.DataSource { return &playerThemeDataSource{} }

// playerThemeDataSource reads one player theme by id.
type playerThemeDataSource struct {
	pd *providerData
}

// playerThemeDataAttributes are the attributes of one player theme, all computed; the single
// data source makes id required.
func playerThemeDataAttributes() map[string]schema.Attribute {
	attrs := map[string]schema.Attribute{
		"id": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "The player theme's id (`playerId`).",
		},
		"name": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "The theme's name; null when it has none.",
		},
		"assets": schema.SingleNestedAttribute{
			Computed:            true,
			MarkdownDescription: "The theme's logo and the address it links to; null until a logo is uploaded.",
			Attributes: map[string]schema.Attribute{
				"logo": schema.StringAttribute{Computed: true, MarkdownDescription: "Address of the logo image."},
				"link": schema.StringAttribute{Computed: true, MarkdownDescription: "Address the logo links to."},
			},
		},
		"created_at": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "When the theme was created, RFC 3339 (UTC).",
		},
		"updated_at": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "When the theme was last changed, RFC 3339 (UTC).",
		},
	}
	for _, c := range themeColours {
		attrs[c.attr] = schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: c.what + " A colour `rgba(R, G, B, A)` as the service keeps it.",
		}
	}
	for _, s := range themeSwitches {
		attrs[s.attr] = schema.BoolAttribute{Computed: true, MarkdownDescription: s.what}
	}
	return attrs
}

func (d *playerThemeDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_player_theme"
}

func (d *playerThemeDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := playerThemeDataAttributes()
	attrs["id"] = schema.StringAttribute{
		Required:            true,
		MarkdownDescription: "The id (`playerId`) of the player theme to read. An id that does not exist is an error.",
		Validators:          serviceIDValidators("a player theme (its playerId)", "videohost_player_themes"),
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one player theme by its id: its colours and switches, with the service's " +
			"defaults filled in.",
		Attributes: attrs,
	}
}

func (d *playerThemeDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.pd = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *playerThemeDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !requireConfigured(d.pd, &resp.Diagnostics) {
		return
	}
	var config playerThemeModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	p, err := d.pd.client.GetPlayerTheme(ctx, config.ID.ValueString())
	if err != nil {
		addAPIErrorDiagnostics(&resp.Diagnostics, "Unable to Read Player Theme", err, d.pd,
			map[string]path.Path{"playerId": path.Root("id")})
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, playerThemeModelFrom(p))...)
}
