package playertheme_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/provider/playertheme"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

func TestPlayerThemeModelFrom(t *testing.T) {
	p := acctest.SampleTheme("pt1")
	m := playertheme.PlayerThemeModelFrom(p)
	if !m.Name.IsNull() || !m.Assets.IsNull() {
		t.Errorf("a theme without a name or a logo: name %v, assets %v; want both null", m.Name, m.Assets)
	}
	if m.TrackPlayed.ValueString() != "rgba(88, 131, 255, .95)" || !m.EnableAPI.ValueBool() || m.ForceLoop.ValueBool() ||
		m.CreatedAt.ValueString() != "2026-01-02T03:04:05Z" {
		t.Errorf("model %+v", m)
	}
	p.Name, p.Assets = "brand", &videohost.PlayerThemeAssets{Logo: "https://cdn.example/logo.png", Link: "https://example.com"}
	m = playertheme.PlayerThemeModelFrom(p)
	logo, _ := m.Assets.Attributes()["logo"].(types.String)
	if m.Name.ValueString() != "brand" || logo.ValueString() != "https://cdn.example/logo.png" {
		t.Errorf("model %+v", m)
	}
	// Every colour and switch of the table lands in its own attribute: a table row pointing at
	// the wrong field would show here as two attributes with one value.
	seen := map[string]string{}
	for _, c := range playertheme.ThemeColours {
		*c.Api(&p) = "rgba(1, 1, 1, ." + c.Attr + ")"
	}
	m = playertheme.PlayerThemeModelFrom(p)
	for _, c := range playertheme.ThemeColours {
		got := c.Model(&m).ValueString()
		if got != "rgba(1, 1, 1, ."+c.Attr+")" {
			t.Errorf("%s = %q", c.Attr, got)
		}
		if other, dup := seen[got]; dup {
			t.Errorf("%s and %s share a field", c.Attr, other)
		}
		seen[got] = c.Attr
	}
}

func TestPlayerThemeInputFrom(t *testing.T) {
	plan := playertheme.PlayerThemeModelFrom(acctest.SampleTheme("pt1"))
	plan.Name = types.StringValue("brand")
	body, _ := json.Marshal(playertheme.PlayerThemeInputFrom(plan, nil))
	var sent map[string]any
	_ = json.Unmarshal(body, &sent)
	// A create sends every value the plan knows: the service then stores what the
	// configuration says, whatever its own defaults are.
	if len(sent) != 1+len(playertheme.ThemeColours)+len(playertheme.ThemeSwitches) || sent["name"] != "brand" || sent["forceLoop"] != false {
		t.Errorf("create body %s", body)
	}

	prior := plan
	plan.TrackPlayed = types.StringValue("rgba(1, 2, 3, .5)")
	plan.HideTitle = types.BoolValue(true)
	body, _ = json.Marshal(playertheme.PlayerThemeInputFrom(plan, &prior))
	if string(body) != `{"trackPlayed":"rgba(1, 2, 3, .5)","hideTitle":true}` {
		t.Errorf("update body %s, want only what changed", body)
	}
	plan = prior
	plan.Name = types.StringNull()
	if in := playertheme.PlayerThemeInputFrom(plan, &prior); in != (videohost.PlayerThemeInput{Name: videohost.Value("")}) {
		t.Errorf("a name removed from the configuration sends %+v, want only an empty name (the document has no null)", in)
	}
	plan.Name = types.StringUnknown()
	plan.Text = types.StringUnknown()
	if in := playertheme.PlayerThemeInputFrom(plan, &prior); in != (videohost.PlayerThemeInput{}) {
		t.Errorf("an unknown or unchanged plan sends %+v", in)
	}
}

func TestPlayerThemeHolds(t *testing.T) {
	p := acctest.SampleTheme("pt1")
	p.Name = "brand"
	if !playertheme.PlayerThemeHolds(p, videohost.PlayerThemeInput{Name: videohost.Value("brand"), ForceLoop: videohost.Value(false)}) {
		t.Error("a theme with the values sent does not match")
	}
	for name, in := range map[string]videohost.PlayerThemeInput{
		"name":   {Name: videohost.Value("other")},
		"colour": {TrackPlayed: videohost.Value("rgba(88, 131, 255, 0.95)")},
		"switch": {EnableAPI: videohost.Value(false)},
	} {
		if playertheme.PlayerThemeHolds(p, in) {
			t.Errorf("a theme with another %s matches", name)
		}
	}
}

