package webhook_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/events"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/provider/webhook"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// reconcileEnv is an emulator behind a loopback server and a client of it, without Terraform:
// the reconciliation of ambiguous creates is the provider's logic, but it can only be seen
// against a service that commits and fails at once.
func reconcileEnv(t *testing.T, opts emulator.Options, maxRetries ...int) (*emulator.Emulator, *framework.ProviderData) {
	t.Helper()
	emu, baseURL := acctest.ServeEmulator(t, opts, nil)
	client, err := videohost.New(videohost.Config{
		BaseURL: baseURL, APIKey: emu.APIKeys()[0], AuthScheme: videohost.AuthBasic,
		MaxRetries: append(maxRetries, 0)[0],
	})
	if err != nil {
		t.Fatal(err)
	}
	return emu, &framework.ProviderData{Client: client, Environment: client.Environment(), BaseURL: client.BaseURL()}
}

// createConcurrently runs n creates of the same webhook at once, as terraform apply does for
// a resource with count, and returns the ids it got and the errors.
func createConcurrently(t *testing.T, pd *framework.ProviderData, n int, in videohost.CreateWebhookInput) ([]string, []error) {
	t.Helper()
	var mu sync.Mutex
	var ids []string
	var errs []error
	var wg sync.WaitGroup
	sem := make(chan struct{}, 10)
	for range n {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			w, err := createWebhook(t.Context(), pd, in)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, err)
				return
			}
			ids = append(ids, w.ID)
		})
	}
	wg.Wait()
	return ids, errs
}

func serverIDs(emu *emulator.Emulator) map[string]bool {
	m := map[string]bool{}
	for _, w := range emu.Webhooks() {
		m[w.WebhookID] = true
	}
	return m
}

func TestCreateWebhookAdoptsWhatAFailedCreateStored(t *testing.T) {
	// Every POST stores the webhook and answers 500: each create must adopt its own webhook,
	// and no two creates of the same webhook may adopt the same one.
	emu, pd := reconcileEnv(t, emulator.Options{
		MaxWebhooks: 100, Limits: acctest.RaisedLimits,
		Faults: emulator.Faults{CommitThen500Rate: 1},
	})
	in := videohost.CreateWebhookInput{URL: "https://hooks.example.test/same", Events: []string{events.VideoSourceRecorded}}
	const n = 30
	ids, errs := createConcurrently(t, pd, n, in)
	if len(errs) > 0 {
		t.Fatalf("%d creates failed, first: %v", len(errs), errs[0])
	}
	onServer := serverIDs(emu)
	if len(onServer) != n {
		t.Errorf("%d webhooks on the server, want %d (a duplicate or a lost create)", len(onServer), n)
	}
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			t.Errorf("webhook %s was handed to two creates", id)
		}
		seen[id] = true
		if !onServer[id] {
			t.Errorf("create returned %s, which is not on the server", id)
		}
	}
	if got := emu.RequestCount("POST", "/webhooks"); got != n {
		t.Errorf("%d POST /webhooks, want %d: a create whose webhook was stored must not be sent again", got, n)
	}
}

func TestCreateWebhookHalfFailingManyCreates(t *testing.T) {
	emu, pd := reconcileEnv(t, emulator.Options{
		MaxWebhooks: 100, Limits: acctest.RaisedLimits,
		Faults: emulator.Faults{CommitThen500Rate: 0.5},
	})
	var wg sync.WaitGroup
	results := make([][]string, 4)
	for i := range results {
		// Two distinct inputs, each created by two concurrent groups: adoption must tell apart
		// url and events, and share neither.
		in := videohost.CreateWebhookInput{
			URL:    fmt.Sprintf("https://hooks.example.test/%d", i%2),
			Events: []string{events.VideoCaptionGenerated, events.VideoSummaryGenerated}[i%2:],
		}
		wg.Go(func() {
			ids, errs := createConcurrently(t, pd, 20, in)
			if len(errs) > 0 {
				t.Errorf("%d creates failed, first: %v", len(errs), errs[0])
			}
			results[i] = ids
		})
	}
	wg.Wait()
	all := map[string]bool{}
	for _, ids := range results {
		for _, id := range ids {
			if all[id] {
				t.Errorf("webhook %s was handed to two creates", id)
			}
			all[id] = true
		}
	}
	if onServer := serverIDs(emu); len(onServer) != 80 || len(all) != 80 {
		t.Errorf("%d webhooks on the server and %d returned, want 80 and 80", len(onServer), len(all))
	}
	for _, w := range emu.Webhooks() {
		if !all[w.WebhookID] {
			t.Errorf("webhook %s on the server belongs to no create (an orphan)", w.WebhookID)
		}
	}
}

