package playertheme

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

var (
	_ framework.ManagedResource       = (*playerThemeResource)(nil)
	_ resource.ResourceWithModifyPlan = (*playerThemeResource)(nil)
)

// playerThemeResource is videohost_player_theme. The service changes a theme in place, so no
// attribute forces a replacement; its logo (player_theme_plan.go, player_theme_writes.go) is uploaded and deleted in
// place too.
type playerThemeResource struct {
	framework.DeletedByID
	framework.WithIDImport
}

// NewPlayerThemeResource returns the videohost_player_theme resource.
func NewPlayerThemeResource() resource.Resource {
	return &playerThemeResource{
		DeletedByID:  framework.NewDeletedByID(playerThemeWrites),
		WithIDImport: framework.NewIDImport(playerThemeWrites, "playerId"),
	}
}

// maxPlayerThemeName is the longest name the service takes.
const maxPlayerThemeName = 100

func (r *playerThemeResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attrs := map[string]schema.Attribute{
		"id": framework.KeptString("Identifier of the player theme (the service's `playerId`); a live stream's `player_id` takes it."),
		"name": schema.StringAttribute{
			MarkdownDescription: fmt.Sprintf("Name of the theme, at most %d characters. No default: a theme may have "+
				"no name, and removing it from the configuration removes it from the theme.", maxPlayerThemeName),
			Optional:   true,
			Validators: []validator.String{stringvalidator.LengthBetween(1, maxPlayerThemeName)},
		},
		"assets": schema.SingleNestedAttribute{
			MarkdownDescription: "The theme's logo and the address it links to, as the service shows them; null " +
				"without a logo (see `logo_file`).",
			Computed:      true,
			PlanModifiers: []planmodifier.Object{objectplanmodifier.UseStateForUnknown()},
			Attributes: map[string]schema.Attribute{
				"logo": schema.StringAttribute{Computed: true, MarkdownDescription: "Address of the logo image."},
				"link": schema.StringAttribute{Computed: true, MarkdownDescription: "Address the logo links to."},
			},
		},
		"created_at": framework.KeptString("Creation time of the theme, RFC 3339."),
		"updated_at": schema.StringAttribute{
			MarkdownDescription: "Time of the theme's last change, RFC 3339; it moves on every update.",
			Computed:            true,
		},
	}
	for name, a := range playerThemeLogoAttributes() {
		attrs[name] = a
	}
	for _, c := range ThemeColours {
		attrs[c.Attr] = schema.StringAttribute{
			MarkdownDescription: c.what + " A colour `rgba(R, G, B, A)`: R, G and B integers from 0 to 255, A a " +
				"decimal from 0 to 1 (`.5` or `0.5`); the service keeps it as written. Default `" + c.Def + "`.",
			Optional:   true,
			Computed:   true,
			Default:    stringdefault.StaticString(c.Def),
			Validators: []validator.String{framework.ColourValidator()},
		}
	}
	for _, s := range ThemeSwitches {
		attrs[s.Attr] = schema.BoolAttribute{
			MarkdownDescription: fmt.Sprintf("%s Default `%t`.", s.what, s.Def),
			Optional:            true,
			Computed:            true,
			Default:             booldefault.StaticBool(s.Def),
		}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A player theme: the colours and switches of the player that embeds videos and live " +
			"streams (attach it to a live stream with `player_id`). Every attribute is changed in place. An " +
			"attribute left out of the configuration takes the service's default, so that removing a line " +
			"puts the default back; a theme's logo is an image file (`logo_file`), checked and hashed when the " +
			"plan is made and uploaded again when its content changes. Viewers may see a change only after up to 10 minutes. Import with the theme's id.",
		Attributes: attrs,
	}
}

