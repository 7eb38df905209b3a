package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

var (
	_ datasource.DataSource              = (*playerThemesDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*playerThemesDataSource)(nil)
)

// NewPlayerThemesDataSource returns the videohost_player_themes data source.
func NewPlayerThemesDataSource() datasource.DataSource { return &playerThemesDataSource{} }

// playerThemesDataSource lists every player theme, every page.
type playerThemesDataSource struct {
	pd *providerData
}

// playerThemesModel is the configuration and result of videohost_player_themes.
type playerThemesModel struct {
	SortBy       types.String       `tfsdk:"sort_by"`
	SortOrder    types.String       `tfsdk:"sort_order"`
	PlayerThemes []playerThemeModel `tfsdk:"player_themes"`
}

func (d *playerThemesDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_player_themes"
}

func (d *playerThemesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists every player theme of the account, across every page of the service's answer. " +
			"The service has no filter on themes; it sorts them.",
		Attributes: map[string]schema.Attribute{
			"sort_by": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "The field to sort by: `name`, `createdAt` or `updatedAt`. The service's own " +
					"order (creation, oldest first) when unset.",
				Validators: []validator.String{stringvalidator.OneOf("name", "createdAt", "updatedAt")},
			},
			"sort_order": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "The sort direction: `asc` or `desc`. The service's default (`asc`) when unset.",
				Validators:          []validator.String{stringvalidator.OneOf("asc", "desc")},
			},
			"player_themes": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The player themes, in the service's order; empty when there are none.",
				NestedObject:        schema.NestedAttributeObject{Attributes: playerThemeDataAttributes()},
			},
		},
	}
}

func (d *playerThemesDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.pd = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *playerThemesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !requireConfigured(d.pd, &resp.Diagnostics) {
		return
	}
	var m playerThemesModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	list, err := d.pd.client.ListPlayerThemes(ctx, videohost.PlayerThemeFilter{
		SortBy:    m.SortBy.ValueString(),
		SortOrder: m.SortOrder.ValueString(),
	})
	if err != nil {
		addAPIErrorDiagnostics(&resp.Diagnostics, "Unable to List Player Themes", err, d.pd, map[string]path.Path{
			"sortBy":    path.Root("sort_by"),
			"sortOrder": path.Root("sort_order"),
		})
		return
	}
	m.PlayerThemes = make([]playerThemeModel, 0, len(list))
	for _, p := range list {
		m.PlayerThemes = append(m.PlayerThemes, playerThemeModelFrom(p))
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}