func TestCreateWebhookUncommittedFailuresAreRetried(t *testing.T) {
	// ErrorRate answers 500 before anything is stored: nothing of that attempt can be adopted,
	// so the create is sent again, at most adoptionCreateAttempts times. A create may still
	// fail when all its attempts do; what must never happen is a webhook on the server that no
	// create returned, or one returned twice.
	emu, pd := reconcileEnv(t, emulator.Options{
		MaxWebhooks: 100, Limits: acctest.RaisedLimits,
		Faults: emulator.Faults{ErrorRate: 0.25},
	})
	const n = 20
	in := videohost.CreateWebhookInput{URL: "https://hooks.example.test/retry", Events: []string{events.LiveStreamBroadcastEnded}}
	ids, errs := createConcurrently(t, pd, n, in)
	t.Logf("%d creates succeeded, %d gave up after %d attempts", len(ids), len(errs), framework.AdoptionCreateAttempts)
	for _, err := range errs {
		if !errors.Is(err, videohost.ErrAmbiguous) {
			t.Errorf("a create that gave up must say its outcome is unknown: %v", err)
		}
	}
	if len(ids) < n/2 {
		t.Errorf("only %d of %d creates succeeded: failed attempts are not retried", len(ids), n)
	}
	onServer := serverIDs(emu)
	returned := map[string]bool{}
	for _, id := range ids {
		if returned[id] || !onServer[id] {
			t.Errorf("webhook %s returned twice or absent from the server", id)
		}
		returned[id] = true
	}
	for id := range onServer {
		if !returned[id] {
			t.Errorf("webhook %s on the server belongs to no create (an orphan)", id)
		}
	}
	if posts := emu.RequestCount("POST", "/webhooks"); posts <= len(ids) || posts > framework.AdoptionCreateAttempts*n {
		t.Errorf("%d POST /webhooks for %d creates: want retries, at most %d per create", posts, n, framework.AdoptionCreateAttempts)
	}
}

func TestCreateWebhookGivesUpWithHistory(t *testing.T) {
	emu, pd := reconcileEnv(t, emulator.Options{Limits: acctest.RaisedLimits, Faults: emulator.Faults{ErrorRate: 1}}, 1)
	_, err := createWebhook(t.Context(), pd, videohost.CreateWebhookInput{URL: "https://hooks.example.test/x", Events: []string{events.VideoSourceRecorded}})
	if err == nil {
		t.Fatal("a service that always fails must fail the create")
	}
	if len(emu.Webhooks()) != 0 {
		t.Errorf("webhooks were stored: %v", emu.Webhooks())
	}
	// The list after the first failure fails too (every request is a 500), so the create stops
	// there and says that a webhook may exist.
	if got := emu.RequestCount("POST", "/webhooks"); got != 1 {
		t.Errorf("%d POSTs; the create must stop when it cannot list", got)
	}
	if !errors.Is(err, videohost.ErrAmbiguous) && !strings.Contains(err.Error(), "may exist") {
		t.Errorf("the error must say that the outcome is unknown: %v", err)
	}
	if msg := err.Error(); !containsAll(msg, "listing the webhooks", "may exist", "import or delete") {
		t.Errorf("error does not say what was tried: %s", msg)
	}
}

