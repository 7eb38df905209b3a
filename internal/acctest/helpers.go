package acctest

// The helpers that tests of several files share: the acceptance environment (an emulator per
// test, the provider block pointed at it), checks of the state against the service, and small
// assertions.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/localfile/localfiletest"
	"github.com/videohost/terraform-provider-videohost/internal/provider"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// TestAccProtoV6ProviderFactories serves the provider in-process.
var TestAccProtoV6ProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"videohost": func() (tfprotov6.ProviderServer, error) { return provider.NewServer("test")(), nil },
}

// AccEnv is one test's service: an emulator started in-process on its own loopback port with
// its own key, or, when VIDEOHOST_EMULATOR=0 and VIDEOHOST_API_KEY and VIDEOHOST_BASE_URL are
// set, that real endpoint.
type AccEnv struct {
	BaseURL, APIKey string
	Emu             *emulator.Emulator // nil against a real endpoint
	remote          *requestCounter    // the requests sent to a real endpoint; nil with the emulator
	test            string             // the name of the test the service serves
}

// Name is what the test names its object what on the service (a title, a name, a URL's path):
// RunName, the run's prefix and the test's name, so that a run's ledger and `make sweep` find it.
func (e *AccEnv) Name(what string) string {
	return runName(e.test, what)
}

// NewAccEnv starts the service of one acceptance test. It skips the test without TF_ACC, so
// that no emulator is started for a test that resource.Test would skip anyway.
func NewAccEnv(t *testing.T, opts emulator.Options) *AccEnv {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance tests run only with TF_ACC=1")
	}
	Parallel(t)
	if os.Getenv("VIDEOHOST_EMULATOR") == "0" {
		env := remoteAccEnv(t, nil)
		watchDeadline(t, env.remote.inFlight.String)
		return env
	}
	watchDeadline(t, func() string { return "terraform or the test itself (the service is in-process)" })
	emu, baseURL := ServeEmulator(t, opts, nil)
	keys := emu.APIKeys()
	if len(keys) == 0 {
		t.Fatal("the emulator has no API key")
	}
	return &AccEnv{BaseURL: baseURL, APIKey: keys[0], Emu: emu, test: t.Name()}
}

// NewAccEnvBehind is NewAccEnv with the emulator behind the handler that wrap builds around it (a
// slow service, a spy), as ServeEmulator does: the test needs the in-process emulator, and is
// skipped against a real endpoint.
func NewAccEnvBehind(t *testing.T, opts emulator.Options, wrap func(*emulator.Emulator) http.Handler) *AccEnv {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance tests run only with TF_ACC=1")
	}
	Parallel(t)
	watchDeadline(t, func() string { return "terraform or the test itself (the service is in-process)" })
	emu, baseURL := ServeEmulator(t, opts, wrap)
	return &AccEnv{BaseURL: baseURL, APIKey: emu.APIKeys()[0], Emu: emu, test: t.Name()}
}

// parallelTests holds the tests that parallel has made parallel.
var parallelTests sync.Map

// Parallel lets an acceptance test run beside the others (go test -parallel, GOMAXPROCS by
// default): each has a service of its own, and much of its time is terraform starting up or
// waiting on a rate window. It may be called more than once for a test, unlike t.Parallel, so
// that newAccEnv can call it for every test that has a service. A test that sets environment
// variables cannot be parallel: it keeps its settings in its configuration instead.
func Parallel(t *testing.T) {
	t.Helper()
	if _, done := parallelTests.LoadOrStore(t, true); !done {
		t.Parallel()
	}
}

// AccTest runs tc beside the other acceptance tests: resource.ParallelTest, for tests that
// newAccEnv may already have made parallel.
func AccTest(t *testing.T, tc resource.TestCase) {
	t.Helper()
	Parallel(t)
	resource.Test(t, tc)
}

// ServeEmulator starts an emulator of opts on its own loopback port, behind the handler that
// wrap builds around it when wrap is not nil (a test that watches or steers the requests), and
// stops both when the test ends. It returns the emulator and its address.
func ServeEmulator(t *testing.T, opts emulator.Options, wrap func(*emulator.Emulator) http.Handler) (*emulator.Emulator, string) {
	t.Helper()
	if os.Getenv("VIDEOHOST_EMULATOR") == "0" {
		t.Skip("steers an emulator of its own (its requests, faults, options or clock): runs only in-process, not with VIDEOHOST_EMULATOR=0")
	}
	emu, err := emulator.New(opts)
	if err != nil {
		t.Fatalf("starting the emulator: %v", err)
	}
	var h http.Handler = emu
	if wrap != nil {
		h = wrap(emu)
	}
	srv := httptest.NewServer(checkContract(t, h))
	t.Cleanup(func() {
		srv.Close()
		if err := emu.Close(); err != nil {
			t.Errorf("closing the emulator: %v", err)
		}
	})
	return emu, srv.URL
}

// RequireEmulator skips a test or step that needs the emulator (its control API or its
// options) when running against a real endpoint.
func (e *AccEnv) RequireEmulator(t *testing.T) {
	t.Helper()
	if e.Emu == nil {
		t.Skip("needs the in-process emulator (its control API or options); VIDEOHOST_EMULATOR=0 runs against a real endpoint")
	}
}

