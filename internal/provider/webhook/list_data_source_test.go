package webhook_test

import (
	"fmt"
	"regexp"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/events"
)

func TestAccWebhooksDataSource(t *testing.T) {
	// 130 webhooks: more than one page of 100, so the data source must follow the next link.
	env := acctest.NewAccEnv(t, emulator.Options{MaxWebhooks: 200})
	env.RequireEmulator(t)
	const n = 130
	secrets := map[string]string{}
	for i := range n {
		evs := []string{events.VideoSourceRecorded}
		if i%2 == 1 {
			evs = []string{events.VideoCaptionGenerated, events.VideoSummaryGenerated}
		}
		w, err := env.Emu.CreateWebhook(fmt.Sprintf("https://hooks.example.test/list/%d", i), evs)
		if err != nil {
			t.Fatal(err)
		}
		secrets[w.WebhookID] = w.SignatureSecret
	}
	config := env.ProviderConfig("") + `
data "videohost_webhooks" "all" {}
data "videohost_webhooks" "recorded" {
  event = "video.source.recorded"
}
data "videohost_webhooks" "summary" {
  event = "video.summary.generated"
}
data "videohost_webhooks" "none" {
  event = "live-stream.broadcast.started"
}
`
	everyListed := acctest.StateCheckFunc(func(s *tfjson.State) error {
		r, err := acctest.StateResource(s, "data.videohost_webhooks.all")
		if err != nil {
			return err
		}
		items, _ := r.AttributeValues["webhooks"].([]any)
		seen := map[string]bool{}
		for _, it := range items {
			m, _ := it.(map[string]any)
			id, _ := m["id"].(string)
			secret, _ := m["signature_secret"].(string)
			if want, ok := secrets[id]; !ok || secret != want {
				return fmt.Errorf("webhook %q: not created by the test, or its secret is not the service's", id)
			}
			seen[id] = true
		}
		if len(seen) != n {
			return fmt.Errorf("%d distinct webhooks listed, want %d", len(seen), n)
		}
		return nil
	})
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		// The plan-time error comes first: the destroy after the test uses the last step's
		// configuration.
		Steps: []resource.TestStep{
			{
				Config:      env.ProviderConfig("") + `data "videohost_webhooks" "bad" { event = "video.uploaded" }`,
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Invalid Attribute Value Match.*video\.source\.recorded`),
			},
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.videohost_webhooks.all", tfjsonpath.New("webhooks"), knownvalue.ListSizeExact(n)),
					statecheck.ExpectKnownValue("data.videohost_webhooks.recorded", tfjsonpath.New("webhooks"), knownvalue.ListSizeExact(n/2)),
					statecheck.ExpectKnownValue("data.videohost_webhooks.summary", tfjsonpath.New("webhooks"), knownvalue.ListSizeExact(n/2)),
					statecheck.ExpectKnownValue("data.videohost_webhooks.none", tfjsonpath.New("webhooks"), knownvalue.ListExact([]knownvalue.Check{})),
					statecheck.ExpectKnownValue("data.videohost_webhooks.summary", tfjsonpath.New("webhooks").AtSliceIndex(0).AtMapKey("events"),
						knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact(events.VideoCaptionGenerated), knownvalue.StringExact(events.VideoSummaryGenerated)})),
					statecheck.ExpectSensitiveValue("data.videohost_webhooks.all", tfjsonpath.New("webhooks").AtSliceIndex(0).AtMapKey("signature_secret")),
					everyListed,
				},
			},
		},
	})
}
