package uploadtoken_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/provider/uploadtoken"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

const testUploadTokenAddr = "videohost_upload_token.test"

func uploadTokenConfig(env *acctest.AccEnv, ttl string) string {
	attrs := ""
	if ttl != "" {
		attrs = "  ttl = " + ttl + "\n"
	}
	return env.ProviderConfig("") + "\nresource \"videohost_upload_token\" \"test\" {\n" + attrs + "}\n"
}

func TestUploadTokenFingerprint(t *testing.T) {
	// The fingerprint is the start of what Terraform's sha256() gives, so that a configuration
	// can compute it: substr(sha256("abc"), 0, 16).
	if got := uploadtoken.UploadTokenFingerprint("abc"); got != "ba7816bf8f01cfea" {
		t.Errorf("fingerprint of abc %q, want the first 16 digits of its SHA-256", got)
	}
	a, b := uploadtoken.UploadTokenFingerprint("to1234567890123456789012"), uploadtoken.UploadTokenFingerprint("to1234567890123456789013")
	if !uploadtoken.UploadTokenFingerprintPattern.MatchString(a) || a == b {
		t.Errorf("fingerprints %q and %q: want 16 hex digits, different for different tokens", a, b)
	}
}

// tokenOnService is a state check that the token in the state of videohost_upload_token.test is
// on the service, that the id is its fingerprint, and that its times are the service's; it
// keeps the token in *token for the later steps.
func tokenOnService(t *testing.T, env *acctest.AccEnv, token *string) statecheck.StateCheck {
	return acctest.StateCheckFunc(func(s *tfjson.State) error {
		r, err := acctest.StateResource(s, testUploadTokenAddr)
		if err != nil {
			return err
		}
		*token = acctest.AttrString(r, "token")
		if !uploadtoken.UploadTokenPattern.MatchString(*token) {
			return errors.New("the state's token does not look like a token")
		}
		if got, want := acctest.AttrString(r, "id"), uploadtoken.UploadTokenFingerprint(*token); got != want {
			return fmt.Errorf("id %q, want the token's fingerprint %q", got, want)
		}
		tok, err := acctest.ServiceClient(t, env).GetUploadToken(context.Background(), *token)
		if err != nil {
			return fmt.Errorf("the token is not on the service: %w", err)
		}
		if got, want := acctest.AttrString(r, "created_at"), framework.TimeString(tok.CreatedAt).ValueString(); got != want {
			return fmt.Errorf("created_at %q, service %q", got, want)
		}
		if got, want := acctest.AttrString(r, "expires_at"), framework.TimeString(tok.ExpiresAt).ValueString(); got != want {
			return fmt.Errorf("expires_at %q, service %q", got, want)
		}
		return nil
	})
}

// tokenGone is a check that the service no longer has *token.
func tokenGone(t *testing.T, env *acctest.AccEnv, token *string) error {
	if _, err := acctest.ServiceClient(t, env).GetUploadToken(context.Background(), *token); !errors.Is(err, videohost.ErrNotFound) {
		return fmt.Errorf("the replaced or destroyed token is still on the service (%v)", err)
	}
	return nil
}

