package livestream_test

import (
	"fmt"
	"strings"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
)

// testStreamAddr is the live stream of streamConfig.
const testStreamAddr = "videohost_live_stream.studio"

// streamConfig is a theme brand (when withTheme) and a live stream studio with attrs.
func streamConfig(env *acctest.AccEnv, withTheme bool, attrs ...string) string {
	s := env.ProviderConfig("")
	if withTheme {
		s += "resource \"videohost_player_theme\" \"brand\" {\n  name = " + acctest.Hcl(env.Name("brand")) + "\n}\n"
	}
	return s + "resource \"videohost_live_stream\" \"studio\" {\n" + acctest.HclAttrs(attrs...) + "}\n"
}

// restreamsHCL is a list of restreams with keys kept in the state: triples of name, address
// and key.
func restreamsHCL(triples ...string) string {
	var items []string
	for i := 0; i+2 < len(triples); i += 3 {
		items = append(items, fmt.Sprintf("{ name = %s, server_url = %s, stream_key = %s }", acctest.Hcl(triples[i]), acctest.Hcl(triples[i+1]), acctest.Hcl(triples[i+2])))
	}
	return "[\n    " + strings.Join(items, ",\n    ") + "\n  ]"
}
