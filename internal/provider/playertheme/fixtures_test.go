package playertheme_test

import "github.com/videohost/terraform-provider-videohost/internal/acctest"

// themeConfig is the provider and videohost_player_theme.brand with attrs.
func themeConfig(env *acctest.AccEnv, attrs ...string) string {
	return env.ProviderConfig("") + acctest.ResourceBlock("videohost_player_theme", "brand", attrs...)
}
