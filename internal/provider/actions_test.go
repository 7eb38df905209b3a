package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/events"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// requireActions skips a test of actions on a CLI that does not run them: OpenTofu, and
// Terraform before 1.14, saying which CLI it found.
func requireActions(t *testing.T) {
	t.Helper()
	line, err := cliVersionLine()
	if err != nil {
		t.Fatalf("finding out which CLI runs the tests: %v", err)
	}
	if cliIsOpenTofu(t) {
		t.Skipf("%s does not run actions (Terraform 1.14 and later do): the actions are not tested with this CLI", line)
	}
	var v string
	if _, err := fmt.Sscanf(line, "Terraform v%s", &v); err != nil || !versionAtLeast(v, "1.14.0") {
		t.Skipf("%s does not run actions (Terraform 1.14 and later do): the actions are not tested with this CLI", line)
	}
}

// delivery is one request a test receiver got.
type delivery struct {
	header   http.Header
	body     []byte
	verified bool
}

// testReceiver is a webhook receiver: it verifies each delivery's signature with the secret the
// emulator holds for the webhook the delivery names, and answers with answer(verified). It
// records every delivery.
type testReceiver struct {
	*httptest.Server
	mu  sync.Mutex
	got []delivery
}

func newTestReceiver(t *testing.T, env *accEnv, answer func(verified bool) int) *testReceiver {
	t.Helper()
	r := &testReceiver{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		secret := ""
		for _, wh := range env.Emu.Webhooks() {
			if wh.WebhookID == req.Header.Get(videohost.HeaderWebhookID) {
				secret = wh.SignatureSecret
			}
		}
		ok := req.Method == http.MethodPost && videohost.Verify(secret, body, req.Header.Get(videohost.HeaderSignature))
		r.mu.Lock()
		r.got = append(r.got, delivery{header: req.Header.Clone(), body: body, verified: ok})
		r.mu.Unlock()
		w.WriteHeader(answer(ok))
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *testReceiver) deliveries() []delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.got)
}

// verifying answers 204 to a delivery whose signature holds and 401 to any other, as a
// receiver should.
func verifying(ok bool) int {
	if ok {
		return http.StatusNoContent
	}
	return http.StatusUnauthorized
}

// webhookCheckConfig is a webhook at url whose creation runs the check.
func webhookCheckConfig(env *accEnv, url string) string {
	return env.providerConfig("") + fmt.Sprintf(`
action "videohost_webhook_check" "hook" {
  config {
    webhook_id = videohost_webhook.hook.id
  }
}

resource "videohost_webhook" "hook" {
  url    = %s
  events = [%q]

  lifecycle {
    action_trigger {
      events  = [after_create, after_update]
      actions = [action.videohost_webhook_check.hook]
    }
  }
}
`, hcl(url), events.LiveStreamBroadcastStarted)
}

// TestAccWebhookCheckAction runs videohost_webhook_check after each create of a webhook
// (action_trigger): against a receiver that verifies signatures it passes, having sent one
// signed delivery it accepted and one forged one it refused, in the form of the service's own
// deliveries; against a receiver that accepts anything it fails (the forged delivery was
// accepted); against one that answers 500 it fails (the signed delivery was refused).
func TestAccWebhookCheckAction(t *testing.T) {
	env := newAccEnv(t, emulator.Options{})
	env.requireEmulator(t)
	requireActions(t)
	good := newTestReceiver(t, env, verifying)
	careless := newTestReceiver(t, env, func(bool) int { return http.StatusOK })
	broken := newTestReceiver(t, env, func(bool) int { return http.StatusInternalServerError })

	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: webhookCheckConfig(env, good.URL+"/hooks"),
				Check: func(*terraform.State) error {
					return checkSampleDeliveries(t, env, good)
				},
			},
			{
				Config:      webhookCheckConfig(env, careless.URL+"/hooks"),
				ExpectError: regexp.MustCompile(`(?s)Webhook Receiver Accepted a Forged Delivery.*answered\s+200`),
			},
			{
				Config:      webhookCheckConfig(env, broken.URL+"/hooks"),
				ExpectError: regexp.MustCompile(`(?s)Webhook Receiver Refused a Signed Delivery.*answered\s+500`),
			},
		},
	})
	if n := len(careless.deliveries()); n != 2 {
		t.Errorf("the receiver that accepts anything got %d deliveries, want the signed one and the forged one", n)
	}
	if n := len(broken.deliveries()); n != 1 {
		t.Errorf("the receiver that answers 500 got %d deliveries, want the signed one alone (the check stops there)", n)
	}
}

// checkSampleDeliveries checks what the verifying receiver got from the check: a signed delivery
// that verified, then the same body with a signature that did not, both in the form of the
// emulator's own deliveries, which it then sends for a real event to compare.
func checkSampleDeliveries(t *testing.T, env *accEnv, r *testReceiver) error {
	got := r.deliveries()
	if len(got) != 2 {
		return fmt.Errorf("the receiver got %d deliveries, want 2 (signed, forged)", len(got))
	}
	if !got[0].verified || got[1].verified || string(got[0].body) != string(got[1].body) {
		return fmt.Errorf("deliveries: verified %v then %v, same body %v; want a verified one, then the same body unverified",
			got[0].verified, got[1].verified, string(got[0].body) == string(got[1].body))
	}
	// A real event from the emulator, to compare the forms.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ls, err := serviceClient(t, env).CreateLiveStream(ctx, videohost.CreateLiveStreamInput{Name: "form check"})
	if err != nil {
		return err
	}
	if err := env.Emu.SetBroadcasting(ls.ID, true); err != nil {
		return err
	}
	if err := env.Emu.WaitDeliveries(ctx); err != nil {
		return err
	}
	all := r.deliveries()
	if len(all) != 3 || !all[2].verified {
		return fmt.Errorf("the emulator's delivery did not reach the receiver verified (%d deliveries)", len(all))
	}
	real, sample := all[2], got[0]
	for _, h := range []string{"Content-Type", videohost.HeaderWebhookID} {
		if sample.header.Get(h) != real.header.Get(h) {
			return fmt.Errorf("header %s: sample %q, the service's %q", h, sample.header.Get(h), real.header.Get(h))
		}
	}
	var realBody, sampleBody map[string]string
	if err := json.Unmarshal(real.body, &realBody); err != nil {
		return fmt.Errorf("the service's delivery: %v", err)
	}
	if err := json.Unmarshal(sample.body, &sampleBody); err != nil {
		return fmt.Errorf("the sample delivery is not a JSON object of strings like the service's: %v", err)
	}
	if !slices.Equal(slices.Sorted(maps.Keys(realBody)), slices.Sorted(maps.Keys(sampleBody))) || realBody["type"] != sampleBody["type"] {
		return fmt.Errorf("sample body %s, the service's %s: not the same members", sample.body, real.body)
	}
	if len(sampleBody["emittedAt"]) != len(realBody["emittedAt"]) || !strings.HasSuffix(sampleBody["emittedAt"], "+00:00") {
		return fmt.Errorf("emittedAt %q, the service writes %q", sampleBody["emittedAt"], realBody["emittedAt"])
	}
	return nil
}
