package provider

import (
	"fmt"
	"strings"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// serviceClient is a client of the test's service for what happens outside Terraform: a
// change made in the dashboard, a read of what the service holds.
func serviceClient(t *testing.T, env *accEnv) *videohost.Client {
	t.Helper()
	c, err := videohost.New(videohost.Config{BaseURL: env.BaseURL, APIKey: env.APIKey, AuthScheme: videohost.AuthBasic, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// idOf captures the id of address into *id when the state is checked.
func idOf(address string, id *string) statecheck.StateCheck {
	return stateCheckFunc(func(s *tfjson.State) error {
		r, err := stateResource(s, address)
		if err == nil {
			*id = attrString(r, "id")
		}
		return err
	})
}

// hclAttrs writes attributes as HCL lines, in the order given: pairs of name and literal.
func hclAttrs(pairs ...string) string {
	var b strings.Builder
	for i := 0; i+1 < len(pairs); i += 2 {
		fmt.Fprintf(&b, "  %s = %s\n", pairs[i], pairs[i+1])
	}
	return b.String()
}
