package provider

import (
	"fmt"
	"regexp"
	"slices"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/events"
)

func TestAccWebhookResource(t *testing.T) {
	env := newAccEnv(t, emulator.Options{})
	url1, url2 := "https://hooks.example.test/one", "https://hooks.example.test/two"
	var id string
	captureID := stateCheckFunc(func(s *tfjson.State) error {
		r, err := stateResource(s, testWebhookAddr)
		if err == nil {
			id = attrString(r, "id")
		}
		return err
	})
	ids := statecheck.CompareValue(compare.ValuesDiffer())

	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: webhookConfig(env, "", url1, events.VideoSourceRecorded, events.VideoCaptionGenerated),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testWebhookAddr, plancheck.ResourceActionCreate),
						plancheck.ExpectUnknownValue(testWebhookAddr, tfjsonpath.New("signature_secret")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testWebhookAddr, tfjsonpath.New("id"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(testWebhookAddr, tfjsonpath.New("url"), knownvalue.StringExact(url1)),
					statecheck.ExpectKnownValue(testWebhookAddr, tfjsonpath.New("events"), knownvalue.SetExact([]knownvalue.Check{
						knownvalue.StringExact(events.VideoCaptionGenerated), knownvalue.StringExact(events.VideoSourceRecorded),
					})),
					statecheck.ExpectKnownValue(testWebhookAddr, tfjsonpath.New("created_at"), knownvalue.StringRegexp(
						regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`))),
					statecheck.ExpectKnownValue(testWebhookAddr, tfjsonpath.New("signature_secret"), knownvalue.StringRegexp(regexp.MustCompile(`.{8,}`))),
					statecheck.ExpectSensitiveValue(testWebhookAddr, tfjsonpath.New("signature_secret")),
					matchesEmulator(env),
					ids.AddStateValue(testWebhookAddr, tfjsonpath.New("id")),
				},
			},
			{
				// terraform import videohost_webhook.test <id>
				ResourceName:      testWebhookAddr,
				ImportState:       true,
				ImportStateVerify: true,
			},
			{
				// An import {} block: the framework checks that the plan is a no-op import.
				ResourceName:    testWebhookAddr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithID,
			},
			{
				Config: webhookConfig(env, "", url2, events.VideoSourceRecorded, events.VideoCaptionGenerated),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testWebhookAddr, plancheck.ResourceActionDestroyBeforeCreate),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testWebhookAddr, tfjsonpath.New("url"), knownvalue.StringExact(url2)),
					matchesEmulator(env),
					ids.AddStateValue(testWebhookAddr, tfjsonpath.New("id")),
				},
			},
			{
				Config: webhookConfig(env, "", url2, events.LiveStreamBroadcastStarted),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testWebhookAddr, plancheck.ResourceActionDestroyBeforeCreate),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testWebhookAddr, tfjsonpath.New("events"), knownvalue.SetExact([]knownvalue.Check{
						knownvalue.StringExact(events.LiveStreamBroadcastStarted),
					})),
					matchesEmulator(env),
					ids.AddStateValue(testWebhookAddr, tfjsonpath.New("id")),
					captureID,
				},
			},
			{
				// Drift: the webhook is deleted outside Terraform; the plan re-creates it. The
				// framework calls PreConfig before SkipFunc, so PreConfig checks too.
				SkipFunc: func() (bool, error) { return env.Emu == nil, nil },
				PreConfig: func() {
					if env.Emu != nil && !env.Emu.DeleteWebhook(id) {
						t.Errorf("webhook %s was not on the emulator", id)
					}
				},
				Config: webhookConfig(env, "", url2, events.LiveStreamBroadcastStarted),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testWebhookAddr, plancheck.ResourceActionCreate),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					matchesEmulator(env),
					ids.AddStateValue(testWebhookAddr, tfjsonpath.New("id")),
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
	env := newAccEnv(t, emulator.Options{})
	env.requireEmulator(t)
	url := "https://hooks.example.test/drift"
	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: webhookConfig(env, "", url, events.VideoSummaryGenerated)},
			{
				PreConfig: func() {
					for _, w := range env.Emu.Webhooks() {
						env.Emu.DeleteWebhook(w.WebhookID)
					}
				},
				Config:             webhookConfig(env, "", url, events.VideoSummaryGenerated),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
		},
	})
}

func TestAccWebhookResourcePlanTimeErrors(t *testing.T) {
	env := newAccEnv(t, emulator.Options{})
	step := func(url string, evs []string, want string) resource.TestStep {
		return resource.TestStep{
			Config:      webhookConfig(env, "", url, evs...),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(want),
		}
	}
	ok := []string{events.VideoSourceRecorded}
	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			step("https://hooks.example.test/x", []string{"video.encoding.completed"}, `(?s)value must be one of.*video\.encoding\.quality\.completed`),
			step("https://hooks.example.test/x", []string{}, `(?s)events.*at least 1`),
			step("ftp://hooks.example.test/x", ok, `(?s)Invalid URL.*not http or https`),
			step("hooks.example.test/x", ok, `(?s)Invalid URL`),
			step("https:///nohost", ok, `(?s)Invalid URL.*no host`),
		},
	})
	if env.Emu != nil {
		if n := env.Emu.RequestCount("", "/"); n != 0 {
			t.Errorf("plan-time errors sent %d requests to the service", n)
		}
	}
}

func TestAccWebhookResourceBasicAuth(t *testing.T) {
	env := newAccEnv(t, emulator.Options{})
	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: webhookConfig(env, `auth_scheme = "basic"`, "https://hooks.example.test/basic", events.VideoSourceRecorded),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(testWebhookAddr, tfjsonpath.New("signature_secret"), knownvalue.NotNull()),
				matchesEmulator(env),
				stateCheckFunc(func(*tfjson.State) error {
					if env.Emu != nil {
						if n := env.Emu.RequestCount("", "/auth/"); n != 0 {
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
	env := newAccEnv(t, emulator.Options{})
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
`, hcl(env.BaseURL), hcl(scheme), hcl(events.VideoSourceRecorded))
			accTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
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
	env := newAccEnv(t, emulator.Options{
		MaxWebhooks: 20,
		RateWindow:  2 * time.Second,
		Limits:      emulator.Limits{Writes: 5, Reads: 10},
	})
	env.requireEmulator(t)
	config := env.providerConfig("") + `
resource "videohost_webhook" "many" {
  count  = 15
  url    = "https://hooks.example.test/many/${count.index}"
  events = ["video.source.recorded"]
}
`
	start := time.Now()
	defer func() {
		t.Logf("%s for apply, checks and destroy: %d POST, %d GET, %d DELETE /webhooks", time.Since(start).Round(100*time.Millisecond),
			env.Emu.RequestCount("POST", "/webhooks"), env.Emu.RequestCount("GET", "/webhooks"), env.Emu.RequestCount("DELETE", "/webhooks"))
	}()
	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				stateCheckFunc(func(s *tfjson.State) error {
					t.Logf("applied after %s", time.Since(start).Round(100*time.Millisecond))
					got := stateWebhooks(s)
					if len(got) != 15 || len(env.Emu.Webhooks()) != 15 {
						return fmt.Errorf("%d webhooks in state and %d on the service, want 15", len(got), len(env.Emu.Webhooks()))
					}
					for _, r := range got {
						if attrString(r, "signature_secret") == "" {
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
	env := newAccEnv(t, emulator.Options{
		MaxWebhooks: 20,
		TokenTTL:    2 * time.Second,
		Faults:      emulator.Faults{Latency: 250 * time.Millisecond},
	})
	env.requireEmulator(t)
	config := func(n int) string {
		c := env.providerConfig("")
		for i := range n {
			dep := ""
			if i > 0 {
				dep = fmt.Sprintf("depends_on = [videohost_webhook.t%d]", i-1)
			}
			c += fmt.Sprintf(`
resource "videohost_webhook" "t%d" {
  url    = "https://hooks.example.test/tokens/%d"
  events = ["live-stream.broadcast.ended"]
  %s
}
`, i, i, dep)
		}
		return c
	}
	start := time.Now()
	countOnServer := func(n int) statecheck.StateCheck {
		return stateCheckFunc(func(*tfjson.State) error {
			if got := len(env.Emu.Webhooks()); got != n {
				return fmt.Errorf("%d webhooks on the service, want %d", got, n)
			}
			return nil
		})
	}
	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config(6), ConfigStateChecks: []statecheck.StateCheck{countOnServer(6)}},
			{
				PreConfig: func() { time.Sleep(2100 * time.Millisecond) },
				Config:    config(6), PlanOnly: true,
			},
			{Config: config(8), ConfigStateChecks: []statecheck.StateCheck{countOnServer(8)}},
		},
	})
	refreshes := env.Emu.RequestCount("POST", "/auth/refresh")
	t.Logf("test spanned %s; %d POST /auth/api-key, %d POST /auth/refresh",
		time.Since(start).Round(100*time.Millisecond), env.Emu.RequestCount("POST", "/auth/api-key"), refreshes)
	if refreshes == 0 {
		t.Errorf("no token was refreshed, though applies lasted longer than a token")
	}
}

func TestAccWebhookResourceAmbiguousCreates(t *testing.T) {
	// Half of the creates store the webhook and answer 500. A hundred identical webhooks must
	// end as exactly a hundred on the service and a hundred in the state.
	env := newAccEnv(t, emulator.Options{
		MaxWebhooks: 150,
		Limits:      emulator.Limits{Writes: 100000, Reads: 100000},
		Faults:      emulator.Faults{CommitThen500Rate: 0.5},
	})
	env.requireEmulator(t)
	config := env.providerConfig(`auth_scheme = "basic"`) + `
resource "videohost_webhook" "same" {
  count  = 100
  url    = "https://hooks.example.test/same"
  events = ["video.summary.generated", "video.caption.generated"]
}
`
	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				stateCheckFunc(func(s *tfjson.State) error {
					onServer := map[string]bool{}
					for _, w := range env.Emu.Webhooks() {
						onServer[w.WebhookID] = true
					}
					var ids []string
					for _, r := range stateWebhooks(s) {
						ids = append(ids, attrString(r, "id"))
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
					t.Logf("100 creates: %d POST /webhooks, %d GET /webhooks", env.Emu.RequestCount("POST", "/webhooks"), env.Emu.RequestCount("GET", "/webhooks"))
					return nil
				}),
			},
		}},
	})
}