// TestAccUploadToken creates a token that never expires, imports it by its fingerprint,
// replaces it when ttl changes, sees it deleted outside Terraform (the next plan creates a new
// one) and destroys it. The token is sensitive in every plan.
func TestAccUploadToken(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	var first, second, third string
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		CheckDestroy:             func(*terraform.State) error { return tokenGone(t, env, &third) },
		Steps: []resource.TestStep{
			{
				Config: uploadTokenConfig(env, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testUploadTokenAddr, plancheck.ResourceActionCreate),
						plancheck.ExpectSensitiveValue(testUploadTokenAddr, tfjsonpath.New("token")),
						plancheck.ExpectUnknownValue(testUploadTokenAddr, tfjsonpath.New("id")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					tokenOnService(t, env, &first),
					// The token is what the service takes for an upload without the API key.
					acctest.StateCheckFunc(func(*tfjson.State) error {
						data := []byte("not really a video, but bytes the emulator takes")
						// The video the upload makes takes the file's name as its title: the run's.
						c := acctest.ServiceClient(t, env)
						v, err := c.UploadWithToken(context.Background(), first,
							videohost.UploadSource{Name: acctest.RunName(t, "clip.mp4"), Reader: bytes.NewReader(data), Size: int64(len(data))}, videohost.UploadOptions{})
						if err != nil || v.ID == "" {
							return fmt.Errorf("uploading with the token: %v", err)
						}
						return c.DeleteVideo(context.Background(), v.ID)
					}),
					statecheck.ExpectKnownValue(testUploadTokenAddr, tfjsonpath.New("ttl"), knownvalue.Int64Exact(0)),
					statecheck.ExpectKnownValue(testUploadTokenAddr, tfjsonpath.New("expires_at"), knownvalue.Null()),
					statecheck.ExpectSensitiveValue(testUploadTokenAddr, tfjsonpath.New("token")),
				},
			},
			{
				// terraform import videohost_upload_token.test <fingerprint>: the token comes back
				// from the list.
				ResourceName:      testUploadTokenAddr,
				ImportState:       true,
				ImportStateVerify: true,
			},
			{
				Config: uploadTokenConfig(env, "3600"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testUploadTokenAddr, plancheck.ResourceActionDestroyBeforeCreate),
					},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					tokenOnService(t, env, &second),
					statecheck.ExpectKnownValue(testUploadTokenAddr, tfjsonpath.New("ttl"), knownvalue.Int64Exact(3600)),
					acctest.StateCheckFunc(func(s *tfjson.State) error {
						r, _ := acctest.StateResource(s, testUploadTokenAddr)
						created, err1 := time.Parse(time.RFC3339, acctest.AttrString(r, "created_at"))
						expires, err2 := time.Parse(time.RFC3339, acctest.AttrString(r, "expires_at"))
						if err1 != nil || err2 != nil || expires.Sub(created) != time.Hour {
							return fmt.Errorf("created_at %s, expires_at %s: want an hour apart", created, expires)
						}
						if first == second {
							return errors.New("a change of ttl kept the token")
						}
						return tokenGone(t, env, &first)
					}),
				},
			},
			{
				// Deleted outside Terraform: the refresh drops it and the plan makes a new one.
				PreConfig: func() {
					if err := acctest.ServiceClient(t, env).DeleteUploadToken(context.Background(), second); err != nil {
						t.Fatal(err)
					}
				},
				Config: uploadTokenConfig(env, "3600"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(testUploadTokenAddr, plancheck.ResourceActionCreate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{tokenOnService(t, env, &third)},
			},
		},
	})
}

// TestAccUploadTokenImportBlock imports a token made outside Terraform with an import block
// whose id is computed from the token held in a sensitive variable (as TF_VAR_ feeds it from a
// secret store), so that the token is written in no file; the plan after it is empty.
func TestAccUploadTokenImportBlock(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	tok, err := acctest.ServiceClient(t, env).CreateUploadToken(t.Context(), 600)
	if err != nil {
		t.Fatal(err)
	}
	cfg := env.ProviderConfig("") + `
variable "upload_token" {
  type      = string
  sensitive = true
}

import {
  to = videohost_upload_token.test
  id = nonsensitive(substr(sha256(var.upload_token), 0, 16))
}

resource "videohost_upload_token" "test" {
  ttl = 600
}
`
	vars := config.Variables{"upload_token": config.StringVariable(tok.Token)}
	var got string
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_5_0)},
		Steps: []resource.TestStep{
			{
				Config: cfg, ConfigVariables: vars,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testUploadTokenAddr, plancheck.ResourceActionNoop),
						acctest.ExpectImporting(testUploadTokenAddr),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					tokenOnService(t, env, &got),
					acctest.StateCheckFunc(func(*tfjson.State) error {
						if got != tok.Token {
							return errors.New("the imported token is not the one made outside Terraform")
						}
						return nil
					}),
				},
			},
		},
	})
}

