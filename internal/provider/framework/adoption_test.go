package framework_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/events"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/provider/uploadtoken"
	"github.com/videohost/terraform-provider-videohost/internal/provider/watermark"
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

type fakeObject struct {
	id, value string
	created   time.Time
}

// fakeCreates is a service of fakeObjects whose creates fail with an unknown outcome as
// often as told, storing the object or not. Every create sends the value "v".
type fakeCreates struct {
	objects  []fakeObject
	creates  int
	failures []bool // per failing attempt: whether it stored the object
	// listErrs are the errors of the next lists, one each; a list succeeds once they run out.
	listErrs []error
}

func (f *fakeCreates) adoptable() framework.AdoptableCreate[fakeObject] {
	const value = "v"
	return framework.AdoptableCreate[fakeObject]{
		Kind: "thing", Path: "/things",
		Create: func(context.Context) (fakeObject, error) {
			f.creates++
			o := fakeObject{id: fmt.Sprintf("o%d", len(f.objects)), value: value, created: time.Now()}
			if len(f.failures) > 0 {
				stored := f.failures[0]
				f.failures = f.failures[1:]
				if stored {
					f.objects = append(f.objects, o)
				}
				return fakeObject{}, &videohost.AmbiguousError{Method: "POST", Path: "/things", Err: errors.New("502")}
			}
			f.objects = append(f.objects, o)
			return o, nil
		},
		List: func(context.Context) ([]fakeObject, error) {
			if len(f.listErrs) > 0 {
				err := f.listErrs[0]
				f.listErrs = f.listErrs[1:]
				return nil, err
			}
			return append([]fakeObject(nil), f.objects...), nil
		},
		Matches: func(o fakeObject) bool { return o.value == value },
		Id:      func(o fakeObject) string { return o.id },
		Created: func(o fakeObject) *time.Time { return &o.created },
	}
}

func TestCreateAdoptingAdoptsWhatTheAttemptStored(t *testing.T) {
	pd := &framework.ProviderData{}
	f := &fakeCreates{failures: []bool{true}}
	// An object with the same value made long before: not what this create stored.
	f.objects = []fakeObject{{id: "old", value: "v", created: time.Now().Add(-time.Hour)}}
	got, err := framework.CreateAdopting(t.Context(), pd, f.adoptable())
	if err != nil || got.id != "o1" || f.creates != 1 {
		t.Fatalf("got %+v, %v after %d creates; want the stored o1 adopted after one create", got, err, f.creates)
	}
}

// TestCreateAdoptingListsPatiently: when the lists that would find what an attempt stored fail
// (read faults beyond the client's retries), the search lists again rather than give up and
// leave the object outside the state; a refusal of the list is not asked again.
func TestCreateAdoptingListsPatiently(t *testing.T) {
	unavailable := &videohost.Error{Method: "GET", Path: "/things", Status: http.StatusInternalServerError}
	f := &fakeCreates{failures: []bool{true}, listErrs: []error{unavailable, unavailable, unavailable}}
	got, err := framework.CreateAdopting(t.Context(), &framework.ProviderData{}, f.adoptable())
	if err != nil || got.id != "o0" || f.creates != 1 || len(f.objects) != 1 {
		t.Fatalf("got %+v, %v after %d creates, objects %v; want the stored o0 adopted after one create", got, err, f.creates, f.objects)
	}

	forbidden := &videohost.Error{Method: "GET", Path: "/things", Status: http.StatusForbidden}
	f = &fakeCreates{failures: []bool{true}, listErrs: []error{forbidden, nil}}
	if _, err := framework.CreateAdopting(t.Context(), &framework.ProviderData{}, f.adoptable()); !errors.Is(err, forbidden) || len(f.listErrs) != 1 {
		t.Fatalf("err %v with %d list errors left; want the 403 at once, the list not asked again", err, len(f.listErrs))
	}
}

func TestCreateAdoptingSendsAgainWhenNothingWasStored(t *testing.T) {
	pd := &framework.ProviderData{}
	f := &fakeCreates{failures: []bool{false}}
	got, err := framework.CreateAdopting(t.Context(), pd, f.adoptable())
	if err != nil || f.creates != 2 || len(f.objects) != 1 || got.id != f.objects[0].id {
		t.Fatalf("got %+v, %v after %d creates, objects %v; want one object from the second create", got, err, f.creates, f.objects)
	}
}

