package playertheme_test

// Tests of the player theme's models.

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/provider/playertheme"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

func TestPlayerThemeResourceModelFrom(t *testing.T) {
	p := acctest.SampleTheme("pt1")
	prior := playertheme.PlayerThemeResourceModelFrom(p, nil)
	prior.LogoFile, prior.LogoSHA256 = types.StringValue("logo.png"), types.StringValue("abc")
	prior.LogoLink = types.StringValue("https://example.com/a")
	// The service lost the logo: its hash goes, so that the next plan uploads it again.
	m := playertheme.PlayerThemeResourceModelFrom(p, &prior)
	if !m.LogoSHA256.IsNull() || !m.LogoURL.IsNull() || m.LogoFile.ValueString() != "logo.png" {
		t.Errorf("without a logo on the service: %+v", m)
	}
	p.Assets = &videohost.PlayerThemeAssets{Logo: "https://cdn.example/l.png", Link: "https://example.com/changed"}
	m = playertheme.PlayerThemeResourceModelFrom(p, &prior)
	if m.LogoSHA256.ValueString() != "abc" || m.LogoURL.ValueString() != "https://cdn.example/l.png" ||
		m.LogoLink.ValueString() != "https://example.com/changed" {
		t.Errorf("with a logo whose link changed outside Terraform: %+v", m)
	}
}
