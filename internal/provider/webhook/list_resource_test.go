package webhook_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/events"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// seedWebhooks makes n webhooks on the emulator, as a dashboard or another tool would; every
// third one also subscribes to video.caption.generated.
func seedWebhooks(t *testing.T, emu *emulator.Emulator, n int) map[string]emulator.Webhook {
	t.Helper()
	out := map[string]emulator.Webhook{}
	for i := range n {
		evs := []string{events.VideoSourceRecorded}
		if i%3 == 0 {
			evs = append(evs, events.VideoCaptionGenerated)
		}
		w, err := emu.CreateWebhook(fmt.Sprintf("https://hooks.example.test/seeded/%03d", i), evs)
		if err != nil {
			t.Fatal(err)
		}
		out[w.WebhookID] = w
	}
	return out
}

// TestWebhookListResourceProtocol calls ListResource through the provider's protocol server, as
// terraform query does, over 130 webhooks (two pages) of an in-process emulator, counting the
// requests that reach it.
func TestWebhookListResourceProtocol(t *testing.T) {
	const n = 130
	emu, baseURL := acctest.ServeEmulator(t, emulator.Options{MaxWebhooks: 200}, nil)
	seeded := seedWebhooks(t, emu, n)
	p := acctest.NewProtoServer(t, baseURL, emu.APIKeys()[0], nil)

	t.Run("identities and display names", func(t *testing.T) {
		var results []acctest.Listed
		lists, singles := acctest.ReadsDuring(emu, "/webhooks", func() { results = p.List(acctest.ListQuery{TypeName: "videohost_webhook", Limit: 1000}) })
		t.Logf("%d webhooks listed with %d list reads and %d single reads (bound ceil(N/100)+1 = %d)", len(results), lists, singles, acctest.PagesFor(n)+1)
		if lists > acctest.PagesFor(n)+1 || singles != 0 {
			t.Errorf("%d list reads and %d single reads for %d webhooks, want at most %d and none", lists, singles, n, acctest.PagesFor(n)+1)
		}
		if len(results) != n {
			t.Fatalf("%d results, want %d", len(results), n)
		}
		seen := map[string]bool{}
		for _, r := range results {
			acctest.RequireNoErrors(t, "ListResource", r.Diagnostics)
			id := acctest.StringOf(r.Identity["id"])
			w, ok := seeded[id]
			if !ok || seen[id] {
				t.Fatalf("result identity %q is not a seeded webhook, or is listed twice", id)
			}
			seen[id] = true
			if want := w.URL + " (" + strings.Join(w.Events, ", ") + ")"; r.DisplayName != want {
				t.Errorf("display name %q, want %q", r.DisplayName, want)
			}
			if r.Resource != nil {
				t.Errorf("result %s carries the resource without include_resource", id)
			}
		}
	})

	t.Run("include_resource carries every attribute from the list items", func(t *testing.T) {
		var results []acctest.Listed
		lists, singles := acctest.ReadsDuring(emu, "/webhooks", func() {
			results = p.List(acctest.ListQuery{TypeName: "videohost_webhook", IncludeResource: true, Limit: 1000})
		})
		t.Logf("%d webhooks listed with include_resource with %d list reads and %d single reads", len(results), lists, singles)
		if lists > acctest.PagesFor(n)+1 || singles != 0 {
			t.Errorf("%d list reads and %d single reads for %d webhooks, want at most %d and none", lists, singles, n, acctest.PagesFor(n)+1)
		}
		if len(results) != n {
			t.Fatalf("%d results, want %d", len(results), n)
		}
		for _, r := range results {
			acctest.RequireNoErrors(t, "ListResource", r.Diagnostics)
			w := seeded[acctest.StringOf(r.Identity["id"])]
			res := r.Resource
			if acctest.StringOf(res["id"]) != w.WebhookID || acctest.StringOf(res["url"]) != w.URL ||
				acctest.StringOf(res["created_at"]) != w.CreatedAt.UTC().Format(time.RFC3339) {
				t.Fatalf("resource of %s = %v", w.WebhookID, res)
			}
			if got := acctest.StringOf(res["signature_secret"]); got == "" || got != w.SignatureSecret {
				t.Fatalf("signature_secret of %s is not the service's", w.WebhookID)
			}
			var evs []tftypes.Value
			if err := res["events"].As(&evs); err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, e := range evs {
				names = append(names, acctest.StringOf(e))
			}
			if !slices.Equal(sorted(names), sorted(w.Events)) {
				t.Errorf("events of %s = %v, want %v", w.WebhookID, names, w.Events)
			}
		}
	})

	t.Run("pages are read as the results are consumed", func(t *testing.T) {
		lists, _ := acctest.ReadsDuring(emu, "/webhooks", func() {
			base := emu.RequestCount(http.MethodGet, "/webhooks")
			i := 0
			for r := range p.ListStream(acctest.ListQuery{TypeName: "videohost_webhook", Limit: 1000}) {
				acctest.RequireNoErrors(t, "ListResource", r.Diagnostics)
				i++
				read := emu.RequestCount(http.MethodGet, "/webhooks") - base
				// Result i comes from page ceil(i/100): no page is read ahead of its results.
				if want := acctest.PagesFor(i); read != want {
					t.Fatalf("after result %d, %d pages were read, want %d", i, read, want)
				}
			}
		})
		if lists != acctest.PagesFor(n) {
			t.Errorf("%d pages read in all, want %d", lists, acctest.PagesFor(n))
		}
	})

	t.Run("limit stops the walk", func(t *testing.T) {
		for _, limit := range []int64{5, 100, 101} {
			var results []acctest.Listed
			lists, _ := acctest.ReadsDuring(emu, "/webhooks", func() { results = p.List(acctest.ListQuery{TypeName: "videohost_webhook", Limit: limit}) })
			if int64(len(results)) != limit {
				t.Errorf("limit %d: %d results", limit, len(results))
			}
			if want := acctest.PagesFor(int(limit)); lists != want {
				t.Errorf("limit %d: %d pages read, want %d", limit, lists, want)
			}
		}
	})

	t.Run("event filter", func(t *testing.T) {
		want := 0
		for _, w := range seeded {
			if slices.Contains(w.Events, events.VideoCaptionGenerated) {
				want++
			}
		}
		results := p.List(acctest.ListQuery{TypeName: "videohost_webhook", Config: map[string]tftypes.Value{"event": acctest.Str(events.VideoCaptionGenerated)}, IncludeResource: true, Limit: 1000})
		if len(results) != want {
			t.Fatalf("%d results for event %s, want %d", len(results), events.VideoCaptionGenerated, want)
		}
		for _, r := range results {
			if !strings.Contains(r.DisplayName, events.VideoCaptionGenerated) {
				t.Errorf("result %q is not subscribed to %s", r.DisplayName, events.VideoCaptionGenerated)
			}
		}
	})
}