func TestCreateAdoptingGivesUpAmbiguous(t *testing.T) {
	pd := &framework.ProviderData{}
	f := &fakeCreates{failures: []bool{false, false, false}}
	_, err := framework.CreateAdopting(t.Context(), pd, f.adoptable())
	if !errors.Is(err, videohost.ErrAmbiguous) || f.creates != framework.AdoptionCreateAttempts {
		t.Fatalf("err %v after %d creates; want ErrAmbiguous after %d", err, f.creates, framework.AdoptionCreateAttempts)
	}
}

func TestCreateAdoptingNeverTakesAClaimedObject(t *testing.T) {
	pd := &framework.ProviderData{}
	f := &fakeCreates{}
	first, err := framework.CreateAdopting(t.Context(), pd, f.adoptable())
	if err != nil {
		t.Fatal(err)
	}
	// A second create of the same value whose attempt stored nothing must not take the
	// first one's object, which another resource now holds.
	f.failures = []bool{false}
	second, err := framework.CreateAdopting(t.Context(), pd, f.adoptable())
	if err != nil || second.id == first.id || f.creates != 3 {
		t.Fatalf("second = %+v, %v after %d creates; first was %s", second, err, f.creates, first.id)
	}
}

// serviceCounts counts what the service holds of the kinds that adoption.go recognises by their
// lists: watermarks, upload tokens, and the captions and chapters of videoID.
type serviceCounts struct{ watermarks, tokens, captions, chapters int }

func countService(ctx context.Context, c *videohost.Client, videoID string) (serviceCounts, error) {
	var n serviceCounts
	w, err := c.ListWatermarks(ctx, videohost.WatermarkFilter{})
	if err != nil {
		return n, err
	}
	tk, err := c.ListUploadTokens(ctx, videohost.UploadTokenFilter{})
	if err != nil {
		return n, err
	}
	n.watermarks, n.tokens = len(w), len(tk)
	if videoID == "" {
		return n, nil
	}
	cs, err := c.ListCaptions(ctx, videoID)
	if err != nil {
		return n, err
	}
	ch, err := c.ListChapters(ctx, videoID)
	n.captions, n.chapters = len(cs), len(ch)
	return n, err
}

// TestAccAdoptionOfCreatesStoredThen500 is the probe of the [safe-writes] issue: every create
// and upload is stored and answered 500 (or, at rate 0.6, three in five). Each watermark, token,
// caption and chapter must be adopted once: the service then holds exactly what the state holds,
// no "Already Exists" refusal is shown for what the provider stored, and the next plan is empty.
func TestAccAdoptionOfCreatesStoredThen500(t *testing.T) {
	// Skipped as a whole, not case by case, so that a remote run does not count as run a test
	// whose every case skipped.
	if os.Getenv("VIDEOHOST_EMULATOR") == "0" {
		t.Skip("it injects faults (every create stored, then answered 500), so it needs the in-process emulator: VIDEOHOST_EMULATOR=0 runs against a real endpoint")
	}
	for _, rate := range []float64{1, 0.6} {
		t.Run(fmt.Sprint(rate), func(t *testing.T) {
			env := acctest.NewAccEnv(t, emulator.Options{Limits: acctest.RaisedLimits})
			env.RequireEmulator(t)
			videoID := acctest.CreateVideoOutside(t, env, videohost.VideoCreate{Title: env.Name("captioned")})
			dir := t.TempDir()
			img := acctest.WritePNG(t, dir, "mark.png", 32, 16, 3)
			vtt := acctest.TempFile(t, dir, "fr.vtt", acctest.WebVTT("bonjour"))
			const n = 10
			cfg := env.ProviderConfig("") + fmt.Sprintf(`
resource "videohost_watermark" "w" {
  count       = %d
  source_file = %q
}
resource "videohost_upload_token" "t" {
  count = %d
  ttl   = 600
}
resource "videohost_video_caption" "c" {
  video_id    = %q
  language    = "fr"
  source_file = %q
}
resource "videohost_video_chapter" "c" {
  video_id    = %q
  language    = "fr"
  source_file = %q
}
`, n, img, n, videoID, vtt, videoID, vtt)
			client := acctest.ServiceClient(t, env)
			holdsWhatTheStateHolds := func(*terraform.State) error {
				got, err := countService(t.Context(), client, videoID)
				if err != nil {
					return err
				}
				if want := (serviceCounts{n, n, 1, 1}); got != want {
					return fmt.Errorf("the service holds %+v, the state %+v", got, want)
				}
				return nil
			}
			acctest.AccTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{{
					PreConfig: func() { env.Emu.SetFaults(emulator.Faults{CommitThen500Rate: rate}) },
					Config:    cfg,
					Check:     holdsWhatTheStateHolds,
				}, {
					PreConfig:        func() { env.Emu.SetFaults(emulator.Faults{}) },
					Config:           cfg,
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
					Check:            holdsWhatTheStateHolds,
				}},
			})
			if env.Emu.FaultCounts().CommitThen500 < n {
				t.Errorf("only %d creates were stored and answered 500: the test proves little", env.Emu.FaultCounts().CommitThen500)
			}
		})
	}
}

