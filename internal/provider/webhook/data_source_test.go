package webhook_test

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/events"
)

func TestAccWebhookDataSource(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	config := acctest.WebhookConfig(env, "", hookURL(env, "ds"), events.VideoEncodingQualityCompleted, events.VideoSourceRecorded) + `
data "videohost_webhook" "test" {
  id = videohost_webhook.test.id
}
`
	const ds = "data.videohost_webhook.test"
	same := func(attr string) statecheck.StateCheck {
		return statecheck.CompareValuePairs(acctest.TestWebhookAddr, tfjsonpath.New(attr), ds, tfjsonpath.New(attr), compare.ValuesSame())
	}
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				same("id"), same("url"), same("events"), same("created_at"), same("signature_secret"),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("signature_secret"), knownvalue.StringRegexp(regexp.MustCompile(`.{8,}`))),
				statecheck.ExpectSensitiveValue(ds, tfjsonpath.New("signature_secret")),
			},
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
		}},
	})
}

func TestAccWebhookDataSourceCreatedOutsideTerraform(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	w := acctest.CreateWebhookOutside(t, env, hookURL(env, "outside"), events.LiveStreamBroadcastStarted)
	const ds = "data.videohost_webhook.outside"
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: env.ProviderConfig("") + `data "videohost_webhook" "outside" { id = ` + acctest.Hcl(w.ID) + ` }`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("url"), knownvalue.StringExact(w.URL)),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("events"), knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact(events.LiveStreamBroadcastStarted)})),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("signature_secret"), knownvalue.StringExact(w.SignatureSecret)),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("created_at"), knownvalue.StringExact(w.CreatedAt.UTC().Format("2006-01-02T15:04:05Z07:00"))),
				},
			},
			{
				Config:      env.ProviderConfig("") + `data "videohost_webhook" "missing" { id = "webhook_doesnotexist" }`,
				ExpectError: regexp.MustCompile(`(?s)Unable to Read Webhook.*no such object`),
			},
		},
	})
}