// RequireEmulatorFor skips a test that needs the in-process emulator for the reason why (its
// control API, its options or its seeds), saying it, when running against a real endpoint.
func (e *AccEnv) RequireEmulatorFor(t *testing.T, why string) {
	t.Helper()
	if e.Emu == nil {
		t.Skipf("%s, so it needs the in-process emulator: VIDEOHOST_EMULATOR=0 runs against a real endpoint", why)
	}
}

// ProviderConfig is the provider block pointed at this service, with extra attributes. Against
// a real endpoint the key stays in the environment and out of the configuration files that the
// testing framework writes.
func (e *AccEnv) ProviderConfig(extra string) string {
	key := fmt.Sprintf("api_key = %q", e.APIKey)
	if e.Emu == nil {
		key = ""
	}
	return fmt.Sprintf(`
provider "videohost" {
  base_url = %q
  %s
  %s
}
`, e.BaseURL, key, extra)
}

// StateCheckFunc is a state check written as a function of the whole state, for assertions that
// relate the state to the service (the emulator's records) rather than to fixed values.
type StateCheckFunc func(*tfjson.State) error

func (f StateCheckFunc) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	resp.Error = f(req.State)
}

// PlanCheckFunc is a plan check written as a function.
type PlanCheckFunc func(*tfjson.Plan) error

func (f PlanCheckFunc) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	resp.Error = f(req.Plan)
}

// OnService is a state check that reads the object *id from the service with get (a call of
// serviceClient, for what the service holds rather than what the state says) and hands it to
// check. The id is read when the state is checked, so an earlier step's idOf may fill it.
func OnService[T any](get func(context.Context, string) (T, error), id *string, check func(T) error) statecheck.StateCheck {
	return ServiceCheckFunc(func(ctx context.Context) error {
		v, err := get(ctx, *id)
		if err != nil {
			return err
		}
		return check(v)
	})
}

// ServiceCheckFunc is a state check that looks at the service only, with the check's context.
type ServiceCheckFunc func(context.Context) error

func (f ServiceCheckFunc) CheckState(ctx context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	resp.Error = f(ctx)
}

// GoneFromService is a CheckDestroy that fails unless the service answers not found for the
// object *id, read with get.
func GoneFromService[T any](get func(context.Context, string) (T, error), id *string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if _, err := get(ctx, *id); !errors.Is(err, videohost.ErrNotFound) {
			return fmt.Errorf("%T %s after destroy: %v, want not found", *new(T), *id, err)
		}
		return nil
	}
}