// TestAccPlayerThemeResource creates a theme that sets a few fields, updates every attribute
// in place, puts the defaults back, imports it, and puts back a change made outside Terraform.
func TestAccPlayerThemeResource(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	var id string
	sameID := statecheck.CompareValue(compare.ValuesSame())

	// Every attribute changed from its default: each colour gets a value of its own.
	everything := []string{"name", acctest.Hcl(env.Name("brand-2"))}
	for i, c := range playertheme.ThemeColours {
		everything = append(everything, c.Attr, acctest.Hcl(fmt.Sprintf("rgba(%d, 10, 20, 0.%d)", 100+i, i+1)))
	}
	for _, s := range playertheme.ThemeSwitches {
		everything = append(everything, s.Attr, fmt.Sprint(!s.Def))
	}
	everythingChecks := []statecheck.StateCheck{sameID.AddStateValue(acctest.TestThemeAddr, tfjsonpath.New("id"))}
	for i, c := range playertheme.ThemeColours {
		everythingChecks = append(everythingChecks, statecheck.ExpectKnownValue(acctest.TestThemeAddr, tfjsonpath.New(c.Attr),
			knownvalue.StringExact(fmt.Sprintf("rgba(%d, 10, 20, 0.%d)", 100+i, i+1))))
	}
	for _, s := range playertheme.ThemeSwitches {
		everythingChecks = append(everythingChecks, statecheck.ExpectKnownValue(acctest.TestThemeAddr, tfjsonpath.New(s.Attr), knownvalue.Bool(!s.Def)))
	}
	everythingChecks = append(everythingChecks, acctest.OnService(acctest.ServiceClient(t, env).GetPlayerTheme, &id, func(p videohost.PlayerTheme) error {
		for i, c := range playertheme.ThemeColours {
			if want := fmt.Sprintf("rgba(%d, 10, 20, 0.%d)", 100+i, i+1); *c.Api(&p) != want {
				return fmt.Errorf("the service's %s is %q, want %q", c.Wire, *c.Api(&p), want)
			}
		}
		for _, s := range playertheme.ThemeSwitches {
			if *s.Api(&p) == s.Def {
				return fmt.Errorf("the service's %s is still its default", s.Wire)
			}
		}
		return nil
	}))

	defaultsChecks := []statecheck.StateCheck{
		sameID.AddStateValue(acctest.TestThemeAddr, tfjsonpath.New("id")),
		statecheck.ExpectKnownValue(acctest.TestThemeAddr, tfjsonpath.New("name"), knownvalue.Null()),
		acctest.OnService(acctest.ServiceClient(t, env).GetPlayerTheme, &id, func(p videohost.PlayerTheme) error {
			if p.Name != "" {
				return fmt.Errorf("the service's theme is still named %q", p.Name)
			}
			return nil
		}),
	}
	for _, c := range playertheme.ThemeColours {
		defaultsChecks = append(defaultsChecks, statecheck.ExpectKnownValue(acctest.TestThemeAddr, tfjsonpath.New(c.Attr), knownvalue.StringExact(c.Def)))
	}
	for _, s := range playertheme.ThemeSwitches {
		defaultsChecks = append(defaultsChecks, statecheck.ExpectKnownValue(acctest.TestThemeAddr, tfjsonpath.New(s.Attr), knownvalue.Bool(s.Def)))
	}
	inPlace := resource.ConfigPlanChecks{
		PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(acctest.TestThemeAddr, plancheck.ResourceActionUpdate)},
		PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
	}

	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				// A few fields: the others take the service's defaults, and the plan after the
				// apply is empty.
				Config: themeConfig(env, "name", acctest.Hcl(env.Name("brand")), "track_played", acctest.Hcl("rgba(255, 0, 0, .9)"), "hide_title", "true"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(acctest.TestThemeAddr, plancheck.ResourceActionCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					acctest.IdOf(acctest.TestThemeAddr, &id),
					sameID.AddStateValue(acctest.TestThemeAddr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(acctest.TestThemeAddr, tfjsonpath.New("name"), knownvalue.StringExact(env.Name("brand"))),
					statecheck.ExpectKnownValue(acctest.TestThemeAddr, tfjsonpath.New("track_played"), knownvalue.StringExact("rgba(255, 0, 0, .9)")),
					statecheck.ExpectKnownValue(acctest.TestThemeAddr, tfjsonpath.New("hide_title"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(acctest.TestThemeAddr, tfjsonpath.New("text"), knownvalue.StringExact("rgba(255, 255, 255, 1)")),
					statecheck.ExpectKnownValue(acctest.TestThemeAddr, tfjsonpath.New("enable_api"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(acctest.TestThemeAddr, tfjsonpath.New("assets"), knownvalue.Null()),
					statecheck.ExpectKnownValue(acctest.TestThemeAddr, tfjsonpath.New("created_at"), knownvalue.StringRegexp(regexp.MustCompile(`^\d{4}-\d\d-\d\dT`))),
					acctest.OnService(acctest.ServiceClient(t, env).GetPlayerTheme, &id, func(p videohost.PlayerTheme) error {
						if p.Name != env.Name("brand") || p.TrackPlayed != "rgba(255, 0, 0, .9)" || !p.HideTitle {
							return fmt.Errorf("the service's theme is %+v", p)
						}
						return nil
					}),
				},
			},
			{
				// Every attribute changes, in place: the id stays.
				Config:            themeConfig(env, everything...),
				ConfigPlanChecks:  inPlace,
				ConfigStateChecks: everythingChecks,
			},
			{
				ResourceName:      acctest.TestThemeAddr,
				ImportState:       true,
				ImportStateVerify: true,
			},
			{
				// Removing every line puts the defaults back and removes the name.
				Config:            themeConfig(env),
				ConfigPlanChecks:  inPlace,
				ConfigStateChecks: defaultsChecks,
			},
			{
				// A change made outside Terraform shows as drift and is put back.
				PreConfig: func() {
					if _, err := acctest.ServiceClient(t, env).UpdatePlayerTheme(t.Context(), id, videohost.PlayerThemeInput{
						Link: videohost.Value("rgba(1, 1, 1, 1)"), ForceLoop: videohost.Value(true),
					}); err != nil {
						t.Fatal(err)
					}
				},
				Config: themeConfig(env),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(acctest.TestThemeAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(acctest.TestThemeAddr, tfjsonpath.New("link"), knownvalue.StringExact("rgba(255, 255, 255, 1)")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(acctest.TestThemeAddr, tfjsonpath.New("id")),
					acctest.OnService(acctest.ServiceClient(t, env).GetPlayerTheme, &id, func(p videohost.PlayerTheme) error {
						if p.Link != "rgba(255, 255, 255, 1)" || p.ForceLoop {
							return fmt.Errorf("the change made outside Terraform was not put back: %+v", p)
						}
						return nil
					}),
				},
			},
		},
		CheckDestroy: acctest.GoneFromService(acctest.ServiceClient(t, env).GetPlayerTheme, &id),
	})
}

// TestAccPlayerThemeBadInput: what the configuration alone shows is refused at plan time,
// on its attribute, before any request reaches the service.
func TestAccPlayerThemeBadInput(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	steps := []resource.TestStep{}
	for _, tc := range []struct {
		attrs []string
		want  string
	}{
		{[]string{"text", acctest.Hcl("#ffffff")}, `Invalid Colour[\s\S]*form rgba`},
		{[]string{"track_played", acctest.Hcl("rgba(256, 0, 0, 1)")}, `Invalid Colour[\s\S]*red`},
		{[]string{"background_top", acctest.Hcl("rgba(0, 0, 0, 1.5)")}, `Invalid Colour[\s\S]*alpha`},
		{[]string{"name", acctest.Hcl(strings.Repeat("n", 101))}, `name[\s\S]*length must be between 1 and 100`},
		{[]string{"name", acctest.Hcl("")}, `length must be between 1 and 100`},
	} {
		steps = append(steps, resource.TestStep{
			Config:      themeConfig(env, tc.attrs...),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(tc.want),
		})
	}
	steps = append(steps, resource.TestStep{
		// The check of the steps above: none of them sent anything to /players.
		PreConfig: acctest.NoRequestsTo(t, env, "/players", "bad input must be refused before any"),
		Config:    env.ProviderConfig(""),
		PlanOnly:  true,
	})
	acctest.AccTest(t, resource.TestCase{ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories, Steps: steps})
}

func TestAccPlayerThemeUpdateKeepsCreatedValues(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	config := func(text string) string {
		return env.ProviderConfig("") + `
resource "videohost_player_theme" "test" {
  name = ` + acctest.Hcl(env.Name("brand")) + `
  text = ` + acctest.Hcl(text) + `
}
`
	}
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config("rgba(1, 2, 3, 1)")},
			{
				Config: config("rgba(4, 5, 6, 1)"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: acctest.KeptInUpdate("videohost_player_theme.test", map[string]knownvalue.Check{
					"id":         knownvalue.NotNull(),
					"created_at": knownvalue.NotNull(),
					// No logo: the theme has no assets, and the plan knows it.
					"assets": knownvalue.Null(),
				})},
			},
		},
	})
}

