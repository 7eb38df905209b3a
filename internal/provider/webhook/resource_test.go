package webhook_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/events"
	"github.com/videohost/terraform-provider-videohost/internal/provider/webhook"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

func TestAccWebhookResource(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	url1, url2 := hookURL(env, "one"), hookURL(env, "two")
	var id string
	captureID := acctest.StateCheckFunc(func(s *tfjson.State) error {
		r, err := acctest.StateResource(s, acctest.TestWebhookAddr)
		if err == nil {
			id = acctest.AttrString(r, "id")
		}
		return err
	})
	ids := statecheck.CompareValue(compare.ValuesDiffer())

	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: acctest.WebhookConfig(env, "", url1, events.VideoSourceRecorded, events.VideoCaptionGenerated),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(acctest.TestWebhookAddr, plancheck.ResourceActionCreate),
						plancheck.ExpectUnknownValue(acctest.TestWebhookAddr, tfjsonpath.New("signature_secret")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(acctest.TestWebhookAddr, tfjsonpath.New("id"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(acctest.TestWebhookAddr, tfjsonpath.New("url"), knownvalue.StringExact(url1)),
					statecheck.ExpectKnownValue(acctest.TestWebhookAddr, tfjsonpath.New("events"), knownvalue.SetExact([]knownvalue.Check{
						knownvalue.StringExact(events.VideoCaptionGenerated), knownvalue.StringExact(events.VideoSourceRecorded),
					})),
					statecheck.ExpectKnownValue(acctest.TestWebhookAddr, tfjsonpath.New("created_at"), knownvalue.StringRegexp(
						regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`))),
					statecheck.ExpectKnownValue(acctest.TestWebhookAddr, tfjsonpath.New("signature_secret"), knownvalue.StringRegexp(regexp.MustCompile(`.{8,}`))),
					statecheck.ExpectSensitiveValue(acctest.TestWebhookAddr, tfjsonpath.New("signature_secret")),
					acctest.MatchesEmulator(env),
					ids.AddStateValue(acctest.TestWebhookAddr, tfjsonpath.New("id")),
				},
			},
			{
				// terraform import videohost_webhook.test <id>
				ResourceName:      acctest.TestWebhookAddr,
				ImportState:       true,
				ImportStateVerify: true,
			},
			{
				// An import {} block: the framework checks that the plan is a no-op import.
				ResourceName:    acctest.TestWebhookAddr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithID,
			},
			{
				Config: acctest.WebhookConfig(env, "", url2, events.VideoSourceRecorded, events.VideoCaptionGenerated),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(acctest.TestWebhookAddr, plancheck.ResourceActionDestroyBeforeCreate),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(acctest.TestWebhookAddr, tfjsonpath.New("url"), knownvalue.StringExact(url2)),
					acctest.MatchesEmulator(env),
					ids.AddStateValue(acctest.TestWebhookAddr, tfjsonpath.New("id")),
				},
			},
			{
				Config: acctest.WebhookConfig(env, "", url2, events.LiveStreamBroadcastStarted),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(acctest.TestWebhookAddr, plancheck.ResourceActionDestroyBeforeCreate),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(acctest.TestWebhookAddr, tfjsonpath.New("events"), knownvalue.SetExact([]knownvalue.Check{
						knownvalue.StringExact(events.LiveStreamBroadcastStarted),
					})),
					acctest.MatchesEmulator(env),
					ids.AddStateValue(acctest.TestWebhookAddr, tfjsonpath.New("id")),
					captureID,
				},
			},
			{
				// Drift: the webhook is deleted outside Terraform, through the API with the key;
				// the plan re-creates it.
				PreConfig: func() {
					if err := acctest.ServiceClient(t, env).DeleteWebhook(t.Context(), id); err != nil {
						t.Errorf("deleting webhook %s outside Terraform: %v", id, err)
					}
				},
				Config: acctest.WebhookConfig(env, "", url2, events.LiveStreamBroadcastStarted),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(acctest.TestWebhookAddr, plancheck.ResourceActionCreate),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					acctest.MatchesEmulator(env),
					ids.AddStateValue(acctest.TestWebhookAddr, tfjsonpath.New("id")),
				},
			},
		},
		CheckDestroy: func(*terraform.State) error {
			if env.Emu != nil && len(env.Emu.Webhooks()) != 0 {
				return fmt.Errorf("webhooks left after destroy: %v", env.Emu.Webhooks())
			}
			return nil
		},
	})
}

func TestAccWebhookResourceDriftPlanOnly(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	url := hookURL(env, "drift")
	var id string
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:            acctest.WebhookConfig(env, "", url, events.VideoSummaryGenerated),
				ConfigStateChecks: []statecheck.StateCheck{acctest.IdOf(acctest.TestWebhookAddr, &id)},
			},
			{
				// Deleted outside Terraform, through the API with the key.
				PreConfig: func() {
					if err := acctest.ServiceClient(t, env).DeleteWebhook(t.Context(), id); err != nil {
						t.Fatal(err)
					}
				},
				Config:             acctest.WebhookConfig(env, "", url, events.VideoSummaryGenerated),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
		},
	})
}

func TestAccWebhookResourcePlanTimeErrors(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	step := func(url string, evs []string, want string) resource.TestStep {
		return resource.TestStep{
			Config:      acctest.WebhookConfig(env, "", url, evs...),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(want),
		}
	}
	ok := []string{events.VideoSourceRecorded}
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			step("https://hooks.example.test/x", []string{"video.encoding.completed"}, `(?s)value must be one of.*video\.encoding\.quality\.completed`),
			step("https://hooks.example.test/x", []string{}, `(?s)events.*at least 1`),
			step("ftp://hooks.example.test/x", ok, `(?s)Invalid URL.*not http or https`),
			step("hooks.example.test/x", ok, `(?s)Invalid URL`),
			step("https:///nohost", ok, `(?s)Invalid URL.*no host`),
		},
	})
	if env.Emu != nil {
		if n := env.RequestCount("", "/"); n != 0 {
			t.Errorf("plan-time errors sent %d requests to the service", n)
		}
	}
}

func TestAccWebhookResourceBasicAuth(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: acctest.WebhookConfig(env, `auth_scheme = "basic"`, hookURL(env, "basic"), events.VideoSourceRecorded),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(acctest.TestWebhookAddr, tfjsonpath.New("signature_secret"), knownvalue.NotNull()),
				acctest.MatchesEmulator(env),
				acctest.StateCheckFunc(func(*tfjson.State) error {
					if env.Emu != nil {
						if n := env.RequestCount("", "/auth/"); n != 0 {
							return fmt.Errorf("the basic scheme asked for %d tokens", n)
						}
					}
					return nil
				}),
			},
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
		}},
	})
}

func TestAccWebhookResourceWrongKey(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	for _, scheme := range []string{"bearer", "basic"} {
		t.Run(scheme, func(t *testing.T) {
			config := fmt.Sprintf(`
provider "videohost" {
  base_url    = %s
  api_key     = "wrong-key-of-another-environment"
  auth_scheme = %s
}
resource "videohost_webhook" "test" {
  url    = "https://hooks.example.test/wrong-key"
  events = [%s]
}
`, acctest.Hcl(env.BaseURL), acctest.Hcl(scheme), acctest.Hcl(events.VideoSourceRecorded))
			acctest.AccTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{{
					Config:      config,
					ExpectError: regexp.MustCompile(`(?s)API key was refused by the sandbox\s+environment at .*sandbox and\s+production keys differ`),
				}},
			})
		})
	}
}

func TestAccWebhookResourceRateLimited(t *testing.T) {
	// Fifteen webhooks under 5 writes and 10 reads per 2 s window: the shared limiter makes the
	// creates queue for the next window instead of failing, and keeps to each window's budget
	// so that the service never has to answer 429. terraform-plugin-testing runs terraform
	// apply with its default parallelism of 10, so ten creates start at once.
	env := acctest.NewAccEnv(t, emulator.Options{
		MaxWebhooks: 20,
		RateWindow:  2 * time.Second,
		Limits:      emulator.Limits{Writes: 5, Reads: 10},
	})
	env.RequireEmulator(t)
	config := env.ProviderConfig("") + `
resource "videohost_webhook" "many" {
  count  = 15
  url    = "` + hookURL(env, "many") + `/${count.index}"
  events = ["video.source.recorded"]
}
`
	start := time.Now()
	defer func() {
		t.Logf("%s for apply, checks and destroy: %d POST, %d GET, %d DELETE /webhooks", time.Since(start).Round(100*time.Millisecond),
			env.RequestCount("POST", "/webhooks"), env.RequestCount("GET", "/webhooks"), env.RequestCount("DELETE", "/webhooks"))
	}()
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.StateCheckFunc(func(s *tfjson.State) error {
					t.Logf("applied after %s", time.Since(start).Round(100*time.Millisecond))
					got := acctest.StateWebhooks(s)
					if len(got) != 15 || len(env.Emu.Webhooks()) != 15 {
						return fmt.Errorf("%d webhooks in state and %d on the service, want 15", len(got), len(env.Emu.Webhooks()))
					}
					for _, r := range got {
						if acctest.AttrString(r, "signature_secret") == "" {
							return fmt.Errorf("%s has no secret", r.Address)
						}
					}
					st := env.Emu.RateStats()
					for class, c := range map[string]emulator.ClassRateStats{"writes": st.Writes, "reads": st.Reads} {
						if c.TooManyRequests != 0 || c.Early != 0 {
							return fmt.Errorf("%s: %d answered 429 and %d sent before Retry-After elapsed, want 0 and 0",
								class, c.TooManyRequests, c.Early)
						}
					}
					return nil
				}),
			},
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
		}},
	})
}

func TestAccWebhookResourceShortTokens(t *testing.T) {
	// Tokens live 2 s. Each answer of the service takes 250 ms and the webhooks form a chain
	// (each depends on the previous one), so one apply lasts longer than a token, and the steps
	// together span more than 4 s: tokens expire during commands and between them.
	env := acctest.NewAccEnv(t, emulator.Options{
		MaxWebhooks: 20,
		TokenTTL:    2 * time.Second,
		Faults:      emulator.Faults{Latency: 250 * time.Millisecond},
	})
	env.RequireEmulator(t)
	config := func(n int) string {
		c := env.ProviderConfig("")
		for i := range n {
			dep := ""
			if i > 0 {
				dep = fmt.Sprintf("depends_on = [videohost_webhook.t%d]", i-1)
			}
			c += fmt.Sprintf(`
resource "videohost_webhook" "t%d" {
  url    = "%s/%d"
  events = ["live-stream.broadcast.ended"]
  %s
}
`, i, hookURL(env, "tokens"), i, dep)
		}
		return c
	}
	start := time.Now()
	countOnServer := func(n int) statecheck.StateCheck {
		return acctest.StateCheckFunc(func(*tfjson.State) error {
			if got := len(env.Emu.Webhooks()); got != n {
				return fmt.Errorf("%d webhooks on the service, want %d", got, n)
			}
			return nil
		})
	}
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config(6), ConfigStateChecks: []statecheck.StateCheck{countOnServer(6)}},
			{
				PreConfig: func() { time.Sleep(2100 * time.Millisecond) },
				Config:    config(6), PlanOnly: true,
			},
			{Config: config(8), ConfigStateChecks: []statecheck.StateCheck{countOnServer(8)}},
		},
	})
	refreshes := env.RequestCount("POST", "/auth/refresh")
	t.Logf("test spanned %s; %d POST /auth/api-key, %d POST /auth/refresh",
		time.Since(start).Round(100*time.Millisecond), env.RequestCount("POST", "/auth/api-key"), refreshes)
	if refreshes == 0 {
		t.Errorf("no token was refreshed, though applies lasted longer than a token")
	}
}

func TestAccWebhookResourceAmbiguousCreates(t *testing.T) {
	// Half of the creates store the webhook and answer 500. A hundred identical webhooks must
	// end as exactly a hundred on the service and a hundred in the state.
	env := acctest.NewAccEnv(t, emulator.Options{
		MaxWebhooks: 150,
		Limits:      emulator.Limits{Writes: 100000, Reads: 100000},
		Faults:      emulator.Faults{CommitThen500Rate: 0.5},
	})
	env.RequireEmulator(t)
	config := env.ProviderConfig(`auth_scheme = "basic"`) + `
resource "videohost_webhook" "same" {
  count  = 100
  url    = ` + acctest.Hcl(hookURL(env, "same")) + `
  events = ["video.summary.generated", "video.caption.generated"]
}
`
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.StateCheckFunc(func(s *tfjson.State) error {
					onServer := map[string]bool{}
					for _, w := range env.Emu.Webhooks() {
						onServer[w.WebhookID] = true
					}
					var ids []string
					for _, r := range acctest.StateWebhooks(s) {
						ids = append(ids, acctest.AttrString(r, "id"))
					}
					slices.Sort(ids)
					distinct := slices.Compact(slices.Clone(ids))
					if len(onServer) != 100 || len(ids) != 100 || len(distinct) != 100 {
						return fmt.Errorf("%d webhooks on the service, %d in state (%d distinct); want 100 each",
							len(onServer), len(ids), len(distinct))
					}
					for _, id := range ids {
						if !onServer[id] {
							return fmt.Errorf("%s is in the state but not on the service", id)
						}
					}
					t.Logf("100 creates: %d POST /webhooks, %d GET /webhooks", env.RequestCount("POST", "/webhooks"), env.RequestCount("GET", "/webhooks"))
					return nil
				}),
			},
		}},
	})
}

func TestWebhookResourceWithoutClientOrUpdate(t *testing.T) {
	ctx := t.Context()
	r := webhook.NewWebhookResource()

	var uresp fwresource.UpdateResponse
	r.Update(ctx, fwresource.UpdateRequest{}, &uresp)
	if !uresp.Diagnostics.HasError() || uresp.Diagnostics.Errors()[0].Summary() != "Webhooks Cannot Be Updated" {
		t.Errorf("Update must refuse: %v", uresp.Diagnostics)
	}

	// Before the provider is configured (its configuration unknown), writes report it.
	var cresp fwresource.CreateResponse
	r.Create(ctx, fwresource.CreateRequest{}, &cresp)
	var dresp fwresource.DeleteResponse
	r.Delete(ctx, fwresource.DeleteRequest{}, &dresp)
	for _, d := range []diag.Diagnostics{cresp.Diagnostics, dresp.Diagnostics} {
		if !d.HasError() || d.Errors()[0].Summary() != "Provider Not Configured" {
			t.Errorf("want Provider Not Configured, got %v", d)
		}
	}
}

func TestAccWebhookResourceServiceRefusals(t *testing.T) {
	t.Run("webhook limit", func(t *testing.T) {
		env := acctest.NewAccEnv(t, emulator.Options{MaxWebhooks: 1})
		env.RequireEmulator(t)
		acctest.AccTest(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
			Steps: []resource.TestStep{{
				Config: env.ProviderConfig("") + `
resource "videohost_webhook" "two" {
  count  = 2
  url    = "` + hookURL(env, "limit") + `/${count.index}"
  events = ["video.source.recorded"]
}
`,
				ExpectError: regexp.MustCompile(`(?s)Unable to Create Webhook.*Delete a webhook.*limit to be raised.*webhook`),
			}},
		})
	})
	t.Run("rate limit after the last retry", func(t *testing.T) {
		// Every request is answered 429 with a window of 1 s; after one retry the read gives up.
		env := acctest.NewAccEnv(t, emulator.Options{RateWindow: time.Second, Faults: emulator.Faults{Burst429: 1000}})
		env.RequireEmulator(t)
		acctest.AccTest(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
			Steps: []resource.TestStep{{
				Config:      env.ProviderConfig(`max_retries = 1`) + `data "videohost_webhooks" "all" {}`,
				ExpectError: regexp.MustCompile(`(?s)Unable to List Webhooks.*reads rate limit.*re-running is\s+safe`),
			}},
		})
	})
}

// TestWebhookIdentityProtocol drives the identity of videohost_webhook through the provider's
// protocol server, as Terraform 1.12 and later call it, against an in-process emulator.
func TestWebhookIdentityProtocol(t *testing.T) {
	emu, baseURL := acctest.ServeEmulator(t, emulator.Options{}, nil)
	p := acctest.NewProtoServer(t, baseURL, emu.APIKeys()[0], nil)
	w, err := emu.CreateWebhook("https://hooks.example.test/identity", []string{events.VideoSourceRecorded})
	if err != nil {
		t.Fatal(err)
	}

	schema := p.Identity.IdentitySchemas["videohost_webhook"]
	if schema == nil || len(schema.IdentityAttributes) != 1 || schema.IdentityAttributes[0].Name != "id" ||
		!schema.IdentityAttributes[0].RequiredForImport || !schema.IdentityAttributes[0].Type.Is(tftypes.String) {
		t.Fatalf("identity schema of videohost_webhook = %+v, want one required string id", schema)
	}

	t.Run("read of a state without identity sets it", func(t *testing.T) {
		state, identity, diags := p.Read("videohost_webhook", map[string]tftypes.Value{"id": acctest.Str(w.WebhookID)})
		acctest.RequireNoErrors(t, "ReadResource", diags)
		if got := acctest.StringOf(identity["id"]); got != w.WebhookID {
			t.Errorf("identity id = %q, want %q", got, w.WebhookID)
		}
		if got := acctest.StringOf(state["signature_secret"]); got != w.SignatureSecret {
			t.Error("the read state does not hold the webhook's signature secret")
		}
	})

	t.Run("import by identity", func(t *testing.T) {
		state, identity, diags := p.ImportResource("videohost_webhook", "", map[string]tftypes.Value{"id": acctest.Str(w.WebhookID)})
		acctest.RequireNoErrors(t, "ImportResourceState", diags)
		if acctest.StringOf(state["id"]) != w.WebhookID || acctest.StringOf(identity["id"]) != w.WebhookID {
			t.Errorf("imported state id %q and identity id %q, want both %q", acctest.StringOf(state["id"]), acctest.StringOf(identity["id"]), w.WebhookID)
		}
	})

	t.Run("import by id sets the identity too", func(t *testing.T) {
		state, identity, diags := p.ImportResource("videohost_webhook", w.WebhookID, nil)
		acctest.RequireNoErrors(t, "ImportResourceState", diags)
		if acctest.StringOf(state["id"]) != w.WebhookID || acctest.StringOf(identity["id"]) != w.WebhookID {
			t.Errorf("imported state id %q and identity id %q, want both %q", acctest.StringOf(state["id"]), acctest.StringOf(identity["id"]), w.WebhookID)
		}
	})

	t.Run("an identity that could name another endpoint is refused before any request", func(t *testing.T) {
		before := emu.RequestCount("", "/")
		_, _, diags := p.ImportResource("videohost_webhook", "", map[string]tftypes.Value{"id": acctest.Str("../videos")})
		if !acctest.HasError(diags, "Invalid Import ID", `"../videos" holds the path step ".."`) {
			t.Errorf("diagnostics %s, want Invalid Import ID naming the dot-dot step", acctest.DiagText(diags))
		}
		if after := emu.RequestCount("", "/"); after != before {
			t.Errorf("%d requests reached the service for a refused identity", after-before)
		}
	})

	t.Run("a webhook deleted outside Terraform leaves the state without error", func(t *testing.T) {
		gone, err := emu.CreateWebhook("https://hooks.example.test/gone", []string{events.VideoSourceRecorded})
		if err != nil {
			t.Fatal(err)
		}
		if !emu.DeleteWebhook(gone.WebhookID) {
			t.Fatal("the emulator did not delete the webhook")
		}
		state, _, diags := p.Read("videohost_webhook", map[string]tftypes.Value{"id": acctest.Str(gone.WebhookID)})
		acctest.RequireNoErrors(t, "ReadResource", diags)
		if state != nil {
			t.Errorf("state after the webhook was deleted = %v, want it removed", state)
		}
	})
}

// TestAccWebhookIdentity imports a webhook with an import block's identity and checks that the
// plan after it is empty; the identity stored in the state is the webhook's id. Identity needs
// Terraform 1.12; the test is skipped, naming the version found, below it.
func TestAccWebhookIdentity(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	acctest.RequireCLIFeature(t, acctest.FeatureIdentity)
	url := hookURL(env, "identity")
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		Steps: []resource.TestStep{
			{
				Config: acctest.WebhookConfig(env, "", url, events.VideoSourceRecorded),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectIdentity(acctest.TestWebhookAddr, map[string]knownvalue.Check{"id": knownvalue.NotNull()}),
					statecheck.ExpectIdentityValueMatchesState(acctest.TestWebhookAddr, tfjsonpath.New("id")),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				// import { to = videohost_webhook.test, identity = { id = "..." } }: the framework
				// checks that the plan imports and changes nothing.
				ResourceName:    acctest.TestWebhookAddr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithResourceIdentity,
			},
		},
	})
}

// TestAccWebhookGenerateConfig runs what a user runs to adopt an existing webhook:
// terraform plan -generate-config-out with an import block, then validate, apply and plan on
// the generated configuration. The testing framework cannot run these commands on a file it
// did not write, so the test builds the provider, points Terraform at it with dev_overrides in
// its own CLI configuration, and runs the real terraform binary.
func TestAccWebhookGenerateConfig(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	acctest.Parallel(t)
	tfBin := acctest.TerraformCLI(t)
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()

	// Made outside Terraform, through the API with the key; deleted when the test ends.
	adoptURL := hookURL(env, "adopt") + "?team=video"
	w := acctest.CreateWebhookOutside(t, env, adoptURL, events.VideoCaptionGenerated, events.VideoSummaryGenerated)

	cliConfig := acctest.DevOverrideCLI(ctx, t)
	work := t.TempDir()
	acctest.WriteFile(t, filepath.Join(work, "main.tf"), fmt.Sprintf(`terraform {
  required_providers {
    videohost = { source = "videohost/videohost" }
  }
}
%s
import {
  to = videohost_webhook.adopted
  id = %s
}
`, env.ProviderConfig(""), acctest.Hcl(w.ID)))

	run := func(wantCode int, args ...string) string {
		t.Helper()
		cmd := exec.CommandContext(ctx, tfBin, args...)
		cmd.Dir, cmd.Env = work, acctest.TerraformEnv(cliConfig)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("terraform %v: %v", args, err)
		}
		if code != wantCode {
			t.Fatalf("terraform %s exited %d, want %d:\n%s", strings.Join(args, " "), code, wantCode, out.String())
		}
		return out.String()
	}

	run(0, "plan", "-no-color", "-generate-config-out=generated.tf")
	generated, err := os.ReadFile(filepath.Join(work, "generated.tf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`resource "videohost_webhook" "adopted" \{`),
		regexp.MustCompile(`url\s+=\s+` + regexp.QuoteMeta(acctest.Hcl(adoptURL))),
		regexp.MustCompile(`events\s+=\s+\["video.caption.generated", "video.summary.generated"\]`),
	} {
		if !want.Match(generated) {
			t.Errorf("generated.tf does not match %s:\n%s", want, generated)
		}
	}
	if bytes.Contains(generated, []byte(w.SignatureSecret)) {
		t.Error("generated.tf holds the signature secret")
	}

	run(0, "validate", "-no-color")
	out := run(0, "apply", "-no-color", "-auto-approve")
	if !strings.Contains(out, "1 imported, 0 added, 0 changed, 0 destroyed") {
		t.Errorf("apply of the generated configuration did more than import:\n%s", out)
	}
	run(0, "plan", "-no-color", "-detailed-exitcode")
	if env.Emu != nil && len(env.Emu.Webhooks()) != 1 {
		t.Errorf("%d webhooks on the service, want the one adopted", len(env.Emu.Webhooks()))
	}
}

// TestAccWebhookResourceOneListRefresh shows that refreshing N webhooks, and M live streams and
// M player themes, costs about one walk of each kind's list (ceil(N/100) pages) instead of one
// read per object: the resources read through the client's shared lists. In-process N and M
// span pages of the list; against a real endpoint, where a workspace holds few webhooks (20 on
// the emulator's binary) and others share it, they are a few, and the bound is the pages of
// the whole list that the walk reads, others' objects included.
func TestAccWebhookResourceOneListRefresh(t *testing.T) {
	n, m := 250, 120
	env := acctest.NewAccEnv(t, emulator.Options{
		MaxWebhooks: n + 10,
		Limits:      emulator.Limits{Writes: 100000, Reads: 100000},
	})
	if env.Emu == nil {
		n, m = 5, 5
	}
	c := acctest.ServiceClient(t, env)

	// The webhooks exist before Terraform sees them; import blocks bring them in, which is much
	// faster than 250 creates.
	// The state shim of the testing framework handles count indexes but not for_each keys, so
	// the webhooks are a counted resource with one import block each.
	var urls, imports strings.Builder
	for i := range n {
		w := acctest.CreateWebhookOutside(t, env, fmt.Sprintf("%s/%d", hookURL(env, "bulk"), i), events.VideoSourceRecorded)
		fmt.Fprintf(&urls, "    %s,\n", acctest.Hcl(w.URL))
		fmt.Fprintf(&imports, "import {\n  to = videohost_webhook.bulk[%d]\n  id = %s\n}\n", i, acctest.Hcl(w.ID))
	}
	live := seedLiveObjects(t, env, m)
	config := env.ProviderConfig("") + live + `
locals {
  urls = [
` + urls.String() + `  ]
}

resource "videohost_webhook" "bulk" {
  count  = length(local.urls)
  url    = local.urls[count.index]
  events = ["video.source.recorded"]
}
` + imports.String()
	var before int
	// The pages of each kind's whole list when the plan runs (the test's own objects alone
	// in-process), read before the plan is counted.
	bounds := map[string]int{}
	liveKinds, liveBefore := []string{"/live-streams", "/players"}, map[string]int{}
	var start time.Time
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				// One refreshing plan over the webhooks, counted at the service.
				PreConfig: func() {
					ws, err := c.ListWebhooks(t.Context(), "")
					if err != nil {
						t.Fatal(err)
					}
					lss, err := c.ListLiveStreams(t.Context(), videohost.LiveStreamFilter{})
					if err != nil {
						t.Fatal(err)
					}
					pts, err := c.ListPlayerThemes(t.Context(), videohost.PlayerThemeFilter{})
					if err != nil {
						t.Fatal(err)
					}
					bounds["/webhooks"], bounds["/live-streams"], bounds["/players"] = acctest.PagesFor(len(ws))+1, acctest.PagesFor(len(lss))+1, acctest.PagesFor(len(pts))+1
					before = env.RequestCount("GET", "/webhooks")
					for _, k := range liveKinds {
						liveBefore[k] = env.RequestCount("GET", k)
					}
					start = time.Now()
				},
				Config:   config,
				PlanOnly: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{
						acctest.PlanCheckFunc(func(p *tfjson.Plan) error {
							reads, maxReads := env.RequestCount("GET", "/webhooks")-before, bounds["/webhooks"]
							t.Logf("a plan over %d webhooks sent %d GET /webhooks (bound %d; one read per resource would be %d); plan step took %s",
								n, reads, maxReads, n, time.Since(start).Round(100*time.Millisecond))
							if reads > maxReads {
								return fmt.Errorf("a plan over %d webhooks sent %d reads, want at most %d", n, reads, maxReads)
							}
							if reads == 0 {
								return fmt.Errorf("the plan read nothing: the refresh did not reach the service")
							}
							for _, k := range liveKinds {
								got, bound := env.RequestCount("GET", k)-liveBefore[k], bounds[k]
								t.Logf("the plan over %d of %s sent %d reads (bound %d)", m, k, got, bound)
								if got > bound || got == 0 {
									return fmt.Errorf("a plan over %d of %s sent %d reads, want 1 to %d", m, k, got, bound)
								}
							}
							if got := len(p.ResourceChanges); got != n+2*m {
								return fmt.Errorf("plan covers %d resources, want %d", got, n+2*m)
							}
							return nil
						}),
					},
				},
			},
		},
	})
}

// seedLiveObjects creates m live streams and m player themes through the client (faster than
// terraform's creates), each deleted when the test ends if Terraform has not, and returns the
// configuration that imports them.
func seedLiveObjects(t *testing.T, env *acctest.AccEnv, m int) string {
	t.Helper()
	c := acctest.ServiceClient(t, env)
	name := env.Name("bulk")
	var cfg strings.Builder
	cfg.WriteString(`
resource "videohost_live_stream" "bulk" {
  count = ` + fmt.Sprint(m) + `
  name  = "` + name + `-${count.index}"
}

resource "videohost_player_theme" "bulk" {
  count = ` + fmt.Sprint(m) + `
  name  = "` + name + `-${count.index}"
}
`)
	for i := range m {
		ls, err := c.CreateLiveStream(t.Context(), videohost.CreateLiveStreamInput{Name: fmt.Sprintf("%s-%d", name, i)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if err := c.DeleteLiveStream(context.Background(), ls.ID); err != nil && !errors.Is(err, videohost.ErrNotFound) {
				t.Errorf("deleting live stream %s: %v", ls.ID, err)
			}
		})
		th, err := c.CreatePlayerTheme(t.Context(), videohost.PlayerThemeInput{Name: videohost.Value(fmt.Sprintf("%s-%d", name, i))})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if err := c.DeletePlayerTheme(context.Background(), th.ID); err != nil && !errors.Is(err, videohost.ErrNotFound) {
				t.Errorf("deleting player theme %s: %v", th.ID, err)
			}
		})
		fmt.Fprintf(&cfg, "import {\n  to = videohost_live_stream.bulk[%d]\n  id = %s\n}\n", i, acctest.Hcl(ls.ID))
		fmt.Fprintf(&cfg, "import {\n  to = videohost_player_theme.bulk[%d]\n  id = %s\n}\n", i, acctest.Hcl(th.ID))
	}
	return cfg.String()
}