// TestAccUploadTokenBadTTL: a ttl out of the service's range, with a fraction or beyond 64
// bits is an error on ttl at plan time that says what to set, never "an error in the
// provider"; so is a whole-number setting of the provider with a fraction.
func TestAccUploadTokenBadTTL(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	// The message, and no value that Go could not print ("%!s(...)") anywhere in the output.
	notTheProvidersFault := func(want string) *regexp.Regexp {
		return regexp.MustCompile(`(?s)\A(?:[^%]|%[^!])*Invalid Whole Number.*` + want + `(?:[^%]|%[^!])*\z`)
	}
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: uploadTokenConfig(env, "-1"), PlanOnly: true, ExpectError: regexp.MustCompile(`(?s)ttl.*between 0 and 2147483647`)},
			{
				Config: uploadTokenConfig(env, "1.5"), PlanOnly: true,
				ExpectError: notTheProvidersFault(`with videohost_upload_token.test,.*Set\s+ttl\s+to\s+a\s+whole\s+number\s+of\s+seconds:\s+1.5\s+has\s+a\s+fraction\.`),
			},
			{Config: uploadTokenConfig(env, "1e30"), PlanOnly: true, ExpectError: notTheProvidersFault(`ttl.*1e\+30\s+is\s+too\s+large`)},
			{
				Config: env.ProviderConfig("max_retries = 2.5") + "\nresource \"videohost_upload_token\" \"test\" {}\n", PlanOnly: true,
				ExpectError: notTheProvidersFault(`max_retries\s+to\s+a\s+whole\s+number\s+of\s+retries:\s+2.5\s+has\s+a\s+fraction`),
			},
		},
	})
	if n := env.RequestCount("", "/upload-tokens"); n != 0 {
		t.Errorf("%d requests reached /upload-tokens for a refused ttl", n)
	}
}

// TestUploadTokenReadGone reads, through the protocol, states of tokens that the service no
// longer has: one whose expires_at has passed warns that it expired, the others that they were
// deleted outside Terraform; both leave the state, and no diagnostic holds the token.
func TestUploadTokenReadGone(t *testing.T) {
	emu, baseURL := acctest.ServeEmulator(t, emulator.Options{}, nil)
	p := acctest.NewProtoServer(t, baseURL, emu.APIKeys()[0], nil)
	const gone = "toAAAAAAAAAAAAAAAAAAAAAA"
	past := time.Now().Add(-time.Minute).UTC().Format(time.RFC3339)
	future := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	for _, c := range []struct {
		name, expiresAt, summary string
	}{
		{"expired", past, "Upload Token Expired"},
		{"deleted", future, "Upload Token Deleted Outside Terraform"},
		{"deleted, never expiring", "", "Upload Token Deleted Outside Terraform"},
	} {
		t.Run(c.name, func(t *testing.T) {
			state := map[string]tftypes.Value{
				"id": acctest.Str(uploadtoken.UploadTokenFingerprint(gone)), "token": acctest.Str(gone), "ttl": tftypes.NewValue(tftypes.Number, big.NewFloat(60)),
				"created_at": acctest.Str(past),
			}
			if c.expiresAt != "" {
				state["expires_at"] = acctest.Str(c.expiresAt)
			}
			newState, _, diags := p.Read("videohost_upload_token", state)
			if newState != nil {
				t.Errorf("the state stays: %v", newState)
			}
			if len(diags) != 1 || diags[0].Severity != tfprotov6.DiagnosticSeverityWarning || diags[0].Summary != c.summary {
				t.Fatalf("diagnostics %s, want one warning %q", acctest.DiagText(diags), c.summary)
			}
			if strings.Contains(acctest.DiagText(diags), gone) {
				t.Error("the warning holds the token")
			}
		})
	}
}

