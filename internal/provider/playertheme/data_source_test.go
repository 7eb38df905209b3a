package playertheme_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// TestAccPlayerThemeDataSources reads themes made outside Terraform: the list in the order
// asked for, one by id as its list item says it, and an id that does not exist as an error on
// id. The list holds every theme of the account, which others may share: the test looks at its
// own three (their names carry env.Name), which must be there in the order asked for; in-process
// they are the only ones.
func TestAccPlayerThemeDataSources(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	c := acctest.ServiceClient(t, env)
	var alphaID string
	for _, in := range []videohost.PlayerThemeInput{
		{Name: videohost.Value(env.Name("charlie")), ForceLoop: videohost.Value(true)},
		{Name: videohost.Value(env.Name("alpha")), Text: videohost.Value("rgba(1, 2, 3, 0.5)")},
		{Name: videohost.Value(env.Name("bravo"))},
	} {
		theme, err := c.CreatePlayerTheme(t.Context(), in)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if err := c.DeletePlayerTheme(context.Background(), theme.ID); err != nil && !errors.Is(err, videohost.ErrNotFound) {
				t.Errorf("deleting player theme %s made outside Terraform: %v", theme.ID, err)
			}
		})
		if name, _ := in.Name.Get(); name == env.Name("alpha") {
			alphaID = theme.ID
		}
	}
	const all = "data.videohost_player_themes.all"
	checks := []statecheck.StateCheck{
		acctest.StateCheckFunc(func(s *tfjson.State) error {
			attrs, err := acctest.StateAttributes(s, all)
			if err != nil {
				return err
			}
			items, _ := attrs["player_themes"].([]any)
			var own []map[string]any
			for _, item := range items {
				if m, _ := item.(map[string]any); strings.HasPrefix(fmt.Sprint(m["name"]), env.Name("")) {
					own = append(own, m)
				}
			}
			want := []struct {
				name      string
				forceLoop bool
				text      string
			}{
				{env.Name("alpha"), false, "rgba(1, 2, 3, 0.5)"},
				{env.Name("bravo"), false, ""},
				{env.Name("charlie"), true, ""},
			}
			if len(own) != len(want) {
				return fmt.Errorf("%s lists %d themes of the test's among its %d, want %d", all, len(own), len(items), len(want))
			}
			for i, w := range want {
				if own[i]["name"] != w.name || own[i]["force_loop"] != w.forceLoop || (w.text != "" && own[i]["text"] != w.text) {
					return fmt.Errorf("the test's theme %d in %s is %v, want the name %q, force_loop %v and text %q", i, all, own[i], w.name, w.forceLoop, w.text)
				}
			}
			return nil
		}),
		acctest.ListedAsRead(all, "player_themes", "data.videohost_player_theme.first"),
	}
	if env.Emu != nil {
		// In-process the account holds the test's themes alone.
		checks = append(checks, statecheck.ExpectKnownValue(all, tfjsonpath.New("player_themes"), knownvalue.ListSizeExact(3)))
	}

	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: env.ProviderConfig("") + `
data "videohost_player_themes" "all" {
  sort_by    = "name"
  sort_order = "asc"
}

data "videohost_player_theme" "first" {
  id = ` + acctest.Hcl(alphaID) + `
}
`,
				ConfigStateChecks: append(checks,
					statecheck.ExpectKnownValue("data.videohost_player_theme.first", tfjsonpath.New("name"), knownvalue.StringExact(env.Name("alpha")))),
			},
			{
				Config: env.ProviderConfig("") + `
data "videohost_player_theme" "missing" {
  id = "pt0000000000000000000000"
}
`,
				ExpectError: regexp.MustCompile(`(?s)Unable to Read Player Theme.*no such object`),
			},
			{
				Config: env.ProviderConfig("") + `
data "videohost_player_themes" "bad" {
  sort_by = "colour"
}
`,
				ExpectError: regexp.MustCompile(`(?s)sort_by.*value must be one of`),
			},
			{
				// A valid last configuration, which the test's final destroy uses.
				Config: env.ProviderConfig(""),
			},
		},
	})
}

// TestAccPlayerThemeDataSourcesOfThemeMadeOutside reads a theme made outside Terraform through
// the public API: by id, with what the service holds, and among the list of every theme, where
// its item is what the read by id says. It looks for its own theme among the others, so it runs
// against any endpoint, unlike TestAccPlayerThemeDataSources, which counts every theme.
func TestAccPlayerThemeDataSourcesOfThemeMadeOutside(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	c := acctest.ServiceClient(t, env)
	name := env.Name("outside")
	theme, err := c.CreatePlayerTheme(t.Context(), videohost.PlayerThemeInput{Name: videohost.Value(name), ForceLoop: videohost.Value(true)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.DeletePlayerTheme(context.Background(), theme.ID); err != nil && !errors.Is(err, videohost.ErrNotFound) {
			t.Errorf("deleting player theme %s made outside Terraform: %v", theme.ID, err)
		}
	})
	const one = "data.videohost_player_theme.one"
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: env.ProviderConfig("") + fmt.Sprintf(`
data "videohost_player_themes" "all" {}

data "videohost_player_theme" "one" {
  id = %q
}
`, theme.ID),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(one, tfjsonpath.New("name"), knownvalue.StringExact(name)),
				statecheck.ExpectKnownValue(one, tfjsonpath.New("force_loop"), knownvalue.Bool(true)),
				acctest.ListedAsRead("data.videohost_player_themes.all", "player_themes", one),
			},
		}},
	})
}