func TestCreateWebhookPassesOtherErrors(t *testing.T) {
	emu, pd := reconcileEnv(t, emulator.Options{MaxWebhooks: 1, Limits: acctest.RaisedLimits})
	in := videohost.CreateWebhookInput{URL: "https://hooks.example.test/limit", Events: []string{events.VideoSourceRecorded}}
	if _, err := createWebhook(t.Context(), pd, in); err != nil {
		t.Fatal(err)
	}
	_, err := createWebhook(t.Context(), pd, in)
	if !errors.Is(err, videohost.ErrWebhookLimit) {
		t.Fatalf("want the webhook limit error unchanged, got %v", err)
	}
	if got := emu.RequestCount("GET", "/webhooks"); got != 0 {
		t.Errorf("a clear refusal must not start a reconciliation (%d lists)", got)
	}
}

// createWebhook creates in as the webhook resource does, without Terraform.
func createWebhook(ctx context.Context, pd *framework.ProviderData, in videohost.CreateWebhookInput) (videohost.Webhook, error) {
	return framework.CreateAdopting(ctx, pd, webhook.WebhookAdoptable(pd, in))
}

func TestAdoptWebhookRules(t *testing.T) {
	pd := &framework.ProviderData{}
	now := time.Now()
	in := videohost.CreateWebhookInput{URL: "https://a.test/h", Events: []string{events.VideoSourceRecorded, events.VideoCaptionGenerated}}
	listed := []videohost.Webhook{
		{ID: "old", URL: in.URL, Events: in.Events, CreatedAt: now.Add(-time.Hour)},
		{ID: "other-url", URL: "https://a.test/other", Events: in.Events, CreatedAt: now},
		{ID: "other-events", URL: in.URL, Events: []string{events.VideoSourceRecorded}, CreatedAt: now},
		{ID: "seen", URL: in.URL, Events: in.Events, CreatedAt: now},
		{ID: "match-later", URL: in.URL, Events: []string{events.VideoCaptionGenerated, events.VideoSourceRecorded}, CreatedAt: now.Add(time.Second)},
		{ID: "match", URL: in.URL, Events: in.Events, CreatedAt: now},
	}
	d := &framework.Adoption[videohost.Webhook]{Pd: pd, A: webhook.WebhookAdoptable(pd, in), Start: now, Seen: map[string]bool{"seen": true}}

	w, ok, _, _ := d.Pick(listed)
	if !ok || w.ID != "match" {
		t.Fatalf("adopted %q (%v), want the oldest match", w.ID, ok)
	}
	w, ok, _, _ = d.Pick(listed)
	if !ok || w.ID != "match-later" {
		t.Fatalf("adopted %q (%v), want the next match: the first is claimed, and events are a set", w.ID, ok)
	}
	w, ok, contended, _ := d.Pick(listed)
	if ok || !contended {
		t.Fatalf("adopted %q (%v, contended %v), but every match is claimed", w.ID, ok, contended)
	}
	if _, ok, contended, _ = d.Pick(listed[:3]); ok || contended {
		t.Fatalf("no match at all must not count as contended")
	}
	// Another provider instance (another alias, or another run) has claims of its own.
	other := &framework.ProviderData{}
	d2 := &framework.Adoption[videohost.Webhook]{Pd: other, A: webhook.WebhookAdoptable(other, in), Start: now}
	if w, ok, _, _ = d2.Pick(listed); !ok || w.ID != "match" {
		t.Fatalf("adopted %q (%v) by another provider instance", w.ID, ok)
	}
	if !pd.Adoption.Claim("webhook", "fresh") || pd.Adoption.Claim("webhook", "fresh") {
		t.Error("an id must be claimable once")
	}
}

// containsAll reports whether s holds every one of parts.
func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
