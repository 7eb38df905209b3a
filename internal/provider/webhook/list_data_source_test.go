package webhook_test

import (
	"fmt"
	"regexp"
	"slices"
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

// TestAccWebhooksDataSource lists webhooks, every one and by event. In-process the account
// holds the test's 130 webhooks alone, more than one page of 100, so the data source must follow
// the next link, and each list is exactly what the test made. Against a real endpoint, where a
// workspace holds few webhooks (20 on the emulator's binary) and others share it, the test
// makes four and looks for its own among the others: each list holds those of its own that it
// should and none that it should not, and what it holds has the event asked for.
func TestAccWebhooksDataSource(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{MaxWebhooks: 200})
	n := 130
	if env.Emu == nil {
		n = 4
	}
	// The test's webhooks: the even ones subscribe to video.source.recorded, the odd ones to
	// video.caption.generated and video.summary.generated.
	secrets, evsOf := map[string]string{}, map[string][]string{}
	for i := range n {
		evs := []string{events.VideoSourceRecorded}
		if i%2 == 1 {
			evs = []string{events.VideoCaptionGenerated, events.VideoSummaryGenerated}
		}
		url := fmt.Sprintf("%s/%d", hookURL(env, "list"), i)
		var id, secret string
		if env.Emu != nil {
			// Through the emulator, much faster than 130 creates through the API.
			w, err := env.Emu.CreateWebhook(url, evs)
			if err != nil {
				t.Fatal(err)
			}
			id, secret = w.WebhookID, w.SignatureSecret
		} else {
			w := acctest.CreateWebhookOutside(t, env, url, evs...)
			id, secret = w.ID, w.SignatureSecret
		}
		secrets[id], evsOf[id] = secret, evs
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
	// listed checks the data source at address filtered by event ("" for none): it holds each
	// of the test's webhooks that has the event, with the service's secret and events, once, and
	// no other of the test's; every item has the event; in-process it holds nothing else.
	listed := func(address, event string) statecheck.StateCheck {
		return acctest.StateCheckFunc(func(s *tfjson.State) error {
			r, err := acctest.StateResource(s, address)
			if err != nil {
				return err
			}
			items, _ := r.AttributeValues["webhooks"].([]any)
			seen := map[string]bool{}
			for _, it := range items {
				m, _ := it.(map[string]any)
				id, _ := m["id"].(string)
				var evs []string
				raw, _ := m["events"].([]any)
				for _, e := range raw {
					evs = append(evs, fmt.Sprint(e))
				}
				if event != "" && !slices.Contains(evs, event) {
					return fmt.Errorf("%s lists webhook %s, whose events %v lack %s", address, id, evs, event)
				}
				want, ok := evsOf[id]
				if !ok {
					if env.Emu != nil {
						return fmt.Errorf("%s lists webhook %s, which the test did not make", address, id)
					}
					continue
				}
				if secret, _ := m["signature_secret"].(string); secret != secrets[id] {
					return fmt.Errorf("%s: the secret of webhook %s is not the service's", address, id)
				}
				if !slices.Equal(sorted(evs), sorted(want)) {
					return fmt.Errorf("%s: webhook %s has the events %v, want %v", address, id, evs, want)
				}
				if seen[id] {
					return fmt.Errorf("%s lists webhook %s twice", address, id)
				}
				seen[id] = true
			}
			for id, evs := range evsOf {
				if should := event == "" || slices.Contains(evs, event); should != seen[id] {
					return fmt.Errorf("%s: the test's webhook %s (%v) listed %v, want %v", address, id, evs, seen[id], should)
				}
			}
			return nil
		})
	}
	checks := []statecheck.StateCheck{
		listed("data.videohost_webhooks.all", ""),
		listed("data.videohost_webhooks.recorded", events.VideoSourceRecorded),
		listed("data.videohost_webhooks.summary", events.VideoSummaryGenerated),
		listed("data.videohost_webhooks.none", events.LiveStreamBroadcastStarted),
		statecheck.ExpectSensitiveValue("data.videohost_webhooks.all", tfjsonpath.New("webhooks").AtSliceIndex(0).AtMapKey("signature_secret")),
	}
	if env.Emu != nil {
		checks = append(checks,
			statecheck.ExpectKnownValue("data.videohost_webhooks.all", tfjsonpath.New("webhooks"), knownvalue.ListSizeExact(n)),
			statecheck.ExpectKnownValue("data.videohost_webhooks.recorded", tfjsonpath.New("webhooks"), knownvalue.ListSizeExact(n/2)),
			statecheck.ExpectKnownValue("data.videohost_webhooks.summary", tfjsonpath.New("webhooks"), knownvalue.ListSizeExact(n/2)),
			statecheck.ExpectKnownValue("data.videohost_webhooks.none", tfjsonpath.New("webhooks"), knownvalue.ListExact([]knownvalue.Check{})),
		)
	}
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
				Config:            config,
				ConfigStateChecks: checks,
			},
		},
	})
}
