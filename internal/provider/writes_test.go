package provider

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/events"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// writesEnv is an emulator, slowed in one phase by a slowService, and a client of it, without
// Terraform: the shared create and delete machinery is called as the webhook resource calls it,
// with a context that the test cancels as Terraform does on Ctrl-C.
func writesEnv(t *testing.T, opts emulator.Options, slow func(http.Handler) *slowService) (*emulator.Emulator, *providerData, *slowService) {
	t.Helper()
	var ss *slowService
	emu, baseURL := serveEmulator(t, opts, func(emu *emulator.Emulator) http.Handler {
		if slow == nil {
			return emu
		}
		ss = slow(emu)
		return ss
	})
	client, err := videohost.New(videohost.Config{BaseURL: baseURL, APIKey: emu.APIKeys()[0], AuthScheme: videohost.AuthBasic})
	if err != nil {
		t.Fatal(err)
	}
	return emu, &providerData{client: client, environment: client.Environment(), baseURL: client.BaseURL()}, ss
}

var interruptHook = videohost.CreateWebhookInput{URL: "https://hooks.example.test/interrupt", Events: []string{events.VideoSourceRecorded}}

// createInterrupted runs the webhook's create through the machinery and cancels its context
// once cancelAt returns; it returns what the create recorded and its diagnostics.
func createInterrupted(t *testing.T, pd *providerData, in videohost.CreateWebhookInput, cancelAt func()) (videohost.Webhook, bool, diag.Diagnostics) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go func() {
		cancelAt()
		cancel()
	}()
	var diags diag.Diagnostics
	w, ok := createObject(ctx, pd, webhookWrites, &diags, webhookCreateOps(pd, in))
	return w, ok, diags
}

// oneDiagnostic fails unless diags hold exactly one diagnostic, of the severity and summary,
// whose detail holds want.
func oneDiagnostic(t *testing.T, diags diag.Diagnostics, severity diag.Severity, summary, want string) {
	t.Helper()
	if len(diags) != 1 {
		t.Fatalf("want one diagnostic, got %d: %v", len(diags), diags)
	}
	d := diags[0]
	if d.Severity() != severity || d.Summary() != summary || !strings.Contains(d.Detail(), want) {
		t.Fatalf("want a %v %q saying %q, got %v %q: %s", severity, summary, want, d.Severity(), d.Summary(), d.Detail())
	}
}

func TestCreateInterruptedWhileWaitingForTheRateLimit(t *testing.T) {
	emu, pd, _ := writesEnv(t, emulator.Options{Limits: emulator.Limits{Writes: 1}, RateWindow: time.Minute}, nil)
	if _, err := pd.client.CreateWebhook(t.Context(), interruptHook); err != nil {
		t.Fatal(err)
	}
	// The window is spent for a minute: the second create waits for the limiter until cancelled.
	_, ok, diags := createInterrupted(t, pd, interruptHook, func() { time.Sleep(300 * time.Millisecond) })
	if ok {
		t.Fatal("a create interrupted before it was sent recorded something")
	}
	oneDiagnostic(t, diags, diag.SeverityError, "Webhook Create Interrupted", "interrupted before anything was sent")
	if n := len(emu.Webhooks()); n != 1 {
		t.Fatalf("the service holds %d webhooks, want the first one only", n)
	}
	if r := emu.RateStats().Writes.Requests; r != 1 {
		t.Fatalf("%d writes reached the service, want 1: the interrupted create must not be sent", r)
	}
}

// checkRecorded checks that an interrupted create recorded the one webhook the service holds,
// with its secret, and said so once, as a warning.
func checkRecorded(t *testing.T, emu *emulator.Emulator, w videohost.Webhook, ok bool, diags diag.Diagnostics) {
	t.Helper()
	if !ok {
		t.Fatalf("a create that was sent recorded nothing: %v", diags)
	}
	oneDiagnostic(t, diags, diag.SeverityWarning, "Webhook Create Interrupted After It Was Sent", "is recorded in the state")
	stored := emu.Webhooks()
	if len(stored) != 1 || stored[0].WebhookID != w.ID {
		t.Fatalf("the service holds %v, want exactly the recorded webhook %s", stored, w.ID)
	}
	if w.SignatureSecret == "" || w.SignatureSecret != stored[0].SignatureSecret {
		t.Fatal("the recorded webhook lacks its signature secret")
	}
}

func TestCreateInterruptedWithTheRequestInFlight(t *testing.T) {
	emu, pd, ss := writesEnv(t, emulator.Options{}, func(h http.Handler) *slowService {
		return newSlowService(h, holdBeforeHandling, time.Second, isWebhooks(http.MethodPost))
	})
	w, ok, diags := createInterrupted(t, pd, interruptHook, func() { ss.await(1, 10*time.Second) })
	checkRecorded(t, emu, w, ok, diags)
}

