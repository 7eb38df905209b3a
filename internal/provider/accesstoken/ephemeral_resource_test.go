package accesstoken_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// jwtShape is a JSON Web Token in compact form: three base64url parts separated by dots.
var jwtShape = regexp.MustCompile(`^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$`)

// jwtInText finds a JSON Web Token inside a larger text: its header is base64url JSON, so it
// starts with "eyJ" (the encoding of `{"`).
var jwtInText = regexp.MustCompile(`eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+`)

// webhooksStatus sends GET /webhooks to the service with a bearer token and returns the status.
// It checks a token against the service itself, not against the client that got it.
func webhooksStatus(ctx context.Context, baseURL, token string) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(baseURL, "/")+"/webhooks", nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	if err := resp.Body.Close(); err != nil {
		return 0, err
	}
	return resp.StatusCode, nil
}

// echoedToken reads the access token and its expiry that the echo provider stored.
func echoedToken(s *tfjson.State) (token, expiresAt string, err error) {
	if s == nil || s.Values == nil || s.Values.RootModule == nil {
		return "", "", fmt.Errorf("the state is empty")
	}
	for _, r := range s.Values.RootModule.Resources {
		if r.Address != "echo.token" {
			continue
		}
		data, ok := r.AttributeValues["data"].(map[string]any)
		if !ok {
			return "", "", fmt.Errorf("echo.token data is %T, want an object", r.AttributeValues["data"])
		}
		token, _ = data["access_token"].(string)
		expiresAt, _ = data["expires_at"].(string)
		return token, expiresAt, nil
	}
	return "", "", fmt.Errorf("echo.token is not in the state")
}

// jwtsIn returns the JSON Web Tokens found in v marshalled to JSON.
func jwtsIn(v any) ([]string, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return jwtInText.FindAllString(string(raw), -1), nil
}

// jwtsInStateExcept returns the JSON Web Tokens found in the values and outputs of the state,
// leaving out the resource at the address allowed.
func jwtsInStateExcept(s *tfjson.State, allowed string) ([]string, error) {
	if s == nil || s.Values == nil || s.Values.RootModule == nil {
		return nil, fmt.Errorf("the state is empty")
	}
	found, err := jwtsIn(s.Values.Outputs)
	if err != nil {
		return nil, err
	}
	for _, r := range s.Values.RootModule.Resources {
		if r.Address == allowed {
			continue
		}
		more, err := jwtsIn(r)
		if err != nil {
			return nil, err
		}
		found = append(found, more...)
	}
	return found, nil
}

// tamperJWT changes the first character of the token's signature part.
func tamperJWT(token string) string {
	i := strings.LastIndex(token, ".") + 1
	if i == 0 || i >= len(token) {
		return token + "x"
	}
	c := byte('A')
	if token[i] == 'A' {
		c = 'B'
	}
	return token[:i] + string(c) + token[i+1:]
}