// ServiceClient is a client of the test's service for what happens outside Terraform: a
// change made in the dashboard, a read of what the service holds.
func ServiceClient(t *testing.T, env *AccEnv) *videohost.Client {
	t.Helper()
	c, err := videohost.New(videohost.Config{BaseURL: env.BaseURL, APIKey: env.APIKey, AuthScheme: videohost.AuthBasic, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// IdOf captures the id of address into *id when the state is checked.
func IdOf(address string, id *string) statecheck.StateCheck {
	return StateCheckFunc(func(s *tfjson.State) error {
		r, err := StateResource(s, address)
		if err == nil {
			*id = AttrString(r, "id")
		}
		return err
	})
}

// HclAttrs writes attributes as HCL lines, in the order given: pairs of name and literal.
func HclAttrs(pairs ...string) string {
	var b strings.Builder
	for i := 0; i+1 < len(pairs); i += 2 {
		fmt.Fprintf(&b, "  %s = %s\n", pairs[i], pairs[i+1])
	}
	return b.String()
}

// ResourceBlock is a resource block of typeName named name with attributes: pairs of name and
// literal, as HclAttrs takes them. Each kind's tests keep their own configurations; this is what
// the tests that go over every kind write theirs with.
func ResourceBlock(typeName, name string, pairs ...string) string {
	return fmt.Sprintf("resource %q %q {\n", typeName, name) + HclAttrs(pairs...) + "}\n"
}

// NoRequestsTo is a step's PreConfig that fails the test when any request has reached path on
// the service; why says what should have kept them from it.
func NoRequestsTo(t *testing.T, env *AccEnv, path, why string) func() {
	return func() {
		if n := env.RequestCount("", path); n != 0 {
			t.Errorf("%d requests reached %s; %s", n, path, why)
		}
	}
}

// StateWebhooks returns the videohost_webhook resources in the root module of the state.
func StateWebhooks(s *tfjson.State) []*tfjson.StateResource {
	return StateResourcesOf(s, "videohost_webhook")
}

// StateResourcesOf returns the managed resources of type typ in the state's root module.
func StateResourcesOf(s *tfjson.State, typ string) []*tfjson.StateResource {
	if s == nil || s.Values == nil || s.Values.RootModule == nil {
		return nil
	}
	var out []*tfjson.StateResource
	for _, r := range s.Values.RootModule.Resources {
		if r.Mode == tfjson.ManagedResourceMode && r.Type == typ {
			out = append(out, r)
		}
	}
	return out
}

// StateResource returns the resource at address.
func StateResource(s *tfjson.State, address string) (*tfjson.StateResource, error) {
	if s == nil || s.Values == nil || s.Values.RootModule == nil {
		return nil, fmt.Errorf("empty state")
	}
	for _, r := range s.Values.RootModule.Resources {
		if r.Address == address {
			return r, nil
		}
	}
	return nil, fmt.Errorf("%s is not in the state", address)
}

func AttrString(r *tfjson.StateResource, name string) string {
	s, _ := r.AttributeValues[name].(string)
	return s
}

// Hcl quotes s as an HCL string.
func Hcl(s string) string { return fmt.Sprintf("%q", s) }

// HclList renders a list of strings.
func HclList(items ...string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = Hcl(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

const TestWebhookAddr = "videohost_webhook.test"

func WebhookConfig(env *AccEnv, providerExtra, url string, evs ...string) string {
	return env.ProviderConfig(providerExtra) + fmt.Sprintf(`
resource "videohost_webhook" "test" {
  url    = %s
  events = %s
}
`, Hcl(url), HclList(evs...))
}

// MatchesEmulator checks that videohost_webhook.test is on the emulator with the same url,
// creation time and secret; against a real endpoint it checks that it is in the state.
func MatchesEmulator(env *AccEnv) statecheck.StateCheck {
	return StateCheckFunc(func(s *tfjson.State) error {
		r, err := StateResource(s, TestWebhookAddr)
		if err != nil {
			return err
		}
		if env.Emu == nil {
			return nil
		}
		id := AttrString(r, "id")
		for _, w := range env.Emu.Webhooks() {
			if w.WebhookID != id {
				continue
			}
			if got := AttrString(r, "signature_secret"); got == "" || got != w.SignatureSecret {
				return fmt.Errorf("signature_secret of %s is not the emulator's", id)
			}
			if got := AttrString(r, "url"); got != w.URL {
				return fmt.Errorf("url %q, emulator has %q", got, w.URL)
			}
			if got, want := AttrString(r, "created_at"), w.CreatedAt.UTC().Format(time.RFC3339); got != want {
				return fmt.Errorf("created_at %q, emulator has %q", got, want)
			}
			return nil
		}
		return fmt.Errorf("webhook %s is not on the emulator", id)
	})
}

// StateAttributes returns the attribute values of the resource or data source at address.
func StateAttributes(s *tfjson.State, address string) (map[string]any, error) {
	r, err := StateResource(s, address)
	if err != nil {
		return nil, err
	}
	return r.AttributeValues, nil
}

// WriteFile writes content to the file name, readable by the test's user only.
func WriteFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// The media files of the tests, made by the tests (internal/localfile/localfiletest).
var (
	WritePNG      = localfiletest.WritePNG
	WriteJPEG     = localfiletest.WriteJPEG
	WriteNoisyPNG = localfiletest.WriteNoisyPNG
	FileSHA256    = localfiletest.FileSHA256
	DamagedImages = localfiletest.DamagedImages
)

// ExpectImporting fails a plan that does not import the resource at address.
func ExpectImporting(address string) plancheck.PlanCheck {
	return PlanCheckFunc(func(p *tfjson.Plan) error {
		for _, rc := range p.ResourceChanges {
			if rc.Address == address && rc.Change.Importing == nil {
				return fmt.Errorf("the plan does not import %s", address)
			}
		}
		return nil
	})
}

// The values the service sets once, at creation (ids, stream keys, asset addresses, creation
// times), are planned as what the state holds in an update, not as "known after apply": a plan
// that shows them unknown tells the reviewer they may change, and makes whatever depends on them
// (a live stream's player_id, an output) unknown too. What does change on every update
// (updated_at) is the counter-check: it must show unknown, or the checks would not see unknowns.

// KeptInUpdate checks, in the plan of an update of addr, that each attribute of kept is known
// (ExpectKnownValue: a value that is known after apply has no known value to match) and that
// updated_at is unknown.
func KeptInUpdate(addr string, kept map[string]knownvalue.Check) []plancheck.PlanCheck {
	checks := []plancheck.PlanCheck{
		plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
		plancheck.ExpectUnknownValue(addr, tfjsonpath.New("updated_at")),
	}
	for name, want := range kept {
		checks = append(checks, plancheck.ExpectKnownValue(addr, tfjsonpath.New(name), want))
	}
	return checks
}

// HasError reports whether diags hold an error with summary whose detail says every one of
// words.
func HasError(diags []*tfprotov6.Diagnostic, summary string, words ...string) bool {
	for _, d := range diags {
		if d.Severity != tfprotov6.DiagnosticSeverityError || d.Summary != summary {
			continue
		}
		ok := true
		for _, w := range words {
			ok = ok && strings.Contains(d.Detail, w)
		}
		if ok {
			return true
		}
	}
	return false
}

func DiagText(diags []*tfprotov6.Diagnostic) string {
	var b strings.Builder
	for _, d := range diags {
		b.WriteString(d.Summary + ": " + d.Detail + "\n")
	}
	return b.String()
}