func TestWebhookResourceWithoutClientOrUpdate(t *testing.T) {
	ctx := t.Context()
	r := NewWebhookResource()

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
		env := newAccEnv(t, emulator.Options{MaxWebhooks: 1})
		env.requireEmulator(t)
		accTest(t, resource.TestCase{
			ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
			Steps: []resource.TestStep{{
				Config: env.providerConfig("") + `
resource "videohost_webhook" "two" {
  count  = 2
  url    = "https://hooks.example.test/limit/${count.index}"
  events = ["video.source.recorded"]
}
`,
				ExpectError: regexp.MustCompile(`(?s)Unable to Create Webhook.*Delete a webhook.*limit to be raised.*webhook`),
			}},
		})
	})
	t.Run("rate limit after the last retry", func(t *testing.T) {
		// Every request is answered 429 with a window of 1 s; after one retry the read gives up.
		env := newAccEnv(t, emulator.Options{RateWindow: time.Second, Faults: emulator.Faults{Burst429: 1000}})
		env.requireEmulator(t)
		accTest(t, resource.TestCase{
			ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
			Steps: []resource.TestStep{{
				Config:      env.providerConfig(`max_retries = 1`) + `data "videohost_webhooks" "all" {}`,
				ExpectError: regexp.MustCompile(`(?s)Unable to List Webhooks.*reads rate limit.*re-running is\s+safe`),
			}},
		})
	})
}
