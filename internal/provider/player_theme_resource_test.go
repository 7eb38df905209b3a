package provider

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// sampleTheme is a theme as the service answers, defaults filled in.
func sampleTheme(id string) videohost.PlayerTheme {
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	return videohost.PlayerTheme{
		ID: id, Text: "rgba(255, 255, 255, 1)", Link: "rgba(255, 255, 255, 1)", LinkHover: "rgba(255, 255, 255, 1)",
		LinkActive: "rgba(255, 255, 255, 1)", BackgroundText: "rgba(255, 255, 255, 1)", TrackPlayed: "rgba(88, 131, 255, .95)",
		TrackUnplayed: "rgba(255, 255, 255, .35)", TrackBackground: "rgba(255, 255, 255, .2)",
		BackgroundTop: "rgba(0, 0, 0, .7)", BackgroundBottom: "rgba(0, 0, 0, .7)", EnableAPI: true, EnableControls: true,
		CreatedAt: &created, UpdatedAt: &created,
	}
}

func TestPlayerThemeModelFrom(t *testing.T) {
	p := sampleTheme("pt1")
	m := playerThemeModelFrom(p)
	if !m.Name.IsNull() || !m.Assets.IsNull() {
		t.Errorf("a theme without a name or a logo: name %v, assets %v; want both null", m.Name, m.Assets)
	}
	if m.TrackPlayed.ValueString() != "rgba(88, 131, 255, .95)" || !m.EnableAPI.ValueBool() || m.ForceLoop.ValueBool() ||
		m.CreatedAt.ValueString() != "2026-01-02T03:04:05Z" {
		t.Errorf("model %+v", m)
	}
	p.Name, p.Assets = "brand", &videohost.PlayerThemeAssets{Logo: "https://cdn.example/logo.png", Link: "https://example.com"}
	m = playerThemeModelFrom(p)
	logo, _ := m.Assets.Attributes()["logo"].(types.String)
	if m.Name.ValueString() != "brand" || logo.ValueString() != "https://cdn.example/logo.png" {
		t.Errorf("model %+v", m)
	}
	// Every colour and switch of the table lands in its own attribute: a table row pointing at
	// the wrong field would show here as two attributes with one value.
	seen := map[string]string{}
	for _, c := range themeColours {
		*c.api(&p) = "rgba(1, 1, 1, ." + c.attr + ")"
	}
	m = playerThemeModelFrom(p)
	for _, c := range themeColours {
		got := c.model(&m).ValueString()
		if got != "rgba(1, 1, 1, ."+c.attr+")" {
			t.Errorf("%s = %q", c.attr, got)
		}
		if other, dup := seen[got]; dup {
			t.Errorf("%s and %s share a field", c.attr, other)
		}
		seen[got] = c.attr
	}
}

func TestPlayerThemeInputFrom(t *testing.T) {
	plan := playerThemeModelFrom(sampleTheme("pt1"))
	plan.Name = types.StringValue("brand")
	body, _ := json.Marshal(playerThemeInputFrom(plan, nil))
	var sent map[string]any
	_ = json.Unmarshal(body, &sent)
	// A create sends every value the plan knows: the service then stores what the
	// configuration says, whatever its own defaults are.
	if len(sent) != 1+len(themeColours)+len(themeSwitches) || sent["name"] != "brand" || sent["forceLoop"] != false {
		t.Errorf("create body %s", body)
	}

	prior := plan
	plan.TrackPlayed = types.StringValue("rgba(1, 2, 3, .5)")
	plan.HideTitle = types.BoolValue(true)
	body, _ = json.Marshal(playerThemeInputFrom(plan, &prior))
	if string(body) != `{"trackPlayed":"rgba(1, 2, 3, .5)","hideTitle":true}` {
		t.Errorf("update body %s, want only what changed", body)
	}
	plan = prior
	plan.Name = types.StringNull()
	if in := playerThemeInputFrom(plan, &prior); !in.Name.IsNull() || in != (videohost.PlayerThemeInput{Name: videohost.Null[string]()}) {
		t.Errorf("a name removed from the configuration sends %+v, want only a null name", in)
	}
	plan.Name = types.StringUnknown()
	plan.Text = types.StringUnknown()
	if in := playerThemeInputFrom(plan, &prior); in != (videohost.PlayerThemeInput{}) {
		t.Errorf("an unknown or unchanged plan sends %+v", in)
	}
}

