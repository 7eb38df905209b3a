package provider

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// writeNoisyPNG writes a w × h PNG of 16-bit random pixels, which does not compress: 200 × 100
// of them hold more than 100 KiB.
func writeNoisyPNG(t *testing.T, dir, name string, w, h int) string {
	t.Helper()
	img := image.NewNRGBA64(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewPCG(1, 2))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.NRGBA64{R: uint16(r.Uint32()), G: uint16(r.Uint32()), B: uint16(r.Uint32()), A: 0xffff})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	writeFile(t, p, b.String())
	return p
}

// logoOnService is a state check that the service's theme shows the state's logo_url and the
// link want (no logo at all when want is "-").
func logoOnService(t *testing.T, env *accEnv, id *string, want string) statecheck.StateCheck {
	return stateCheckFunc(func(s *tfjson.State) error {
		r, err := stateResource(s, testThemeAddr)
		if err != nil {
			return err
		}
		p, err := serviceClient(t, env).GetPlayerTheme(context.Background(), *id)
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
		if got := attrString(r, "logo_url"); got != p.Assets.Logo || got == "" {
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
	env := newAccEnv(t, emulator.Options{})
	dir := t.TempDir()
	logo := writePNG(t, dir, "logo.png", 120, 60, 1)
	var id string
	sameID := statecheck.CompareValue(compare.ValuesSame())
	uploads := func() int { return env.Emu.RequestCount(http.MethodPost, "/players/"+id+"/logo") }
	uploadsAre := func(n int) statecheck.StateCheck {
		return stateCheckFunc(func(*tfjson.State) error {
			if got := uploads(); got != n {
				return fmt.Errorf("%d logo uploads so far, want %d", got, n)
			}
			return nil
		})
	}
	withLogo := func(name, link string) string {
		attrs := []string{"name", hcl(name), "logo_file", hcl(logo)}
		if link != "" {
			attrs = append(attrs, "logo_link", hcl(link))
		}
		return themeConfig(env, attrs...)
	}
	inPlace := func(checks ...plancheck.PlanCheck) resource.ConfigPlanChecks {
		return resource.ConfigPlanChecks{
			PreApply:             append([]plancheck.PlanCheck{plancheck.ExpectResourceAction(testThemeAddr, plancheck.ResourceActionUpdate)}, checks...),
			PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
		}
	}
	var firstURL string
	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: withLogo("brand", "https://example.com/a"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testThemeAddr, plancheck.ResourceActionCreate),
						plancheck.ExpectKnownValue(testThemeAddr, tfjsonpath.New("logo_sha256"), knownvalue.StringExact(fileSHA256(t, logo))),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					idOf(testThemeAddr, &id),
					sameID.AddStateValue(testThemeAddr, tfjsonpath.New("id")),
					logoOnService(t, env, &id, "https://example.com/a"),
					statecheck.ExpectKnownValue(testThemeAddr, tfjsonpath.New("assets").AtMapKey("link"), knownvalue.StringExact("https://example.com/a")),
					stateCheckFunc(func(s *tfjson.State) error {
						r, _ := stateResource(s, testThemeAddr)
						firstURL = attrString(r, "logo_url")
						return nil
					}),
					uploadsAre(1),
				},
			},
			{
				Config:           withLogo("brand", "https://example.com/b"),
				ConfigPlanChecks: inPlace(plancheck.ExpectUnknownValue(testThemeAddr, tfjsonpath.New("logo_url"))),
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(testThemeAddr, tfjsonpath.New("id")),
					logoOnService(t, env, &id, "https://example.com/b"),
					statecheck.ExpectKnownValue(testThemeAddr, tfjsonpath.New("logo_url"), knownvalue.StringFunc(func(v string) error {
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
				PreConfig: func() { writePNG(t, dir, "logo.png", 100, 50, 7) },
				Config:    withLogo("brand", "https://example.com/b"),
				ConfigPlanChecks: inPlace(plancheck.ExpectKnownValue(testThemeAddr, tfjsonpath.New("logo_sha256"),
					knownvalue.StringFunc(func(v string) error {
						if v != fileSHA256(t, logo) {
							return fmt.Errorf("planned logo_sha256 %s is not the new file's", v)
						}
						return nil
					}))),
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(testThemeAddr, tfjsonpath.New("id")), logoOnService(t, env, &id, "https://example.com/b"), uploadsAre(3)},
			},
			{
				// The theme changes, the logo does not: nothing is uploaded and its address stays.
				Config: withLogo("brand-2", "https://example.com/b"),
				ConfigPlanChecks: inPlace(plancheck.ExpectKnownValue(testThemeAddr, tfjsonpath.New("logo_url"),
					knownvalue.StringRegexp(regexp.MustCompile(`.+`)))),
				ConfigStateChecks: []statecheck.StateCheck{logoOnService(t, env, &id, "https://example.com/b"), uploadsAre(3)},
			},
			{
				// Removed: deleted on the service.
				Config:           themeConfig(env, "name", hcl("brand-2")),
				ConfigPlanChecks: inPlace(),
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(testThemeAddr, tfjsonpath.New("id")),
					logoOnService(t, env, &id, "-"),
					statecheck.ExpectKnownValue(testThemeAddr, tfjsonpath.New("logo_sha256"), knownvalue.Null()),
				},
			},
			{
				Config:            withLogo("brand-2", ""),
				ConfigPlanChecks:  inPlace(),
				ConfigStateChecks: []statecheck.StateCheck{logoOnService(t, env, &id, ""), uploadsAre(4)},
			},
			{
				// Deleted outside Terraform: the refresh sees it gone and the apply uploads it again.
				PreConfig: func() {
					if err := serviceClient(t, env).DeletePlayerLogo(context.Background(), id); err != nil {
						t.Fatal(err)
					}
				},
				Config:            withLogo("brand-2", ""),
				ConfigPlanChecks:  inPlace(),
				ConfigStateChecks: []statecheck.StateCheck{logoOnService(t, env, &id, ""), uploadsAre(5)},
			},
		},
	})
}