// TestUploadTokenExpiryByServiceClock: whether a token that the service no longer has expired
// or was deleted is judged by the service's clock, which here disagrees with the machine's.
// A token whose expiry the service's clock passed (moved with POST /_emulator/clock/advance)
// expired, although the machine's clock is before it; a token deleted by a service whose clock
// runs two hours behind was deleted, although the machine's clock is past its expiry.
func TestUploadTokenExpiryByServiceClock(t *testing.T) {
	for _, c := range []struct {
		name    string
		behind  time.Duration // how far the service's clock is behind the machine's
		gone    func(t *testing.T, baseURL string, c *videohost.Client, token string)
		summary string
	}{
		{"expired on the service's clock", 0, func(t *testing.T, baseURL string, _ *videohost.Client, _ string) {
			resp, err := http.Post(baseURL+"/_emulator/clock/advance", "application/json", strings.NewReader(`{"seconds": 120}`))
			if err != nil {
				t.Fatal(err)
			}
			_ = resp.Body.Close()
			if resp.StatusCode/100 != 2 {
				t.Fatalf("clock/advance: %s", resp.Status)
			}
		}, "Upload Token Expired"},
		{"deleted before the service's expiry", 2 * time.Hour, func(t *testing.T, _ string, c *videohost.Client, token string) {
			if err := c.DeleteUploadToken(t.Context(), token); err != nil {
				t.Fatal(err)
			}
		}, "Upload Token Deleted Outside Terraform"},
	} {
		t.Run(c.name, func(t *testing.T) {
			now := func() time.Time { return time.Now().Add(-c.behind) }
			emu, baseURL := acctest.ServeEmulator(t, emulator.Options{Now: now}, nil)
			env := &acctest.AccEnv{BaseURL: baseURL, APIKey: emu.APIKeys()[0], Emu: emu}
			client := acctest.ServiceClient(t, env)
			tok, err := client.CreateUploadToken(t.Context(), 60)
			if err != nil {
				t.Fatal(err)
			}
			c.gone(t, baseURL, client, tok.Token)
			m := uploadtoken.UploadTokenModelFrom(tok)
			p := acctest.NewProtoServer(t, baseURL, env.APIKey, nil)
			newState, _, diags := p.Read("videohost_upload_token", map[string]tftypes.Value{
				"id": acctest.Str(m.ID.ValueString()), "token": acctest.Str(tok.Token), "ttl": tftypes.NewValue(tftypes.Number, big.NewFloat(60)),
				"created_at": acctest.Str(m.CreatedAt.ValueString()), "expires_at": acctest.Str(m.ExpiresAt.ValueString()),
			})
			if newState != nil {
				t.Errorf("the state stays: %v", newState)
			}
			if len(diags) != 1 || diags[0].Severity != tfprotov6.DiagnosticSeverityWarning || diags[0].Summary != c.summary {
				t.Fatalf("diagnostics %s, want one warning %q", acctest.DiagText(diags), c.summary)
			}
		})
	}
}

// TestUploadTokenImportRefusesToken: an import id that is a token is refused before any request,
// with advice that does not repeat it; a fingerprint is taken, by id or identity.
func TestUploadTokenImportRefusesToken(t *testing.T) {
	emu, baseURL := acctest.ServeEmulator(t, emulator.Options{}, nil)
	p := acctest.NewProtoServer(t, baseURL, emu.APIKeys()[0], nil)
	const token = "toBBBBBBBBBBBBBBBBBBBBBB"
	_, _, diags := p.ImportResource("videohost_upload_token", token, nil)
	if !acctest.HasError(diags, "Invalid Import ID", "fingerprint", "sha256") || strings.Contains(acctest.DiagText(diags), token) {
		t.Errorf("import by the token: %s", acctest.DiagText(diags))
	}
	_, _, diags = p.ImportResource("videohost_upload_token", "not-a-fingerprint", nil)
	if !acctest.HasError(diags, "Invalid Import ID", "16 lowercase hexadecimal digits") {
		t.Errorf("import by a bad id: %s", acctest.DiagText(diags))
	}
	fp := uploadtoken.UploadTokenFingerprint(token)
	state, identity, diags := p.ImportResource("videohost_upload_token", "", map[string]tftypes.Value{"id": acctest.Str(fp)})
	acctest.RequireNoErrors(t, "ImportResourceState", diags)
	if acctest.StringOf(state["id"]) != fp || acctest.StringOf(identity["id"]) != fp {
		t.Errorf("import by identity: state %v, identity %v", state, identity)
	}
	if n := emu.RequestCount("", "/upload-tokens"); n != 0 {
		t.Errorf("%d requests for an import, which reads nothing", n)
	}
}

