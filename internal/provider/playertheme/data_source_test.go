package playertheme_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"regexp"
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
// asked for, each one by id as its list item says it, and an id that does not exist as an
// error on id.
func TestAccPlayerThemeDataSources(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	env.RequireOwnAccount(t, "it lists every player theme of the account and expects its own three")
	c := acctest.ServiceClient(t, env)
	for _, in := range []videohost.PlayerThemeInput{
		{Name: videohost.Value("charlie"), ForceLoop: videohost.Value(true)},
		{Name: videohost.Value("alpha"), Text: videohost.Value("rgba(1, 2, 3, 0.5)")},
		{Name: videohost.Value("bravo")},
	} {
		if _, err := c.CreatePlayerTheme(t.Context(), in); err != nil {
			t.Fatal(err)
		}
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
  id = data.videohost_player_themes.all.player_themes[0].id
}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.videohost_player_themes.all", tfjsonpath.New("player_themes"), knownvalue.ListPartial(map[int]knownvalue.Check{
						0: knownvalue.ObjectPartial(map[string]knownvalue.Check{"name": knownvalue.StringExact("alpha"), "text": knownvalue.StringExact("rgba(1, 2, 3, 0.5)")}),
						1: knownvalue.ObjectPartial(map[string]knownvalue.Check{"name": knownvalue.StringExact("bravo"), "force_loop": knownvalue.Bool(false)}),
						2: knownvalue.ObjectPartial(map[string]knownvalue.Check{"name": knownvalue.StringExact("charlie"), "force_loop": knownvalue.Bool(true)}),
					})),
					statecheck.ExpectKnownValue("data.videohost_player_themes.all", tfjsonpath.New("player_themes"), knownvalue.ListSizeExact(3)),
					acctest.StateCheckFunc(func(s *tfjson.State) error {
						all, err := acctest.StateAttributes(s, "data.videohost_player_themes.all")
						if err != nil {
							return err
						}
						one, err := acctest.StateAttributes(s, "data.videohost_player_theme.first")
						if err != nil {
							return err
						}
						items, _ := all["player_themes"].([]any)
						if len(items) == 0 || !reflect.DeepEqual(one, items[0]) {
							return fmt.Errorf("the theme read by id %v differs from its list item", one)
						}
						return nil
					}),
				},
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
	name := "outside " + acctest.RunSuffix(t)
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
