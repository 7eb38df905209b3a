package provider

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// wrappedPhrases matches the phrases in this order in Terraform's output, which wraps long
// lines: a space of a phrase matches any run of white space.
func wrappedPhrases(phrases ...string) *regexp.Regexp {
	parts := make([]string, len(phrases))
	for i, p := range phrases {
		words := strings.Fields(p)
		for j, w := range words {
			words[j] = regexp.QuoteMeta(w)
		}
		parts[i] = strings.Join(words, `\s+`)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(parts, ".*"))
}

// TestAccWrongBaseURLPath points a configuration whose webhook is in the state at the emulator's
// address plus "/v1". The service answers "Unrecognized request URL." to every call under it:
// the refresh must fail with an error that names base_url, for both authentication schemes and
// whether or not the token call gets through (a proxy may serve /auth under any prefix), and
// must neither take the webhook for deleted outside Terraform nor drop it from the state: with
// the right address again, the plan is empty.
func TestAccWrongBaseURLPath(t *testing.T) {
	env := newAccEnv(t, emulator.Options{})
	env.requireEmulator(t)
	// The same emulator behind a second address whose /v1/auth/ calls reach it: there the token
	// call succeeds and the webhook's read is the first call to meet the unknown endpoint.
	_, tokenOK := serveEmulator(t, emulator.Options{}, func(*emulator.Emulator) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(r.URL.Path, "/v1/auth/") {
				r.URL.Path = strings.TrimPrefix(r.URL.Path, "/v1")
			}
			env.Emu.ServeHTTP(w, r)
		})
	})
	right := webhookConfig(env, "", "https://hooks.example.test/wrong-address", "video.source.recorded")
	wrong := func(base, scheme string) string {
		return strings.Replace(right, hcl(env.BaseURL), hcl(base+"/v1")+"\n  auth_scheme = "+hcl(scheme), 1)
	}
	want := func(call string) *regexp.Regexp {
		return wrappedPhrases("Unable to Read Webhook",
			"answered that the address is no endpoint of its API, so base_url is wrong: no object or id is involved",
			"without a path such as /v1", "Unrecognized request URL.", "[status 404 on "+call+"]")
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: right},
			{Config: wrong(env.BaseURL, "bearer"), ExpectError: want("POST /auth/api-key")},
			{Config: wrong(tokenOK, "bearer"), ExpectError: want("GET /webhooks")},
			{Config: wrong(env.BaseURL, "basic"), ExpectError: want("GET /webhooks")},
			{
				Config: right,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}