// logoOnService is a state check that the service's theme shows the state's logo_url and the
// link want (no logo at all when want is "-").
func logoOnService(t *testing.T, env *acctest.AccEnv, id *string, want string) statecheck.StateCheck {
	return acctest.StateCheckFunc(func(s *tfjson.State) error {
		r, err := acctest.StateResource(s, acctest.TestThemeAddr)
		if err != nil {
			return err
		}
		p, err := acctest.ServiceClient(t, env).GetPlayerTheme(context.Background(), *id)
		if err != nil {
			return err
		}
		if want == "-" {
			if p.Assets != nil || r.AttributeValues["logo_url"] != nil || r.AttributeValues["assets"] != nil {
				return fmt.Errorf("a logo is left: service %+v, state logo_url %v", p.Assets, r.AttributeValues["logo_url"])
			}
			return nil
		}
		if p.Assets == nil {
			return fmt.Errorf("the service's theme %s has no logo", *id)
		}
		if got := acctest.AttrString(r, "logo_url"); got != p.Assets.Logo || got == "" {
			return fmt.Errorf("logo_url %q, service %q", got, p.Assets.Logo)
		}
		if p.Assets.Link != want {
			return fmt.Errorf("the service's link %q, want %q", p.Assets.Link, want)
		}
		return nil
	})
}

