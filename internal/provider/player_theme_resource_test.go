package provider

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"

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
	if m.Name.ValueString() != "brand" || m.Assets.Attributes()["logo"].(types.String).ValueString() != "https://cdn.example/logo.png" {
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
	plan.Name = types.StringUnknown()
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