func TestCreateInterruptedWhileTheResponseIsRead(t *testing.T) {
	emu, pd, ss := writesEnv(t, emulator.Options{}, func(h http.Handler) *slowService {
		return newSlowService(h, holdInBody, time.Second, isWebhooks(http.MethodPost))
	})
	w, ok, diags := createInterrupted(t, pd, interruptHook, func() { ss.await(1, 10*time.Second) })
	checkRecorded(t, emu, w, ok, diags)
}

func TestCreateInterruptedWhileTheSecretIsListed(t *testing.T) {
	// The create's response lacks the secret (the emulator's default, as in the specification's
	// samples): the list walk that finds it is in flight when Terraform is interrupted.
	emu, pd, ss := writesEnv(t, emulator.Options{}, func(h http.Handler) *slowService {
		return newSlowService(h, holdBeforeHandling, time.Second, isWebhooks(http.MethodGet))
	})
	w, ok, diags := createInterrupted(t, pd, interruptHook, func() { ss.await(1, 10*time.Second) })
	checkRecorded(t, emu, w, ok, diags)
}

func TestCreateInterruptedFindsWhatAnUnansweredCreateStored(t *testing.T) {
	// The service stores the webhook and the response never comes back whole (a 500 after the
	// commit, as a proxy gives up): the interrupted create finds it in the list on a fresh
	// context, and records it, instead of sending the create again or orphaning it.
	emu, pd, ss := writesEnv(t, emulator.Options{Faults: emulator.Faults{CommitThen500Rate: 1}}, func(h http.Handler) *slowService {
		return newSlowService(h, holdBeforeHandling, time.Second, isWebhooks(http.MethodGet))
	})
	w, ok, diags := createInterrupted(t, pd, interruptHook, func() { ss.await(1, 10*time.Second) })
	checkRecorded(t, emu, w, ok, diags)
	if r := emu.RateStats().Writes.Requests; r != 1 {
		t.Fatalf("%d creates were sent, want 1: an interrupted create is never sent again", r)
	}
}

func TestDeleteInterruptedWhileWaitingForTheRateLimit(t *testing.T) {
	emu, pd, _ := writesEnv(t, emulator.Options{Limits: emulator.Limits{Writes: 1}, RateWindow: time.Minute}, nil)
	w, err := pd.client.CreateWebhook(t.Context(), interruptHook)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	var diags diag.Diagnostics
	gone := deleteObject(ctx, pd, webhookWrites, &diags, w.ID, func(ctx context.Context) error { return pd.client.DeleteWebhook(ctx, w.ID) })
	if gone {
		t.Fatal("a delete interrupted before it was sent reported the webhook gone")
	}
	oneDiagnostic(t, diags, diag.SeverityError, "Webhook Delete Interrupted", "interrupted before anything was sent")
	if n := len(emu.Webhooks()); n != 1 {
		t.Fatalf("the service holds %d webhooks, want 1: the delete must not be sent", n)
	}
}

func TestDeleteInterruptedWithTheRequestInFlight(t *testing.T) {
	emu, pd, ss := writesEnv(t, emulator.Options{}, func(h http.Handler) *slowService {
		return newSlowService(h, holdBeforeHandling, time.Second, func(r *http.Request) bool { return r.Method == http.MethodDelete })
	})
	w, err := pd.client.CreateWebhook(t.Context(), interruptHook)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go func() {
		ss.await(1, 10*time.Second)
		cancel()
	}()
	var diags diag.Diagnostics
	gone := deleteObject(ctx, pd, webhookWrites, &diags, w.ID, func(ctx context.Context) error { return pd.client.DeleteWebhook(ctx, w.ID) })
	if !gone {
		t.Fatalf("a delete that was sent did not finish: %v", diags)
	}
	oneDiagnostic(t, diags, diag.SeverityWarning, "Webhook Delete Interrupted After It Was Sent", "removed from the state")
	if n := len(emu.Webhooks()); n != 0 {
		t.Fatalf("the service still holds %d webhooks after a delete that was finished", n)
	}
}

func TestWritesThatAreNotInterruptedSayNothingMore(t *testing.T) {
	emu, pd, _ := writesEnv(t, emulator.Options{}, nil)
	var diags diag.Diagnostics
	w, ok := createObject(t.Context(), pd, webhookWrites, &diags, webhookCreateOps(pd, interruptHook))
	if !ok || len(diags) != 0 || w.SignatureSecret == "" {
		t.Fatalf("create: ok %v, secret set %v, diagnostics %v", ok, w.SignatureSecret != "", diags)
	}
	if !deleteObject(t.Context(), pd, webhookWrites, &diags, w.ID, func(ctx context.Context) error { return pd.client.DeleteWebhook(ctx, w.ID) }) || len(diags) != 0 {
		t.Fatalf("delete: diagnostics %v", diags)
	}
	if n := len(emu.Webhooks()); n != 0 {
		t.Fatalf("the service holds %d webhooks", n)
	}
}