func (r *playerThemeResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	// The whole create is one write for the rate-limit warning, the requests around the create's own included.
	defer framework.NoteRateLimitWaits(&resp.Diagnostics, framework.RateWaitsNow(r.Pd))
	plan, ok := framework.ConfiguredModel[playerThemeResourceModel](ctx, r.Pd, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	p, ok := createPlayerTheme(ctx, r.Pd, &resp.Diagnostics, PlayerThemeInputFrom(plan.playerThemeModel, nil))
	if !ok {
		return
	}
	tflog.Debug(ctx, "created player theme", map[string]any{"player_id": p.ID})
	// A logo that fails to upload leaves the theme recorded without it: the next apply uploads it.
	p = writeLogo(ctx, r.Pd, p, plan, nil, &resp.Diagnostics)
	state := PlayerThemeResourceModelFrom(p, &plan)
	if p.Assets == nil {
		state.LogoSHA256 = types.StringNull()
	}
	resp.Diagnostics.Append(framework.SetStateAndIdentity(ctx, &resp.State, resp.Identity, &state, state.ID)...)
}

func (r *playerThemeResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, ok := framework.ModelOf[playerThemeResourceModel](ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	p, ok := framework.ReadRemote(ctx, &r.ManagedBase, resp, state.ID,
		", and live streams that used it show their player_id as a change",
		(*videohost.Client).LookupPlayerTheme)
	if !ok {
		return
	}
	m := PlayerThemeResourceModelFrom(p, &state)
	if logoReplacedOutside(state, m) {
		// Every upload gives the logo a new address: another one than the provider's own upload
		// recorded is a logo uploaded outside Terraform. A null hash makes the plan upload the
		// configured logo again, in place.
		m.LogoSHA256 = types.StringNull()
		resp.Diagnostics.AddWarning("Player Theme Logo Replaced Outside Terraform", fmt.Sprintf(
			"The logo of player theme %s is no longer the image Terraform uploaded: its address changed from %s to %s. "+
				"The next apply uploads logo_file again, in place.", state.ID.ValueString(), state.LogoURL.ValueString(),
			m.LogoURL.ValueString()))
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// logoReplacedOutside reports whether the read theme m shows another logo than the one whose
// address the state recorded.
func logoReplacedOutside(state, m playerThemeResourceModel) bool {
	return !state.LogoURL.IsNull() && !state.LogoURL.IsUnknown() && !m.LogoURL.IsNull() && !m.LogoURL.Equal(state.LogoURL)
}

func (r *playerThemeResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer framework.NoteRateLimitWaits(&resp.Diagnostics, framework.RateWaitsNow(r.Pd))
	plan, ok := framework.ConfiguredModel[playerThemeResourceModel](ctx, r.Pd, req.Plan, &resp.Diagnostics)
	state, ok2 := framework.ModelOf[playerThemeResourceModel](ctx, req.State, &resp.Diagnostics)
	if !ok || !ok2 {
		return
	}
	p, err := updatePlayerTheme(ctx, r.Pd, state.ID.ValueString(), PlayerThemeInputFrom(plan.playerThemeModel, &state.playerThemeModel))
	if err != nil {
		framework.AddAPIErrorDiagnostics(&resp.Diagnostics, "Unable to Update Player Theme", err, r.Pd, playerThemeAttributePaths)
		return
	}
	p = writeLogo(ctx, r.Pd, p, plan, &state, &resp.Diagnostics)
	newState := PlayerThemeResourceModelFrom(p, &plan)
	if resp.Diagnostics.HasError() {
		// The logo was not written: the state keeps the one the service still has.
		newState.LogoFile, newState.LogoLink, newState.LogoSHA256 = state.LogoFile, state.LogoLink, state.LogoSHA256
	}
	resp.Diagnostics.Append(framework.SetStateAndIdentity(ctx, &resp.State, resp.Identity, &newState, newState.ID)...)
}

// playerThemeLogoAttributes are the logo's attributes of the resource's schema.
func playerThemeLogoAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"logo_file": schema.StringAttribute{
			MarkdownDescription: "Path of the theme's logo: a JPEG or PNG image (recognised by its content) of at most " +
				"200 × 100 pixels and 100 KiB that is whole (checked without decoding its pixels) when the plan is made. A change of its content (`logo_sha256`) " +
				"uploads it again in place; removing it deletes the logo. No default: a theme without it has no logo.",
			Optional: true,
		},
		"logo_link": schema.StringAttribute{
			MarkdownDescription: "Address a click on the logo opens, an absolute http or https URL; needs `logo_file`. " +
				"A change uploads the logo again with the new link. No default: the logo links nowhere.",
			Optional: true,
			Validators: []validator.String{
				framework.HttpURLValidator(),
				stringvalidator.AlsoRequires(path.MatchRoot("logo_file")),
			},
		},
		"logo_sha256": schema.StringAttribute{
			MarkdownDescription: "SHA-256 of `logo_file`'s content (lowercase hex), taken when the plan is made; null " +
				"without a logo, or when the service has lost the logo or holds another one uploaded outside Terraform " +
				"(its address is no longer the one Terraform's upload got): the next apply uploads it again, in place.",
			Computed: true,
		},
		"logo_url": schema.StringAttribute{
			MarkdownDescription: "Address of the logo as the service serves it; it changes at every upload. Null " +
				"without a logo.",
			Computed: true,
		},
	}
}