// TestWebhookListResourceErrors: a service that refuses the key ends the stream with one error
// result, and a configuration the service cannot take is refused at validation.
func TestWebhookListResourceErrors(t *testing.T) {
	emu, baseURL := acctest.ServeEmulator(t, emulator.Options{}, nil)
	p := acctest.NewProtoServer(t, baseURL, "not-a-key-of-the-workspace", map[string]tftypes.Value{"auth_scheme": acctest.Str("basic")})
	results := p.List(acctest.ListQuery{TypeName: "videohost_webhook", Limit: 100})
	if len(results) != 1 || !acctest.HasError(results[0].Diagnostics, "Unable to List Webhooks") {
		t.Errorf("results with a refused key = %+v, want one error result", results)
	}

	if diags := p.ValidateList("videohost_webhook", map[string]tftypes.Value{"event": acctest.Str("video.uploaded")}); !acctest.HasAnyError(diags) {
		t.Errorf("an unknown event name validates: %s", acctest.DiagText(diags))
	}
	if diags := p.ValidateList("videohost_webhook", map[string]tftypes.Value{"event": acctest.Str(events.VideoSourceRecorded)}); acctest.HasAnyError(diags) {
		t.Errorf("a known event name does not validate: %s", acctest.DiagText(diags))
	}
	if n := emu.RequestCount("", "/webhooks"); n != 1 {
		t.Errorf("%d requests reached the service, want the one list read (validation sends none)", n)
	}
}

