package webhook_test

// Tests of the videohost_webhook_check action.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/events"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

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

func newTestReceiver(t *testing.T, env *acctest.AccEnv, answer func(verified bool) int) *testReceiver {
	t.Helper()
	r := &testReceiver{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		secret := webhookSecret(env, req.Header.Get(videohost.HeaderWebhookID))
		ok := req.Method == http.MethodPost && videohost.Verify(secret, body, req.Header.Get(videohost.HeaderSignature))
		r.mu.Lock()
		r.got = append(r.got, delivery{header: req.Header.Clone(), body: body, verified: ok})
		r.mu.Unlock()
		w.WriteHeader(answer(ok))
	}))
	t.Cleanup(r.Close)
	return r
}

// webhookSecret is the signature secret that the service holds for webhook id: the emulator's
// record in-process, what the API lists against a real endpoint ("" when it has no such webhook).
func webhookSecret(env *acctest.AccEnv, id string) string {
	if env.Emu != nil {
		for _, wh := range env.Emu.Webhooks() {
			if wh.WebhookID == id {
				return wh.SignatureSecret
			}
		}
		return ""
	}
	c, err := videohost.New(videohost.Config{BaseURL: env.BaseURL, APIKey: env.APIKey, AuthScheme: videohost.AuthBasic, Version: "test"})
	if err != nil {
		return ""
	}
	w, err := c.LookupWebhook(context.Background(), id)
	if err != nil {
		return ""
	}
	return w.SignatureSecret
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
func webhookCheckConfig(env *acctest.AccEnv, url string) string {
	return env.ProviderConfig("") + fmt.Sprintf(`
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
`, acctest.Hcl(url), events.LiveStreamBroadcastStarted)
}

// TestAccWebhookCheckAction runs videohost_webhook_check after each create of a webhook
// (action_trigger): against a receiver that verifies signatures it passes, having sent one
// signed delivery it accepted and one forged one it refused, in the form of the service's own
// deliveries; against a receiver that accepts anything it fails (the forged delivery was
// accepted); against one that answers 500 it fails (the signed delivery was refused).
func TestAccWebhookCheckAction(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	acctest.RequireCLIFeature(t, acctest.FeatureActions)
	good := newTestReceiver(t, env, verifying)
	careless := newTestReceiver(t, env, func(bool) int { return http.StatusOK })
	broken := newTestReceiver(t, env, func(bool) int { return http.StatusInternalServerError })

	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: webhookCheckConfig(env, good.URL+"/"+env.Name("good")),
				Check: func(*terraform.State) error {
					return checkSampleDeliveries(t, env, good)
				},
			},
			{
				Config:      webhookCheckConfig(env, careless.URL+"/"+env.Name("careless")),
				ExpectError: regexp.MustCompile(`(?s)Webhook Receiver Accepted a Forged Delivery.*answered\s+200`),
			},
			{
				Config:      webhookCheckConfig(env, broken.URL+"/"+env.Name("broken")),
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
func checkSampleDeliveries(t *testing.T, env *acctest.AccEnv, r *testReceiver) error {
	got := r.deliveries()
	if len(got) != 2 {
		return fmt.Errorf("the receiver got %d deliveries, want 2 (signed, forged)", len(got))
	}
	if !got[0].verified || got[1].verified || string(got[0].body) != string(got[1].body) {
		return fmt.Errorf("deliveries: verified %v then %v, same body %v; want a verified one, then the same body unverified",
			got[0].verified, got[1].verified, string(got[0].body) == string(got[1].body))
	}
	// A real event from the emulator, to compare the forms. A real endpoint sends one only when
	// a live stream really broadcasts, which a test cannot do.
	if env.Emu == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ls, err := acctest.ServiceClient(t, env).CreateLiveStream(ctx, videohost.CreateLiveStreamInput{Name: env.Name("form-check")})
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

// TestAccActionsInvoked runs both actions alone, with terraform apply -invoke, and reads what
// Terraform prints: the progress messages say what was sent and what came back. In-process the
// live stream broadcasts when its action is invoked (the emulator's control API starts it);
// against a real endpoint, where no encoder sends, it is idle, and the action says the same. An
// action on a live stream that does not exist fails with a message on live_stream_id.
func TestAccActionsInvoked(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	acctest.RequireCLIFeature(t, acctest.FeatureActions)
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	good := newTestReceiver(t, env, verifying)
	hook := good.URL + "/" + env.Name("hook")
	cli := acctest.NewCLIWorkdir(ctx, t, "1.14.0")
	config := func(liveStreamID string) string {
		return `terraform {
  required_providers {
    videohost = { source = "videohost/videohost" }
  }
}
` + env.ProviderConfig("") + fmt.Sprintf(`
resource "videohost_webhook" "hook" {
  url    = %s
  events = [%q, %q]
}

resource "videohost_live_stream" "studio" {
  name = %s
}

action "videohost_webhook_check" "hook" {
  config {
    webhook_id = videohost_webhook.hook.id
    event      = %q
  }
}

action "videohost_live_stream_complete" "studio" {
  config {
    live_stream_id = %s
  }
}
`, acctest.Hcl(hook), events.VideoEncodingQualityCompleted, events.LiveStreamBroadcastEnded, acctest.Hcl(env.Name("studio")),
			events.LiveStreamBroadcastEnded, liveStreamID)
	}
	cli.Write("main.tf", config("videohost_live_stream.studio.id"))
	cli.Run("apply", "-no-color", "-auto-approve")
	deleteWhenDone(t, env, cli.State())
	if n := len(good.deliveries()); n != 0 {
		t.Fatalf("the receiver got %d deliveries before the action was invoked", n)
	}

	out := cli.Run("apply", "-no-color", "-auto-approve", "-invoke=action.videohost_webhook_check.hook")
	for _, want := range []*regexp.Regexp{
		acctest.WrappedPhrases("Sending a sample "+events.LiveStreamBroadcastEnded+" event", "signed with the webhook's secret, to "+hook),
		acctest.WrappedPhrases("answered the signed delivery with 204"),
		acctest.WrappedPhrases("Sending the same event with a wrong signature"),
		acctest.WrappedPhrases("refused the forged delivery with 401"),
	} {
		if !want.MatchString(out) {
			t.Errorf("the output of -invoke does not say %s:\n%s", want, out)
		}
	}
	got := good.deliveries()
	if len(got) != 2 || !got[0].verified || got[1].verified || !strings.Contains(string(got[0].body), events.LiveStreamBroadcastEnded) {
		t.Errorf("the receiver got %d deliveries; want a verified %s, then a forged one", len(got), events.LiveStreamBroadcastEnded)
	}

	state := cli.State()
	r, err := acctest.StateResource(state, "videohost_live_stream.studio")
	if err != nil {
		t.Fatal(err)
	}
	id := acctest.AttrString(r, "id")
	if env.Emu != nil {
		if err := env.Emu.SetBroadcasting(id, true); err != nil {
			t.Fatal(err)
		}
	}
	out = cli.Run("apply", "-no-color", "-auto-approve", "-invoke=action.videohost_live_stream_complete.studio")
	if want := acctest.WrappedPhrases("Asking the service to end the broadcast of live stream "+id, "no longer broadcasts"); !want.MatchString(out) {
		t.Errorf("the output of -invoke does not say %s:\n%s", want, out)
	}
	if ls, err := acctest.ServiceClient(t, env).GetLiveStream(ctx, id); err != nil || ls.Broadcasting {
		t.Errorf("after the action the live stream broadcasts: %+v, %v", ls, err)
	}

	cli.Write("main.tf", config(acctest.Hcl("li0000000000000000000000")))
	out = cli.RunFailing("apply", "-no-color", "-auto-approve", "-invoke=action.videohost_live_stream_complete.studio")
	if want := acctest.WrappedPhrases("Live Stream Not Found", "The service has no live stream li0000000000000000000000", "check live_stream_id"); !want.MatchString(out) {
		t.Errorf("an unknown live stream is not refused on live_stream_id (want %s):\n%s", want, out)
	}
}

// deleteWhenDone deletes, when the test ends, the webhooks and live streams of a working
// directory's state that terraform has not destroyed: the test's own run of terraform leaves
// them, and a run against a real endpoint must leave nothing behind.
func deleteWhenDone(t *testing.T, env *acctest.AccEnv, state *tfjson.State) {
	t.Helper()
	c := acctest.ServiceClient(t, env)
	for _, r := range acctest.StateResourcesOf(state, "videohost_webhook") {
		id := acctest.AttrString(r, "id")
		t.Cleanup(func() {
			if err := c.DeleteWebhook(context.Background(), id); err != nil && !errors.Is(err, videohost.ErrNotFound) {
				t.Errorf("deleting webhook %s: %v", id, err)
			}
		})
	}
	for _, r := range acctest.StateResourcesOf(state, "videohost_live_stream") {
		id := acctest.AttrString(r, "id")
		t.Cleanup(func() {
			if err := c.DeleteLiveStream(context.Background(), id); err != nil && !errors.Is(err, videohost.ErrNotFound) {
				t.Errorf("deleting live stream %s: %v", id, err)
			}
		})
	}
}

// The actions over the protocol, as Terraform 1.14 calls them, so that these run in every go
// test whatever CLI is on PATH (the acceptance tests of the actions need Terraform 1.14).

// TestWebhookCheckRefusals: an event the webhook does not subscribe to is refused on event, and
// an unknown webhook on webhook_id, before anything is sent to a receiver.
func TestWebhookCheckRefusals(t *testing.T) {
	emu, baseURL := acctest.ServeEmulator(t, emulator.Options{}, nil)
	key := emu.APIKeys()[0]
	c, err := videohost.New(videohost.Config{BaseURL: baseURL, APIKey: key, AuthScheme: videohost.AuthBasic, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	var received atomic.Int32
	receiver := newCountingServer(t, &received)
	w, err := c.CreateWebhook(t.Context(), videohost.CreateWebhookInput{URL: receiver, Events: []string{events.VideoSourceRecorded}})
	if err != nil {
		t.Fatal(err)
	}
	p := acctest.NewProtoServer(t, baseURL, key, map[string]tftypes.Value{"auth_scheme": acctest.Str("basic")})

	_, diags := p.Invoke("videohost_webhook_check", map[string]tftypes.Value{"webhook_id": acctest.Str(w.ID), "event": acctest.Str(events.VideoSummaryGenerated)})
	if text := acctest.ErrorText(diags); !strings.Contains(text, "Event Not Subscribed") || !strings.Contains(text, events.VideoSourceRecorded) {
		t.Errorf("an event not subscribed: %q", text)
	}
	if len(diags) == 0 || diags[0].Attribute == nil || !diags[0].Attribute.Equal(tftypes.NewAttributePath().WithAttributeName("event")) {
		t.Errorf("the refusal is not on event: %+v", diags)
	}
	_, diags = p.Invoke("videohost_webhook_check", map[string]tftypes.Value{"webhook_id": acctest.Str("webhook_doesnotexist00000")})
	if acctest.ErrorText(diags) == "" {
		t.Error("a check of an unknown webhook succeeded")
	}
	if n := received.Load(); n != 0 {
		t.Errorf("the receiver got %d deliveries from refused checks", n)
	}
}

// newCountingServer is a receiver that counts what it gets and answers 204; it returns its address.
func newCountingServer(t *testing.T, n *atomic.Int32) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		n.Add(1)
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}