func TestAccAccessTokenEphemeralResource(t *testing.T) {
	const ttl = 20 * time.Minute
	env := acctest.NewAccEnv(t, emulator.Options{TokenTTL: ttl})
	acctest.RequireCLIFeature(t, acctest.FeatureEphemeral)
	maxTTL := ttl
	if env.Emu == nil {
		maxTTL = time.Hour
	}

	var token string
	resource.Test(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_10_0)},
		ProtoV6ProviderFactories: acctest.AccessTokenProviderFactories(),
		Steps: []resource.TestStep{
			acctest.EmptyPlanAfterApply(t, resource.TestStep{
				Config: env.ProviderConfig("") + `
ephemeral "videohost_access_token" "current" {}

provider "echo" {
  data = ephemeral.videohost_access_token.current
}

resource "echo" "token" {}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("echo.token", tfjsonpath.New("data").AtMapKey("access_token"),
						knownvalue.StringRegexp(jwtShape)),
					statecheck.ExpectKnownValue("echo.token", tfjsonpath.New("data").AtMapKey("expires_at"),
						knownvalue.StringFunc(func(v string) error {
							exp, err := time.Parse(time.RFC3339, v)
							if err != nil {
								return fmt.Errorf("expires_at %q is not RFC 3339: %w", v, err)
							}
							now := time.Now()
							if !exp.After(now) {
								return fmt.Errorf("expires_at %s is not in the future (now %s)", v, now.Format(time.RFC3339))
							}
							if exp.After(now.Add(maxTTL + time.Minute)) {
								return fmt.Errorf("expires_at %s is later than the token lifetime %s allows", v, maxTTL)
							}
							return nil
						})),
					acctest.StateCheckFunc(func(s *tfjson.State) error {
						var expiresAt string
						var err error
						token, expiresAt, err = echoedToken(s)
						if err != nil {
							return err
						}
						// The expiry the resource reports is the one written in the token.
						claims := jwt.MapClaims{}
						if _, _, err := jwt.NewParser().ParseUnverified(token, claims); err != nil {
							return fmt.Errorf("the access token does not parse as a JWT: %w", err)
						}
						exp, err := claims.GetExpirationTime()
						if err != nil || exp == nil {
							return fmt.Errorf("the access token has no exp claim (%v)", err)
						}
						reported, err := time.Parse(time.RFC3339, expiresAt)
						if err != nil {
							return fmt.Errorf("expires_at %q is not RFC 3339: %w", expiresAt, err)
						}
						// The client may count the lifetime from the moment it got the answer, a
						// second or two after the service stamped the token.
						if d := reported.Sub(exp.Time); d < -2*time.Second || d > 2*time.Second {
							return fmt.Errorf("expires_at is %s, the token's exp claim says %s", expiresAt, exp.UTC().Format(time.RFC3339))
						}
						// The detector used by the leak test must see this token, or that test proves nothing.
						if !jwtInText.MatchString(token) {
							return fmt.Errorf("the access token does not start like a JWT header (eyJ)")
						}
						found, err := jwtsInStateExcept(s, "echo.token")
						if err != nil {
							return err
						}
						if len(found) > 0 {
							return fmt.Errorf("%d access tokens in the state outside echo.token", len(found))
						}
						return nil
					}),
					acctest.StateCheckFunc(func(*tfjson.State) error {
						// The service accepts the token, and refuses it when its signature is altered.
						status, err := webhooksStatus(t.Context(), env.BaseURL, token)
						if err != nil {
							return err
						}
						if status != http.StatusOK {
							return fmt.Errorf("the service answered %d to the access token, want 200", status)
						}
						status, err = webhooksStatus(t.Context(), env.BaseURL, tamperJWT(token))
						if err != nil {
							return err
						}
						if status != http.StatusUnauthorized {
							return fmt.Errorf("the service answered %d to an altered token, want 401", status)
						}
						return nil
					}),
				},
			}),
		},
	})
}

// TestAccAccessTokenRefusedKey checks that a key the service refuses is an error of the
// ephemeral resource that says what to do. It is its own test case: a configuration that cannot
// open the token cannot be destroyed either, and an empty state needs no destroy.
func TestAccAccessTokenRefusedKey(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})

	resource.Test(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_10_0)},
		ProtoV6ProviderFactories: acctest.AccessTokenProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: fmt.Sprintf(`
provider "videohost" {
  base_url = %q
  api_key  = "a-key-the-service-does-not-know"
}

ephemeral "videohost_access_token" "current" {}

provider "echo" {
  data = ephemeral.videohost_access_token.current
}

resource "echo" "token" {}
`, env.BaseURL),
				ExpectError: regexp.MustCompile(`(?s)Unable to Obtain an Access Token.*API key was refused`),
			},
		},
	})
}

// TestAccAccessTokenNotInPlanOrState opens the ephemeral resource in a configuration that also
// reads a data source, and checks that neither the plan nor the state holds a token.
func TestAccAccessTokenNotInPlanOrState(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{SeedLiveStreams: 3})
	acctest.RequireCLIFeature(t, acctest.FeatureEphemeral)

	stateChecks := []statecheck.StateCheck{
		acctest.StateCheckFunc(func(s *tfjson.State) error {
			found, err := jwtsInStateExcept(s, "")
			if err != nil {
				return err
			}
			if len(found) > 0 {
				return fmt.Errorf("the state holds %d access tokens", len(found))
			}
			raw, err := json.Marshal(s.Values)
			if err != nil {
				return err
			}
			if strings.Contains(string(raw), "access_token") {
				return fmt.Errorf("the state values name access_token")
			}
			return nil
		}),
	}
	if env.Emu != nil {
		// The data source was read, so the state is not empty by accident.
		stateChecks = append(stateChecks,
			statecheck.ExpectKnownOutputValue("live_stream_count", knownvalue.Int64Exact(3)))
	}
	// Against a real endpoint other tests make and delete live streams meanwhile: the list is
	// narrowed to a name none has, so that its length holds still between the apply and the plan.
	filter := ""
	if env.Emu == nil {
		filter = ` name = "none-` + t.Name() + `" `
	}

	resource.Test(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_10_0)},
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			acctest.EmptyPlanAfterApply(t, resource.TestStep{
				Config: env.ProviderConfig("") + `
ephemeral "videohost_access_token" "current" {}

locals {
  authorization = "Bearer ${ephemeral.videohost_access_token.current.access_token}"
}

data "videohost_live_streams" "all" {` + filter + `}

output "live_stream_count" {
  value = length(data.videohost_live_streams.all.live_streams)
}
`,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						acctest.PlanCheckFunc(func(p *tfjson.Plan) error {
							found, err := jwtsIn(p)
							if err != nil {
								return err
							}
							if len(found) > 0 {
								return fmt.Errorf("the plan holds %d access tokens", len(found))
							}
							return nil
						}),
					},
				},
				ConfigStateChecks: stateChecks,
			}),
		},
	})
}
