package playertheme_test

// Tests of the player theme's plan: a logo file refused without a request.

import (
	"path/filepath"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// TestAccPlayerThemeLogoBadInput: a logo too large in pixels or in bytes, a file that is not an
// image, and a link without a logo are errors on their attribute at plan time, before any
// request.
func TestAccPlayerThemeLogoBadInput(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	dir := t.TempDir()
	wide := acctest.WritePNG(t, dir, "wide.png", 201, 100, 1)
	heavy := acctest.WriteNoisyPNG(t, dir, "heavy.png", 200, 100)
	text := filepath.Join(dir, "logo.jpg")
	acctest.WriteFile(t, text, "not an image")
	var steps []resource.TestStep
	for _, c := range []struct {
		attrs []string
		want  string
	}{
		{[]string{"logo_file", acctest.Hcl(wide)}, `(?s)Invalid Image File.*logo_file.*201 × 100 pixels,\s+larger\s+than\s+the\s+200\s+×\s+100`},
		{[]string{"logo_file", acctest.Hcl(heavy)}, `(?s)Invalid Image File.*logo_file.*more\s+than\s+the\s+102400\s+bytes\s+\(100\s+KiB\)`},
		{[]string{"logo_file", acctest.Hcl(text)}, `(?s)Invalid Image File.*logo_file.*neither\s+a\s+JPEG\s+nor\s+a\s+PNG`},
		{[]string{"logo_link", acctest.Hcl("https://example.com")}, `(?s)logo_link.*logo_file`},
		{[]string{"logo_file", acctest.Hcl(acctest.WritePNG(t, dir, "ok.png", 10, 10, 1)), "logo_link", acctest.Hcl("ftp://example.com")}, `(?s)Invalid URL.*logo_link`},
	} {
		steps = append(steps, resource.TestStep{Config: themeConfig(env, c.attrs...), PlanOnly: true, ExpectError: regexp.MustCompile(c.want)})
	}
	acctest.AccTest(t, resource.TestCase{ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories, Steps: steps})
	if n := env.RequestCount("", "/players"); n != 0 {
		t.Errorf("%d requests to /players for refused logos", n)
	}
}