// TestAccPlayerThemeLogoBadInput: a logo too large in pixels or in bytes, a file that is not an
// image, and a link without a logo are errors on their attribute at plan time, before any
// request.
func TestAccPlayerThemeLogoBadInput(t *testing.T) {
	env := newAccEnv(t, emulator.Options{})
	dir := t.TempDir()
	wide := writePNG(t, dir, "wide.png", 201, 100, 1)
	heavy := writeNoisyPNG(t, dir, "heavy.png", 200, 100)
	text := filepath.Join(dir, "logo.jpg")
	writeFile(t, text, "not an image")
	var steps []resource.TestStep
	for _, c := range []struct {
		attrs []string
		want  string
	}{
		{[]string{"logo_file", hcl(wide)}, `(?s)Invalid Image File.*logo_file.*201 × 100 pixels,\s+larger\s+than\s+the\s+200\s+×\s+100`},
		{[]string{"logo_file", hcl(heavy)}, `(?s)Invalid Image File.*logo_file.*more\s+than\s+the\s+102400\s+bytes\s+\(100\s+KiB\)`},
		{[]string{"logo_file", hcl(text)}, `(?s)Invalid Image File.*logo_file.*neither\s+a\s+JPEG\s+nor\s+a\s+PNG`},
		{[]string{"logo_link", hcl("https://example.com")}, `(?s)logo_link.*logo_file`},
		{[]string{"logo_file", hcl(writePNG(t, dir, "ok.png", 10, 10, 1)), "logo_link", hcl("ftp://example.com")}, `(?s)Invalid URL.*logo_link`},
	} {
		steps = append(steps, resource.TestStep{Config: themeConfig(env, c.attrs...), PlanOnly: true, ExpectError: regexp.MustCompile(c.want)})
	}
	accTest(t, resource.TestCase{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, Steps: steps})
	if n := env.Emu.RequestCount("", "/players"); n != 0 {
		t.Errorf("%d requests to /players for refused logos", n)
	}
}

func TestPlayerThemeResourceModelFrom(t *testing.T) {
	p := sampleTheme("pt1")
	prior := playerThemeResourceModelFrom(p, nil)
	prior.LogoFile, prior.LogoSHA256 = types.StringValue("logo.png"), types.StringValue("abc")
	prior.LogoLink = types.StringValue("https://example.com/a")
	// The service lost the logo: its hash goes, so that the next plan uploads it again.
	m := playerThemeResourceModelFrom(p, &prior)
	if !m.LogoSHA256.IsNull() || !m.LogoURL.IsNull() || m.LogoFile.ValueString() != "logo.png" {
		t.Errorf("without a logo on the service: %+v", m)
	}
	p.Assets = &videohost.PlayerThemeAssets{Logo: "https://cdn.example/l.png", Link: "https://example.com/changed"}
	m = playerThemeResourceModelFrom(p, &prior)
	if m.LogoSHA256.ValueString() != "abc" || m.LogoURL.ValueString() != "https://cdn.example/l.png" ||
		m.LogoLink.ValueString() != "https://example.com/changed" {
		t.Errorf("with a logo whose link changed outside Terraform: %+v", m)
	}
}