// TestAccUploadTokenIdentity imports a token with an import block's identity (its fingerprint):
// the import reads the token from the list and plans no change. Identity needs Terraform 1.12.
func TestAccUploadTokenIdentity(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	var token string
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		Steps: []resource.TestStep{
			{
				Config: uploadTokenConfig(env, "120"),
				ConfigStateChecks: []statecheck.StateCheck{
					tokenOnService(t, env, &token),
					statecheck.ExpectIdentity(testUploadTokenAddr, map[string]knownvalue.Check{
						"id": knownvalue.StringRegexp(uploadtoken.UploadTokenFingerprintPattern),
					}),
					statecheck.ExpectIdentityValueMatchesState(testUploadTokenAddr, tfjsonpath.New("id")),
				},
			},
			{
				ResourceName:    testUploadTokenAddr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithResourceIdentity,
			},
		},
	})
}

// TestUploadTokenList drives the list resource of videohost_upload_token through the protocol:
// every token is a result whose identity and display name hold its fingerprint and never the
// token, which only include_resource adds.
func TestUploadTokenList(t *testing.T) {
	emu, baseURL := acctest.ServeEmulator(t, emulator.Options{}, nil)
	p := acctest.NewProtoServer(t, baseURL, emu.APIKeys()[0], nil)
	c := acctest.ServiceClient(t, &acctest.AccEnv{BaseURL: baseURL, APIKey: emu.APIKeys()[0], Emu: emu})
	tokens := map[string]string{} // fingerprint to token
	for _, ttl := range []int{0, 60, 3600} {
		tok, err := c.CreateUploadToken(t.Context(), ttl)
		if err != nil {
			t.Fatal(err)
		}
		tokens[uploadtoken.UploadTokenFingerprint(tok.Token)] = tok.Token
	}
	for _, include := range []bool{false, true} {
		results := p.List(acctest.ListQuery{TypeName: "videohost_upload_token", IncludeResource: include, Limit: 100})
		if len(results) != len(tokens) {
			t.Fatalf("%d results, want %d", len(results), len(tokens))
		}
		for _, r := range results {
			acctest.RequireNoErrors(t, "ListResource", r.Diagnostics)
			fp := acctest.StringOf(r.Identity["id"])
			token, ok := tokens[fp]
			if !ok {
				t.Fatalf("identity %q is no token's fingerprint", fp)
			}
			if !strings.HasPrefix(r.DisplayName, fp) || strings.Contains(r.DisplayName, token) {
				t.Errorf("display name %q: want the fingerprint, never the token", r.DisplayName)
			}
			if include && (acctest.StringOf(r.Resource["token"]) != token || acctest.StringOf(r.Resource["id"]) != fp) {
				t.Errorf("include_resource: %v", r.Resource)
			}
			if !include && r.Resource != nil {
				t.Errorf("a resource without include_resource: %v", r.Resource)
			}
		}
	}
}

// TestAccUploadTokenExpired: a token that expired on the service (its clock moved past
// expires_at) leaves the state at the next refresh, and the apply makes a new one.
func TestAccUploadTokenExpired(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	// Against a real endpoint the token could expire on its own after its ttl, but the run's
	// ledger, which sees no delete of it, would count it as left behind and fail the run.
	env.RequireEmulatorFor(t, "it moves the service's clock past the token's expiry")
	var first, second string
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:            uploadTokenConfig(env, "60"),
				ConfigStateChecks: []statecheck.StateCheck{tokenOnService(t, env, &first)},
			},
			{
				PreConfig: func() { env.Emu.AdvanceClock(2 * time.Minute) },
				Config:    uploadTokenConfig(env, "60"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(testUploadTokenAddr, plancheck.ResourceActionCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					tokenOnService(t, env, &second),
					acctest.StateCheckFunc(func(*tfjson.State) error {
						if first == second {
							return errors.New("the expired token is still in the state")
						}
						return nil
					}),
				},
			},
		},
	})
}