// TestAccWebhookListResource runs terraform query (Terraform 1.14 and later; skipped, naming
// the version found, below it) over webhooks made outside Terraform and one made by it. The
// query lists every webhook of the account: in-process the test's four alone; against a real
// endpoint others' too, so there it checks that its own are among the results, the captioned
// one among those of its event and the others not.
func TestAccWebhookListResource(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{MaxWebhooks: 200})
	acctest.RequireCLIFeature(t, acctest.FeatureQuery)
	// Made as a dashboard or another tool would, through the public API; every third one also
	// subscribes to video.caption.generated.
	var outside []videohost.Webhook
	var captioned videohost.Webhook
	for i := range 3 {
		evs := []string{events.VideoSourceRecorded}
		if i%3 == 0 {
			evs = append(evs, events.VideoCaptionGenerated)
		}
		w := acctest.CreateWebhookOutside(t, env, fmt.Sprintf("%s/%03d", hookURL(env, "seeded"), i), evs...)
		outside = append(outside, w)
		if slices.Contains(evs, events.VideoCaptionGenerated) {
			captioned = w
		}
	}
	managedURL := hookURL(env, "managed")
	// The query step runs beside the configuration of the step before, whose provider block
	// configures the provider for the list blocks too.
	query := `
list "videohost_webhook" "all" {
  provider         = videohost
  include_resource = true
}

list "videohost_webhook" "captions" {
  provider = videohost
  config {
    event = "` + events.VideoCaptionGenerated + `"
  }
}

list "videohost_webhook" "two" {
  provider = videohost
  limit    = 2
}
`
	byID := func(id string) map[string]knownvalue.Check {
		return map[string]knownvalue.Check{"id": knownvalue.StringExact(id)}
	}
	checks := []querycheck.QueryResultCheck{
		querycheck.ExpectLength("videohost_webhook.two", 2),
		querycheck.ExpectIdentity("videohost_webhook.captions", byID(captioned.ID)),
		querycheck.ExpectResourceDisplayName("videohost_webhook.all",
			queryfilter.ByResourceIdentity(byID(captioned.ID)),
			knownvalue.StringExact(captioned.URL+" ("+strings.Join(captioned.Events, ", ")+")")),
		querycheck.ExpectResourceKnownValues("videohost_webhook.all",
			queryfilter.ByResourceIdentity(byID(captioned.ID)),
			[]querycheck.KnownValueCheck{
				{Path: tfjsonpath.New("url"), KnownValue: knownvalue.StringExact(captioned.URL)},
				{Path: tfjsonpath.New("signature_secret"), KnownValue: knownvalue.StringExact(captioned.SignatureSecret)},
			}),
		querycheck.ExpectResourceKnownValues("videohost_webhook.all",
			queryfilter.ByDisplayName(knownvalue.StringExact(managedURL+" ("+events.VideoSourceRecorded+")")),
			[]querycheck.KnownValueCheck{
				{Path: tfjsonpath.New("events"), KnownValue: knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact(events.VideoSourceRecorded)})},
			}),
	}
	for _, w := range outside {
		checks = append(checks, querycheck.ExpectIdentity("videohost_webhook.all", byID(w.ID)))
		if w.ID != captioned.ID {
			checks = append(checks, querycheck.ExpectNoIdentity("videohost_webhook.captions", byID(w.ID)))
		}
	}
	if env.Emu != nil {
		checks = append(checks,
			querycheck.ExpectLength("videohost_webhook.all", 4),
			querycheck.ExpectLength("videohost_webhook.captions", 1))
	} else {
		checks = append(checks, querycheck.ExpectLengthAtLeast("videohost_webhook.all", 4))
	}
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		Steps: []resource.TestStep{
			{
				Config: acctest.WebhookConfig(env, "", managedURL, events.VideoSourceRecorded),
			},
			{
				Query:             true,
				Config:            query,
				QueryResultChecks: checks,
			},
		},
	})
}