// TestAccPlayerThemeLogo sets a theme's logo at creation, changes its link and then its content
// in place (each an upload), changes the theme without touching the logo (no upload), removes
// the logo (deleted on the service), adds it back, and uploads it again after it was deleted
// outside Terraform.
func TestAccPlayerThemeLogo(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	dir := t.TempDir()
	logo := acctest.WritePNG(t, dir, "logo.png", 120, 60, 1)
	var id string
	sameID := statecheck.CompareValue(compare.ValuesSame())
	uploads := func() int { return env.RequestCount(http.MethodPost, "/players/"+id+"/logo") }
	uploadsAre := func(n int) statecheck.StateCheck {
		return acctest.StateCheckFunc(func(*tfjson.State) error {
			if got := uploads(); got != n {
				return fmt.Errorf("%d logo uploads so far, want %d", got, n)
			}
			return nil
		})
	}
	withLogo := func(name, link string) string {
		attrs := []string{"name", acctest.Hcl(name), "logo_file", acctest.Hcl(logo)}
		if link != "" {
			attrs = append(attrs, "logo_link", acctest.Hcl(link))
		}
		return themeConfig(env, attrs...)
	}
	inPlace := func(checks ...plancheck.PlanCheck) resource.ConfigPlanChecks {
		return resource.ConfigPlanChecks{
			PreApply:             append([]plancheck.PlanCheck{plancheck.ExpectResourceAction(acctest.TestThemeAddr, plancheck.ResourceActionUpdate)}, checks...),
			PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
		}
	}
	var firstURL string
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: withLogo(env.Name("brand"), "https://example.com/a"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(acctest.TestThemeAddr, plancheck.ResourceActionCreate),
						plancheck.ExpectKnownValue(acctest.TestThemeAddr, tfjsonpath.New("logo_sha256"), knownvalue.StringExact(acctest.FileSHA256(t, logo))),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					acctest.IdOf(acctest.TestThemeAddr, &id),
					sameID.AddStateValue(acctest.TestThemeAddr, tfjsonpath.New("id")),
					logoOnService(t, env, &id, "https://example.com/a"),
					statecheck.ExpectKnownValue(acctest.TestThemeAddr, tfjsonpath.New("assets").AtMapKey("link"), knownvalue.StringExact("https://example.com/a")),
					acctest.StateCheckFunc(func(s *tfjson.State) error {
						r, _ := acctest.StateResource(s, acctest.TestThemeAddr)
						firstURL = acctest.AttrString(r, "logo_url")
						return nil
					}),
					uploadsAre(1),
				},
			},
			{
				Config:           withLogo(env.Name("brand"), "https://example.com/b"),
				ConfigPlanChecks: inPlace(plancheck.ExpectUnknownValue(acctest.TestThemeAddr, tfjsonpath.New("logo_url"))),
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(acctest.TestThemeAddr, tfjsonpath.New("id")),
					logoOnService(t, env, &id, "https://example.com/b"),
					statecheck.ExpectKnownValue(acctest.TestThemeAddr, tfjsonpath.New("logo_url"), knownvalue.StringFunc(func(v string) error {
						if v == firstURL {
							return fmt.Errorf("logo_url did not change with the upload")
						}
						return nil
					})),
					uploadsAre(2),
				},
			},
			{
				// New content at the same path.
				PreConfig: func() { acctest.WritePNG(t, dir, "logo.png", 100, 50, 7) },
				Config:    withLogo(env.Name("brand"), "https://example.com/b"),
				ConfigPlanChecks: inPlace(plancheck.ExpectKnownValue(acctest.TestThemeAddr, tfjsonpath.New("logo_sha256"),
					knownvalue.StringFunc(func(v string) error {
						if v != acctest.FileSHA256(t, logo) {
							return fmt.Errorf("planned logo_sha256 %s is not the new file's", v)
						}
						return nil
					}))),
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(acctest.TestThemeAddr, tfjsonpath.New("id")), logoOnService(t, env, &id, "https://example.com/b"), uploadsAre(3)},
			},
			{
				// The theme changes, the logo does not: nothing is uploaded and its address stays.
				Config: withLogo(env.Name("brand-2"), "https://example.com/b"),
				ConfigPlanChecks: inPlace(plancheck.ExpectKnownValue(acctest.TestThemeAddr, tfjsonpath.New("logo_url"),
					knownvalue.StringRegexp(regexp.MustCompile(`.+`)))),
				ConfigStateChecks: []statecheck.StateCheck{logoOnService(t, env, &id, "https://example.com/b"), uploadsAre(3)},
			},
			{
				// Removed: deleted on the service.
				Config:           themeConfig(env, "name", acctest.Hcl(env.Name("brand-2"))),
				ConfigPlanChecks: inPlace(),
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(acctest.TestThemeAddr, tfjsonpath.New("id")),
					logoOnService(t, env, &id, "-"),
					statecheck.ExpectKnownValue(acctest.TestThemeAddr, tfjsonpath.New("logo_sha256"), knownvalue.Null()),
				},
			},
			{
				Config:            withLogo(env.Name("brand-2"), ""),
				ConfigPlanChecks:  inPlace(),
				ConfigStateChecks: []statecheck.StateCheck{logoOnService(t, env, &id, ""), uploadsAre(4)},
			},
			{
				// Deleted outside Terraform: the refresh sees it gone and the apply uploads it again.
				PreConfig: func() {
					if err := acctest.ServiceClient(t, env).DeletePlayerLogo(context.Background(), id); err != nil {
						t.Fatal(err)
					}
				},
				Config:            withLogo(env.Name("brand-2"), ""),
				ConfigPlanChecks:  inPlace(),
				ConfigStateChecks: []statecheck.StateCheck{logoOnService(t, env, &id, ""), uploadsAre(5)},
			},
		},
	})
}