func TestPlayerThemeHolds(t *testing.T) {
	p := sampleTheme("pt1")
	p.Name = "brand"
	if !playerThemeHolds(p, videohost.PlayerThemeInput{Name: videohost.Value("brand"), ForceLoop: videohost.Value(false)}) {
		t.Error("a theme with the values sent does not match")
	}
	for name, in := range map[string]videohost.PlayerThemeInput{
		"name":   {Name: videohost.Value("other")},
		"colour": {TrackPlayed: videohost.Value("rgba(88, 131, 255, 0.95)")},
		"switch": {EnableAPI: videohost.Value(false)},
	} {
		if playerThemeHolds(p, in) {
			t.Errorf("a theme with another %s matches", name)
		}
	}
}

const testThemeAddr = "videohost_player_theme.brand"

func themeConfig(env *accEnv, attrs ...string) string {
	return env.providerConfig("") + "resource \"videohost_player_theme\" \"brand\" {\n" + hclAttrs(attrs...) + "}\n"
}

// TestAccPlayerThemeResource creates a theme that sets a few fields, updates every attribute
// in place, puts the defaults back, imports it, and puts back a change made outside Terraform.
func TestAccPlayerThemeResource(t *testing.T) {
	env := newAccEnv(t, emulator.Options{})
	var id string
	sameID := statecheck.CompareValue(compare.ValuesSame())

	// Every attribute changed from its default: each colour gets a value of its own.
	everything := []string{"name", hcl("brand-2")}
	for i, c := range themeColours {
		everything = append(everything, c.attr, hcl(fmt.Sprintf("rgba(%d, 10, 20, 0.%d)", 100+i, i+1)))
	}
	for _, s := range themeSwitches {
		everything = append(everything, s.attr, fmt.Sprint(!s.def))
	}
	everythingChecks := []statecheck.StateCheck{sameID.AddStateValue(testThemeAddr, tfjsonpath.New("id"))}
	for i, c := range themeColours {
		everythingChecks = append(everythingChecks, statecheck.ExpectKnownValue(testThemeAddr, tfjsonpath.New(c.attr),
			knownvalue.StringExact(fmt.Sprintf("rgba(%d, 10, 20, 0.%d)", 100+i, i+1))))
	}
	for _, s := range themeSwitches {
		everythingChecks = append(everythingChecks, statecheck.ExpectKnownValue(testThemeAddr, tfjsonpath.New(s.attr), knownvalue.Bool(!s.def)))
	}
	everythingChecks = append(everythingChecks, onService(serviceClient(t, env).GetPlayerTheme, &id, func(p videohost.PlayerTheme) error {
		for i, c := range themeColours {
			if want := fmt.Sprintf("rgba(%d, 10, 20, 0.%d)", 100+i, i+1); *c.api(&p) != want {
				return fmt.Errorf("the service's %s is %q, want %q", c.wire, *c.api(&p), want)
			}
		}
		for _, s := range themeSwitches {
			if *s.api(&p) == s.def {
				return fmt.Errorf("the service's %s is still its default", s.wire)
			}
		}
		return nil
	}))

	defaultsChecks := []statecheck.StateCheck{
		sameID.AddStateValue(testThemeAddr, tfjsonpath.New("id")),
		statecheck.ExpectKnownValue(testThemeAddr, tfjsonpath.New("name"), knownvalue.Null()),
		onService(serviceClient(t, env).GetPlayerTheme, &id, func(p videohost.PlayerTheme) error {
			if p.Name != "" {
				return fmt.Errorf("the service's theme is still named %q", p.Name)
			}
			return nil
		}),
	}
	for _, c := range themeColours {
		defaultsChecks = append(defaultsChecks, statecheck.ExpectKnownValue(testThemeAddr, tfjsonpath.New(c.attr), knownvalue.StringExact(c.def)))
	}
	for _, s := range themeSwitches {
		defaultsChecks = append(defaultsChecks, statecheck.ExpectKnownValue(testThemeAddr, tfjsonpath.New(s.attr), knownvalue.Bool(s.def)))
	}
	inPlace := resource.ConfigPlanChecks{
		PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(testThemeAddr, plancheck.ResourceActionUpdate)},
		PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
	}

	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				// A few fields: the others take the service's defaults, and the plan after the
				// apply is empty.
				Config: themeConfig(env, "name", hcl("brand"), "track_played", hcl("rgba(255, 0, 0, .9)"), "hide_title", "true"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(testThemeAddr, plancheck.ResourceActionCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					idOf(testThemeAddr, &id),
					sameID.AddStateValue(testThemeAddr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(testThemeAddr, tfjsonpath.New("name"), knownvalue.StringExact("brand")),
					statecheck.ExpectKnownValue(testThemeAddr, tfjsonpath.New("track_played"), knownvalue.StringExact("rgba(255, 0, 0, .9)")),
					statecheck.ExpectKnownValue(testThemeAddr, tfjsonpath.New("hide_title"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(testThemeAddr, tfjsonpath.New("text"), knownvalue.StringExact("rgba(255, 255, 255, 1)")),
					statecheck.ExpectKnownValue(testThemeAddr, tfjsonpath.New("enable_api"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(testThemeAddr, tfjsonpath.New("assets"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testThemeAddr, tfjsonpath.New("created_at"), knownvalue.StringRegexp(regexp.MustCompile(`^\d{4}-\d\d-\d\dT`))),
					onService(serviceClient(t, env).GetPlayerTheme, &id, func(p videohost.PlayerTheme) error {
						if p.Name != "brand" || p.TrackPlayed != "rgba(255, 0, 0, .9)" || !p.HideTitle {
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
				ResourceName:      testThemeAddr,
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
					if _, err := serviceClient(t, env).UpdatePlayerTheme(t.Context(), id, videohost.PlayerThemeInput{
						Link: videohost.Value("rgba(1, 1, 1, 1)"), ForceLoop: videohost.Value(true),
					}); err != nil {
						t.Fatal(err)
					}
				},
				Config: themeConfig(env),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testThemeAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(testThemeAddr, tfjsonpath.New("link"), knownvalue.StringExact("rgba(255, 255, 255, 1)")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(testThemeAddr, tfjsonpath.New("id")),
					onService(serviceClient(t, env).GetPlayerTheme, &id, func(p videohost.PlayerTheme) error {
						if p.Link != "rgba(255, 255, 255, 1)" || p.ForceLoop {
							return fmt.Errorf("the change made outside Terraform was not put back: %+v", p)
						}
						return nil
					}),
				},
			},
		},
		CheckDestroy: goneFromService(serviceClient(t, env).GetPlayerTheme, &id),
	})
}

// TestAccPlayerThemeBadInput: what the configuration alone shows is refused at plan time,
// on its attribute, before any request reaches the service.
func TestAccPlayerThemeBadInput(t *testing.T) {
	env := newAccEnv(t, emulator.Options{})
	env.requireEmulator(t)
	steps := []resource.TestStep{}
	for _, tc := range []struct {
		attrs []string
		want  string
	}{
		{[]string{"text", hcl("#ffffff")}, `Invalid Colour[\s\S]*form rgba`},
		{[]string{"track_played", hcl("rgba(256, 0, 0, 1)")}, `Invalid Colour[\s\S]*red`},
		{[]string{"background_top", hcl("rgba(0, 0, 0, 1.5)")}, `Invalid Colour[\s\S]*alpha`},
		{[]string{"name", hcl(strings.Repeat("n", 101))}, `name[\s\S]*length must be between 1 and 100`},
		{[]string{"name", hcl("")}, `length must be between 1 and 100`},
	} {
		steps = append(steps, resource.TestStep{
			Config:      themeConfig(env, tc.attrs...),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(tc.want),
		})
	}
	steps = append(steps, resource.TestStep{
		// The check of the steps above: none of them sent anything to /players.
		PreConfig: noRequestsTo(t, env, "/players", "bad input must be refused before any"),
		Config:    env.providerConfig(""),
		PlanOnly:  true,
	})
	accTest(t, resource.TestCase{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, Steps: steps})
}