func sorted(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

// TestAccWebhookQueryGenerateConfig runs what a user runs to adopt many webhooks at once:
// terraform query -generate-config-out over 130 webhooks made outside Terraform (two pages of
// the service's list), then apply and plan on the generated configuration. The testing
// framework cannot apply a file it did not write, so the test builds the provider, points
// Terraform at it with dev_overrides in its own CLI configuration, and runs the terraform of
// TF_ACC_TERRAFORM_PATH (else the one on PATH) directly. It needs Terraform 1.14 or later and is
// skipped, naming the version found, below it.
func TestAccWebhookQueryGenerateConfig(t *testing.T) {
	const n = 130
	env := acctest.NewAccEnv(t, emulator.Options{MaxWebhooks: 200})
	acctest.RequireCLIFeature(t, acctest.FeatureQuery)
	env.RequireEmulatorFor(t, "terraform query -generate-config-out adopts every webhook of the account, which in a shared "+
		"workspace would import (and leave in its state) other tests' webhooks, and it makes 130 where a workspace holds 20")
	acctest.Parallel(t)
	ctx, cancel := context.WithTimeout(t.Context(), 6*time.Minute)
	defer cancel()
	cli := acctest.NewCLIWorkdir(ctx, t, "1.14.0")

	seeded := seedWebhooks(t, env.Emu, n)
	cli.Write("main.tf", `terraform {
  required_providers {
    videohost = { source = "videohost/videohost" }
  }
}
`+env.ProviderConfig(""))
	cli.Write("webhooks.tfquery.hcl", `list "videohost_webhook" "all" {
  provider = videohost
  limit    = 1000
}
`)

	lists, singles := acctest.ReadsDuring(env.Emu, "/webhooks", func() { cli.Run("query", "-no-color", "-generate-config-out=generated.tf") })
	t.Logf("terraform query -generate-config-out over %d webhooks: %d list reads, %d single reads (bound ceil(N/100)+1 = %d)",
		n, lists, singles, acctest.PagesFor(n)+1)
	if lists > acctest.PagesFor(n)+1 || singles != 0 {
		t.Errorf("%d list reads and %d single reads for %d webhooks, want at most %d and none", lists, singles, n, acctest.PagesFor(n)+1)
	}

	generated, err := os.ReadFile(filepath.Join(cli.Dir, "generated.tf"))
	if err != nil {
		t.Fatal(err)
	}
	if got := len(regexp.MustCompile(`(?m)^resource "videohost_webhook" `).FindAll(generated, -1)); got != n {
		t.Errorf("generated.tf has %d videohost_webhook resource blocks, want %d", got, n)
	}
	if got := len(regexp.MustCompile(`(?m)^import \{`).FindAll(generated, -1)); got != n {
		t.Errorf("generated.tf has %d import blocks, want %d", got, n)
	}
	for id, w := range seeded {
		if !bytes.Contains(generated, []byte(acctest.Hcl(id))) || !bytes.Contains(generated, []byte(acctest.Hcl(w.URL))) {
			t.Fatalf("generated.tf does not name webhook %s (%s):\n%s", id, w.URL, generated)
		}
		if bytes.Contains(generated, []byte(w.SignatureSecret)) {
			t.Fatal("generated.tf holds a signature secret")
		}
	}

	out := cli.Run("apply", "-no-color", "-auto-approve")
	if want := fmt.Sprintf("%d imported, 0 added, 0 changed, 0 destroyed", n); !strings.Contains(out, want) {
		t.Errorf("apply of the generated configuration did not say %q:\n%s", want, out)
	}
	cli.Run("plan", "-no-color", "-detailed-exitcode")

	var state struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Type   string            `json:"type"`
					Values map[string]any    `json:"values"`
					ID     map[string]string `json:"identity"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal([]byte(cli.Run("show", "-json")), &state); err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, r := range state.Values.RootModule.Resources {
		if r.Type != "videohost_webhook" {
			continue
		}
		id, _ := r.Values["id"].(string)
		secret, _ := r.Values["signature_secret"].(string)
		if w, ok := seeded[id]; !ok || secret == "" || secret != w.SignatureSecret {
			t.Errorf("webhook %s is in the state without the service's signature secret", id)
		}
		found++
	}
	if found != n || len(env.Emu.Webhooks()) != n {
		t.Errorf("%d webhooks in the state and %d on the service, want %d and %d", found, len(env.Emu.Webhooks()), n, n)
	}
}