// TestAccPlayerThemeLogoReplacedOutside: a logo uploaded outside Terraform (its address on the
// service changes with every upload) is drift. The plan is an in-place update that uploads the
// configured logo again; after it the service holds that image and the next plan is empty.
func TestAccPlayerThemeLogoReplacedOutside(t *testing.T) {
	env, rec := acctest.NewTrackEnv(t)
	dir := t.TempDir()
	logo := acctest.WritePNG(t, dir, "logo.png", 120, 60, 1)
	ours, err := os.ReadFile(logo)
	if err != nil {
		t.Fatal(err)
	}
	// acctest.RunName, not env.Name: the AccEnv of NewTrackEnv does not know its test's name.
	config := themeConfig(env, "name", acctest.Hcl(acctest.RunName(t, "brand")), "logo_file", acctest.Hcl(logo))
	var id string
	holdsOurs := func(n int) acctest.ServiceCheckFunc {
		return func(ctx context.Context) error {
			return acctest.HoldsUpload(env, rec, "/players/"+id+"/logo", string(ours), n)(ctx)
		}
	}
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:            config,
				ConfigStateChecks: []statecheck.StateCheck{acctest.IdOf(acctest.TestThemeAddr, &id), holdsOurs(1)},
			},
			{
				PreConfig: func() {
					other, err := os.ReadFile(acctest.WritePNG(t, dir, "other.png", 80, 40, 9))
					if err != nil {
						t.Fatal(err)
					}
					if _, err := acctest.ServiceClient(t, env).UploadPlayerLogo(t.Context(), id, "", videohost.UploadSource{
						Name: "other.png", Reader: bytes.NewReader(other), Size: int64(len(other)),
					}); err != nil {
						t.Fatal(err)
					}
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(acctest.TestThemeAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(acctest.TestThemeAddr, tfjsonpath.New("logo_sha256"), knownvalue.StringExact(acctest.FileSHA256(t, logo))),
						plancheck.ExpectUnknownValue(acctest.TestThemeAddr, tfjsonpath.New("logo_url")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				// Ours, the one outside Terraform, then ours again.
				ConfigStateChecks: []statecheck.StateCheck{holdsOurs(3)},
			},
		},
	})
}