func TestAdoptionOfATokenWhenAnotherClientCreatesOneMeanwhile(t *testing.T) {
	var armed atomic.Bool
	emu, pd := acctest.AdoptionEnv(t, emulator.Options{Limits: acctest.RaisedLimits}, acctest.OtherClientCreates("/upload-tokens", &armed))
	// A token that existed before the create, with the same ttl: never a candidate.
	before, err := pd.Client.CreateUploadToken(t.Context(), 600)
	if err != nil {
		t.Fatal(err)
	}
	armed.Store(true)
	emu.SetFaults(emulator.Faults{CommitThen500Rate: 1})
	_, err = framework.CreateAdopting(t.Context(), pd, uploadtoken.UploadTokenAdoptable(pd, 600))
	var refused *framework.AdoptionError
	if !errors.As(err, &refused) {
		t.Fatalf("two tokens appeared during the attempt; want the adoption refused, got %v", err)
	}
	listed, lerr := pd.Client.ListUploadTokens(t.Context(), videohost.UploadTokenFilter{})
	if lerr != nil || len(listed) != 3 {
		t.Fatalf("%d tokens (%v) on the service; want 3: none deleted, since one is another client's", len(listed), lerr)
	}
	for _, tok := range listed {
		fp := uploadtoken.UploadTokenFingerprint(tok.Token)
		named := strings.Contains(refused.Detail, fp)
		if tok.Token == before.Token && named || tok.Token != before.Token && !named {
			t.Errorf("the error must name the two new candidates and only them; %s named %v: %s", fp, named, refused.Detail)
		}
		if strings.Contains(err.Error(), tok.Token) {
			t.Error("the error shows a token itself")
		}
	}
	if !strings.Contains(refused.Detail, "delete the ones nobody uses") {
		t.Errorf("the error does not say what to do: %s", refused.Detail)
	}
}

func TestAdoptionOfATokenTellsTTLsApart(t *testing.T) {
	// Another client's token of another ttl appears during the attempt: ours is the one of ours.
	var other atomic.Bool
	_, pd := acctest.AdoptionEnv(t, emulator.Options{Limits: acctest.RaisedLimits, Faults: emulator.Faults{CommitThen500Rate: 1}},
		func(e *emulator.Emulator) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodPost && r.URL.Path == "/upload-tokens" && other.CompareAndSwap(false, true) {
					o := httptest.NewRequest(http.MethodPost, "/upload-tokens", strings.NewReader(`{"ttl":60}`))
					o.Header = r.Header.Clone()
					e.ServeHTTP(httptest.NewRecorder(), o)
				}
				e.ServeHTTP(w, r)
			})
		})
	got, err := framework.CreateAdopting(t.Context(), pd, uploadtoken.UploadTokenAdoptable(pd, 600))
	if err != nil || got.TTL != 600 {
		t.Fatalf("got a token of ttl %d, %v; want the create's own token of ttl 600 adopted", got.TTL, err)
	}
}

func TestAdoptionOfAWatermarkWhenAnotherClientCreatesOneMeanwhile(t *testing.T) {
	var armed atomic.Bool
	armed.Store(true)
	emu, pd := acctest.AdoptionEnv(t, emulator.Options{Limits: acctest.RaisedLimits, Faults: emulator.Faults{CommitThen500Rate: 1}},
		acctest.OtherClientCreates("/watermarks", &armed))
	img := acctest.WritePNG(t, t.TempDir(), "w.png", 32, 16, 5)
	_, err := framework.CreateAdopting(t.Context(), pd, watermark.WatermarkAdoptable(pd, img, acctest.FileSHA256(t, img)))
	var refused *framework.AdoptionError
	if !errors.As(err, &refused) || !strings.Contains(refused.Summary, "Watermark") {
		t.Fatalf("two watermarks appeared during the attempt; want the adoption refused, got %v", err)
	}
	if listed, _ := pd.Client.ListWatermarks(t.Context(), videohost.WatermarkFilter{}); len(listed) != 2 {
		t.Errorf("%d watermarks on the service; want both kept", len(listed))
	}
	// The other client's upload and this create's one.
	if posts := emu.RequestCount("POST", "/watermarks"); posts != 2 {
		t.Errorf("%d uploads; a create that cannot tell which is its own must not send again", posts)
	}
}
