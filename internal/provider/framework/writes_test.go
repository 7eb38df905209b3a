package framework_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/events"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/provider/webhook"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// writesEnv is an emulator, slowed in one phase by a slowService, and a client of it, without
// Terraform: the shared create and delete machinery is called as the webhook resource calls it,
// with a context that the test cancels as Terraform does on Ctrl-C.
func writesEnv(t *testing.T, opts emulator.Options, slow func(http.Handler) *acctest.SlowService) (*emulator.Emulator, *framework.ProviderData, *acctest.SlowService) {
	t.Helper()
	var ss *acctest.SlowService
	emu, baseURL := acctest.ServeEmulator(t, opts, func(emu *emulator.Emulator) http.Handler {
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
	return emu, &framework.ProviderData{Client: client, Environment: client.Environment(), BaseURL: client.BaseURL()}, ss
}

var interruptHook = videohost.CreateWebhookInput{URL: "https://hooks.example.test/interrupt", Events: []string{events.VideoSourceRecorded}}

// createInterrupted runs the webhook's create through the machinery and cancels its context
// once cancelAt returns; it returns what the create recorded and its diagnostics.
func createInterrupted(t *testing.T, pd *framework.ProviderData, in videohost.CreateWebhookInput, cancelAt func()) (videohost.Webhook, bool, diag.Diagnostics) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go func() {
		cancelAt()
		cancel()
	}()
	var diags diag.Diagnostics
	w, ok := framework.CreateObject(ctx, pd, webhook.WebhookWrites, &diags, webhook.WebhookCreateOps(pd, in))
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
	if _, err := pd.Client.CreateWebhook(t.Context(), interruptHook); err != nil {
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
	emu, pd, ss := writesEnv(t, emulator.Options{}, func(h http.Handler) *acctest.SlowService {
		return acctest.NewSlowService(h, acctest.HoldBeforeHandling, time.Second, acctest.IsWebhooks(http.MethodPost))
	})
	w, ok, diags := createInterrupted(t, pd, interruptHook, func() { ss.Await(1, 10*time.Second) })
	checkRecorded(t, emu, w, ok, diags)
}

func TestCreateInterruptedWhileTheResponseIsRead(t *testing.T) {
	emu, pd, ss := writesEnv(t, emulator.Options{}, func(h http.Handler) *acctest.SlowService {
		return acctest.NewSlowService(h, acctest.HoldInBody, time.Second, acctest.IsWebhooks(http.MethodPost))
	})
	w, ok, diags := createInterrupted(t, pd, interruptHook, func() { ss.Await(1, 10*time.Second) })
	checkRecorded(t, emu, w, ok, diags)
}

func TestCreateInterruptedWhileTheSecretIsListed(t *testing.T) {
	// The create's response lacks the secret (the emulator's default, as in the specification's
	// samples): the list walk that finds it is in flight when Terraform is interrupted.
	emu, pd, ss := writesEnv(t, emulator.Options{}, func(h http.Handler) *acctest.SlowService {
		return acctest.NewSlowService(h, acctest.HoldBeforeHandling, time.Second, acctest.IsWebhooks(http.MethodGet))
	})
	w, ok, diags := createInterrupted(t, pd, interruptHook, func() { ss.Await(1, 10*time.Second) })
	checkRecorded(t, emu, w, ok, diags)
}

func TestCreateInterruptedFindsWhatAnUnansweredCreateStored(t *testing.T) {
	// The service stores the webhook and the response never comes back whole (a 500 after the
	// commit, as a proxy gives up): the interrupted create finds it in the list on a fresh
	// context, and records it, instead of sending the create again or orphaning it.
	emu, pd, ss := writesEnv(t, emulator.Options{Faults: emulator.Faults{CommitThen500Rate: 1}}, func(h http.Handler) *acctest.SlowService {
		return acctest.NewSlowService(h, acctest.HoldBeforeHandling, time.Second, acctest.IsWebhooks(http.MethodGet))
	})
	w, ok, diags := createInterrupted(t, pd, interruptHook, func() { ss.Await(1, 10*time.Second) })
	checkRecorded(t, emu, w, ok, diags)
	if r := emu.RateStats().Writes.Requests; r != 1 {
		t.Fatalf("%d creates were sent, want 1: an interrupted create is never sent again", r)
	}
}

func TestDeleteInterruptedWhileWaitingForTheRateLimit(t *testing.T) {
	emu, pd, _ := writesEnv(t, emulator.Options{Limits: emulator.Limits{Writes: 1}, RateWindow: time.Minute}, nil)
	w, err := pd.Client.CreateWebhook(t.Context(), interruptHook)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	var diags diag.Diagnostics
	gone := framework.DeleteObject(ctx, pd, webhook.WebhookWrites, &diags, w.ID, func(ctx context.Context) error { return pd.Client.DeleteWebhook(ctx, w.ID) })
	if gone {
		t.Fatal("a delete interrupted before it was sent reported the webhook gone")
	}
	oneDiagnostic(t, diags, diag.SeverityError, "Webhook Delete Interrupted", "interrupted before anything was sent")
	if n := len(emu.Webhooks()); n != 1 {
		t.Fatalf("the service holds %d webhooks, want 1: the delete must not be sent", n)
	}
}

func TestDeleteInterruptedWithTheRequestInFlight(t *testing.T) {
	emu, pd, ss := writesEnv(t, emulator.Options{}, func(h http.Handler) *acctest.SlowService {
		return acctest.NewSlowService(h, acctest.HoldBeforeHandling, time.Second, func(r *http.Request) bool { return r.Method == http.MethodDelete })
	})
	w, err := pd.Client.CreateWebhook(t.Context(), interruptHook)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go func() {
		ss.Await(1, 10*time.Second)
		cancel()
	}()
	var diags diag.Diagnostics
	gone := framework.DeleteObject(ctx, pd, webhook.WebhookWrites, &diags, w.ID, func(ctx context.Context) error { return pd.Client.DeleteWebhook(ctx, w.ID) })
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
	w, ok := framework.CreateObject(t.Context(), pd, webhook.WebhookWrites, &diags, webhook.WebhookCreateOps(pd, interruptHook))
	if !ok || len(diags) != 0 || w.SignatureSecret == "" {
		t.Fatalf("create: ok %v, secret set %v, diagnostics %v", ok, w.SignatureSecret != "", diags)
	}
	if !framework.DeleteObject(t.Context(), pd, webhook.WebhookWrites, &diags, w.ID, func(ctx context.Context) error { return pd.Client.DeleteWebhook(ctx, w.ID) }) || len(diags) != 0 {
		t.Fatalf("delete: diagnostics %v", diags)
	}
	if n := len(emu.Webhooks()); n != 0 {
		t.Fatalf("the service holds %d webhooks", n)
	}
}

// These tests press Ctrl-C on a real `terraform apply` (and destroy): they send SIGINT to the
// process group of a terraform process, as a terminal does, at a chosen phase of the creates,
// against the emulator slowed in that phase. Then the emulator's webhooks must be exactly the
// state's, a second apply must complete the configuration without duplicates, and destroy must
// leave nothing.

// interruptWebhooks is how many webhooks each configuration holds.
const interruptWebhooks = 6

// tfRun is a terraform process started for an interruption test.
type tfRun struct {
	cmd  *exec.Cmd
	out  *bytes.Buffer
	done chan error
}

// interruptEnv is one test's service (an emulator, or a real endpoint), behind a proxy of the
// test's that a switchable slowService slows, and a working directory whose configuration holds
// interruptWebhooks webhooks of it, whose URLs carry the test's name.
type interruptEnv struct {
	t         *testing.T
	tfBin     string
	cliConfig string
	work      string
	env       *acctest.AccEnv
	emu       *emulator.Emulator // nil against a real endpoint
	client    *videohost.Client
	hookURL   string // the start of the URL of each of the test's webhooks
	slow      *acctest.SlowService
	slowOn    *atomic.Bool
	made      *createCounter
	// refuse, when set, makes the test's proxy refuse that create (1 for the first) with a 429.
	refuse *refuseCreate
}

// createCounter counts the webhooks that the service made: the creates it answered with a
// success. Against a real endpoint it is the only count of the test's own writes that 429s of
// a shared rate limit do not blur. It also counts the creates refused for the rate limit: a
// budget that the run's tests share (the suite against the emulator's binary, or a sandbox)
// can refuse one that had reached the service, and its retry waits past Ctrl-C.
type createCounter struct {
	next    http.Handler
	n       atomic.Int64
	refused atomic.Int64
}

func (c *createCounter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/webhooks" {
		c.next.ServeHTTP(w, r)
		return
	}
	sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
	c.next.ServeHTTP(sw, r)
	switch {
	case sw.status/100 == 2:
		c.n.Add(1)
	case sw.status == http.StatusTooManyRequests:
		c.refused.Add(1)
	}
}

func (c *createCounter) count() int { return int(c.n.Load()) }

// refusedCount is how many creates the service refused for the rate limit.
func (c *createCounter) refusedCount() int { return int(c.refused.Load()) }

// refuseCreate answers one create of webhooks (the nth, from 1) with a 429 whose Retry-After
// outlasts the test, as a window spent by other tests on the key does, and passes everything
// else on.
type refuseCreate struct {
	next http.Handler
	nth  int64
	seen atomic.Int64
}

func (c *refuseCreate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if c.nth == 0 || r.Method != http.MethodPost || r.URL.Path != "/webhooks" || c.seen.Add(1) != c.nth {
		c.next.ServeHTTP(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Set("X-RateLimit-Limit", "40")
	w.Header().Set("X-RateLimit-Remaining", "0")
	w.Header().Set("X-RateLimit-Retry-After", "600")
	w.WriteHeader(http.StatusTooManyRequests)
	_, _ = io.WriteString(w, `{"type":"https://docs.api.video/reference/too-many-requests","title":"Too many requests.","status":429}`)
}

// statusWriter keeps the status of the response it writes.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

// Flush passes on the flushes of slowService, which sends half a body before its hold.
func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// switchable passes requests to the slow service only while on is set.
type switchable struct {
	on   *atomic.Bool
	slow *acctest.SlowService
	next http.Handler
}

func (s switchable) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.on.Load() {
		s.slow.ServeHTTP(w, r)
		return
	}
	s.next.ServeHTTP(w, r)
}

// newInterruptEnv starts the test's service (acctest.NewAccEnv, with opts in-process) and the
// slowing proxy in front of it, and writes the configuration. Webhooks of the test that a
// failed test leaves are deleted when it ends.
func newInterruptEnv(t *testing.T, tfBin, cliConfig string, opts emulator.Options, phase string, match func(*http.Request) bool) *interruptEnv {
	t.Helper()
	env := acctest.NewAccEnv(t, opts)
	e := &interruptEnv{t: t, tfBin: tfBin, cliConfig: cliConfig, work: t.TempDir(), slowOn: &atomic.Bool{},
		env: env, emu: env.Emu, client: acctest.ServiceClient(t, env), hookURL: "https://hooks.example.test/" + env.Name("interrupt") + "/"}
	target, err := url.Parse(env.BaseURL)
	if err != nil {
		t.Fatal(err)
	}
	e.refuse = &refuseCreate{next: &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) { r.SetURL(target) }}}
	e.made = &createCounter{next: e.refuse}
	e.slow = acctest.NewSlowService(e.made, phase, acctest.InterruptHold, match)
	srv := httptest.NewServer(switchable{on: e.slowOn, slow: e.slow, next: e.made})
	t.Cleanup(srv.Close)
	t.Cleanup(func() {
		for _, w := range e.webhooks(context.Background()) {
			if err := e.client.DeleteWebhook(context.Background(), w.ID); err != nil && !errors.Is(err, videohost.ErrNotFound) {
				t.Errorf("deleting webhook %s that the test left: %v", w.ID, err)
			}
		}
	})
	// Against a real endpoint the key stays out of the file: terraform's environment gives it
	// to the provider (acctest.TerraformEnv).
	key := ""
	if e.emu != nil {
		key = "api_key     = " + acctest.Hcl(env.APIKey)
	}
	acctest.WriteFile(t, filepath.Join(e.work, "main.tf"), fmt.Sprintf(`terraform {
  required_providers {
    videohost = { source = "videohost/videohost" }
  }
}

provider "videohost" {
  base_url    = %s
  %s
  auth_scheme = "basic"
}

resource "videohost_webhook" "w" {
  count  = %d
  url    = "%s${count.index}"
  events = [%q]
}
`, acctest.Hcl(srv.URL), key, interruptWebhooks, e.hookURL, events.VideoSourceRecorded))
	return e
}

// webhooks are the test's webhooks on the service, found by their URL among the workspace's.
func (e *interruptEnv) webhooks(ctx context.Context) []videohost.Webhook {
	e.t.Helper()
	all, err := e.client.ListWebhooks(ctx, "")
	if err != nil {
		e.t.Fatalf("listing the webhooks: %v", err)
	}
	var ours []videohost.Webhook
	for _, w := range all {
		if strings.HasPrefix(w.URL, e.hookURL) {
			ours = append(ours, w)
		}
	}
	return ours
}

// requireEmulator skips a case that needs the emulator (why) against a real endpoint.
func (e *interruptEnv) requireEmulator(why string) {
	e.t.Helper()
	e.env.RequireEmulatorFor(e.t, why)
}

// start starts terraform with args in its own process group, so that SIGINT can reach the group
// as Ctrl-C does: terraform and the provider it runs.
func (e *interruptEnv) start(args ...string) *tfRun {
	e.t.Helper()
	cmd := exec.Command(e.tfBin, args...)
	cmd.Dir = e.work
	cmd.Env = acctest.TerraformEnv(e.cliConfig)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		e.t.Fatalf("starting terraform: %v", err)
	}
	r := &tfRun{cmd: cmd, out: &out, done: make(chan error, 1)}
	go func() { r.done <- cmd.Wait() }()
	e.t.Cleanup(func() {
		// A test that failed half way must not leave terraform running.
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		if _, ended := r.wait(10 * time.Second); !ended {
			e.t.Log("terraform did not end within 10 s of SIGKILL")
		}
	})
	return r
}

// wait waits at most d for the run to end; false when it did not.
func (r *tfRun) wait(d time.Duration) (error, bool) {
	select {
	case err := <-r.done:
		r.done <- err
		return err, true
	case <-time.After(d):
		return nil, false
	}
}

// Run runs terraform to its end (at most 3 minutes) and fails the test when it fails.
func (e *interruptEnv) Run(args ...string) {
	e.t.Helper()
	r := e.start(args...)
	err, ended := r.wait(3 * time.Minute)
	if !ended {
		e.t.Fatalf("terraform %s did not end within 3 minutes:\n%s", strings.Join(args, " "), r.out)
	}
	if err != nil {
		e.t.Fatalf("terraform %s: %v\n%s", strings.Join(args, " "), err, r.out)
	}
}

// interrupt sends SIGINT to the run's process group once ready returns true, then waits for
// terraform to exit, checks that it did so within the bound, and returns its output.
// ready must bound its own wait.
func (e *interruptEnv) interrupt(r *tfRun, ready func() bool) string {
	e.t.Helper()
	if !ready() {
		_ = syscall.Kill(-r.cmd.Process.Pid, syscall.SIGKILL)
		e.t.Fatalf("the phase to interrupt was not reached:\n%s", r.out)
	}
	if _, ended := r.wait(0); ended {
		e.t.Fatalf("terraform ended before the phase to interrupt:\n%s", r.out)
	}
	sent := time.Now()
	if err := syscall.Kill(-r.cmd.Process.Pid, syscall.SIGINT); err != nil {
		e.t.Fatalf("sending SIGINT: %v", err)
	}
	_, ended := r.wait(time.Minute)
	took := time.Since(sent)
	if !ended {
		e.t.Fatalf("terraform did not exit within a minute of SIGINT:\n%s", r.out)
	}
	out := r.out.String()
	if !strings.Contains(out, "Interrupt received") {
		e.t.Fatalf("terraform did not report the interrupt:\n%s", out)
	}
	// The bound: 10 s after Ctrl-C, plus at most one request timeout. The held request
	// takes interruptHold; the rest of the margin is for a loaded machine, where terraform itself
	// is slow to stop, so the figure logged below is the measure and this only catches a hang.
	if bound := 10*time.Second + videohost.DefaultTimeout; took > bound {
		e.t.Errorf("terraform exited %s after SIGINT, over the bound of %s", took.Round(time.Millisecond), bound)
	}
	e.t.Logf("terraform exited %s after SIGINT", took.Round(time.Millisecond))
	return out
}

// stateSecrets reads the webhooks of the state file: id to signature secret.
func (e *interruptEnv) stateSecrets() map[string]string {
	e.t.Helper()
	raw, err := os.ReadFile(filepath.Join(e.work, "terraform.tfstate"))
	if os.IsNotExist(err) {
		return map[string]string{}
	}
	if err != nil {
		e.t.Fatal(err)
	}
	var st struct {
		Resources []struct {
			Type      string `json:"type"`
			Instances []struct {
				Attributes struct {
					ID              string `json:"id"`
					SignatureSecret string `json:"signature_secret"`
				} `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		e.t.Fatalf("reading the state: %v", err)
	}
	m := map[string]string{}
	for _, r := range st.Resources {
		if r.Type != "videohost_webhook" {
			continue
		}
		for _, in := range r.Instances {
			m[in.Attributes.ID] = in.Attributes.SignatureSecret
		}
	}
	return m
}

// checkServiceMatchesState fails unless the service holds exactly the state's webhooks, and
// returns how many there are.
func (e *interruptEnv) checkServiceMatchesState(when string) int {
	e.t.Helper()
	state := e.stateSecrets()
	var onService, inState []string
	for _, w := range e.webhooks(e.t.Context()) {
		onService = append(onService, w.ID)
	}
	for id := range state {
		inState = append(inState, id)
	}
	slices.Sort(onService)
	slices.Sort(inState)
	if !slices.Equal(onService, inState) {
		e.t.Fatalf("%s: the service holds %v, the state %v", when, onService, inState)
	}
	return len(inState)
}

// The parts of a diagnostic in terraform's output that interruptDiagnostics reads.
var (
	// diagnosticStart finds the first line of a diagnostic: its severity and summary.
	diagnosticStart = regexp.MustCompile(`(?m)^[│ ]*(Error|Warning): (.+)$`)
	// diagnosticAbout finds the "with <address>," line that names the resource a diagnostic is
	// about.
	diagnosticAbout = regexp.MustCompile(`(?m)^[│ ]*with ([^,\n]+),`)
	// diagnosticMore finds the count of similar warnings that terraform folded into this one.
	diagnosticMore = regexp.MustCompile(`\(and (\d+) more similar warnings? elsewhere\)`)
)

// interruptDiagnostics returns, by resource address, the severity and summary of the
// provider's interruption diagnostics in out, and how many there are of each severity and
// summary (terraform folds similar warnings into one, "and N more similar warnings"). It fails
// when a resource has more than one.
func (e *interruptEnv) interruptDiagnostics(out string) (map[string]string, map[string]int) {
	e.t.Helper()
	by, counts := map[string]string{}, map[string]int{}
	starts := diagnosticStart.FindAllStringSubmatchIndex(out, -1)
	for i, m := range starts {
		end := len(out)
		if i+1 < len(starts) {
			end = starts[i+1][0]
		}
		block := out[m[0]:end]
		what := out[m[2]:m[3]] + ": " + strings.TrimSpace(out[m[4]:m[5]])
		if !strings.Contains(what, "Interrupted") {
			continue
		}
		counts[what]++
		if more := diagnosticMore.FindStringSubmatch(block); more != nil {
			var n int
			_, _ = fmt.Sscan(more[1], &n)
			counts[what] += n
		}
		about := diagnosticAbout.FindStringSubmatch(block)
		if about == nil {
			// Terraform names no resource in the diagnostics of a destroy.
			continue
		}
		if prev, dup := by[about[1]]; dup {
			e.t.Errorf("%s has two interruption diagnostics: %q and %q", about[1], prev, what)
		}
		by[about[1]] = what
	}
	return by, counts
}

// checkCompletes runs a second apply, which must create the rest without duplicates, then a
// destroy, which must leave nothing.
func (e *interruptEnv) checkCompletes() {
	e.t.Helper()
	e.slowOn.Store(false)
	e.freshWindow()
	e.Run("apply", "-auto-approve", "-no-color", "-input=false")
	if n := e.checkServiceMatchesState("after the second apply"); n != interruptWebhooks {
		e.t.Fatalf("after the second apply the service and the state hold %d webhooks, want %d", n, interruptWebhooks)
	}
	for id, secret := range e.stateSecrets() {
		if secret == "" {
			e.t.Errorf("webhook %s is in the state without its signature secret", id)
		}
	}
	e.freshWindow()
	e.Run("destroy", "-auto-approve", "-no-color", "-input=false")
	if n := len(e.webhooks(e.t.Context())); n != 0 {
		e.t.Fatalf("destroy left %d webhooks on the service", n)
	}
}

// freshWindow moves the emulator's clock to a fresh rate-limit window, so that the runs after an
// interrupt do not wait out the one the interrupted run spent. A real endpoint's window resets
// in its own time, which the provider waits for.
func (e *interruptEnv) freshWindow() {
	if e.emu != nil {
		e.emu.AdvanceClock(2 * time.Minute)
	}
}

// started counts the creates that terraform started, as its "Creating..." lines show: on a
// loaded machine Ctrl-C can come before terraform has started every create. A create that
// terraform announces only after the interrupt and that ends with neither a result nor a
// diagnostic (diags, by address) was halted by terraform before it called the provider (its
// stop hook runs after the line that announces the create): it is not counted (halted).
func started(out string, diags map[string]string) int {
	n := 0
	for i := range interruptWebhooks {
		addr := fmt.Sprintf("videohost_webhook.w[%d]", i)
		if strings.Contains(out, addr+": Creating...") && !halted(out, diags, addr) {
			n++
		}
	}
	return n
}

// halted reports whether terraform announced the create of addr only after the interrupt and
// then never called the provider: no result and no diagnostic.
func halted(out string, diags map[string]string, addr string) bool {
	before, after, _ := strings.Cut(out, "Interrupt received")
	return !strings.Contains(before, addr+": Creating...") && strings.Contains(after, addr+": Creating...") &&
		!strings.Contains(out, addr+": Creation complete") && diags[addr] == ""
}

// spendsTheWindow is why the cases that spend the rate window need the emulator.
const spendsTheWindow = "it moves the emulator's clock and spends the rate window with writes straight to the emulator"

// interruptLimit is the writes per minute of the emulators whose window the tests spend.
const interruptLimit = 40

// spendWrites spends n writes of the current rate window with requests of the test's own, as
// another pipeline on the same key would, and returns n. They create player themes, which the
// checks of the webhooks ignore, and go straight to the emulator, past any client's limiter.
func (e *interruptEnv) spendWrites(n int) int {
	e.t.Helper()
	for i := range n {
		req := httptest.NewRequest(http.MethodPost, "/players", strings.NewReader(`{"name":"another pipeline"}`))
		req.Header.Set("Content-Type", "application/json")
		req.SetBasicAuth(e.emu.APIKeys()[0], "")
		rec := httptest.NewRecorder()
		e.emu.ServeHTTP(rec, req)
		if rec.Code != http.StatusCreated {
			e.t.Fatalf("write %d of the other pipeline: %d %s", i+1, rec.Code, rec.Body)
		}
	}
	return n
}

// awaitWrites waits at most d until the service has answered n writes.
func awaitWrites(emu *emulator.Emulator, n int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if emu.RateStats().Writes.Requests >= n {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

// TestAccInterruptedApply sends Ctrl-C to terraform applying or destroying webhooks while a
// request is in flight, its response is being read or it waits for the rate limit, and checks
// what terraform says and that the service and the state agree. The cases that hold requests in
// the test's own proxy run against any service; those that spend the rate window or move the
// clock need the emulator.
func TestAccInterruptedApply(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance tests run only with TF_ACC=1")
	}
	// Its subtests are parallel, each with a service, a working directory and a terraform of
	// its own, so they overlap with each other and the other acceptance tests; its bounds on
	// terraform's exit allow for a loaded machine.
	acctest.Parallel(t)
	// The test runs the CLI itself, to send it SIGINT.
	tfBin := acctest.TerraformCLI(t)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	cliConfig := acctest.DevOverrideCLI(ctx, t)
	apply := []string{"apply", "-auto-approve", "-no-color", "-input=false"}

	t.Run("waiting for the rate limit", func(t *testing.T) {
		// Another pipeline on the key has spent the window but one write: the probe goes, and
		// the other creates wait for the limiter, for most of a minute, when Ctrl-C comes. They
		// are not sent, and say so once each. The second apply and the destroy have a fresh
		// window of 40 writes, so they do not wait for windows to reset.
		e := newInterruptEnv(t, tfBin, cliConfig, emulator.Options{Limits: emulator.Limits{Writes: interruptLimit}}, acctest.HoldBeforeHandling, func(*http.Request) bool { return false })
		e.requireEmulator(spendsTheWindow)
		spent := e.spendWrites(interruptLimit - 1)
		r := e.start(apply...)
		out := e.interrupt(r, func() bool {
			ok := awaitWrites(e.emu, spent+1, time.Minute)
			time.Sleep(time.Second)
			return ok
		})
		created := e.checkServiceMatchesState("after the interrupted apply")
		if created == 0 || created == interruptWebhooks {
			t.Fatalf("%d webhooks were created before the interrupt, want some but not all:\n%s", created, out)
		}
		diags, _ := e.interruptDiagnostics(out)
		if want := started(out, diags) - created; len(diags) != want {
			t.Errorf("%d resources say they were interrupted, want the %d that were started and not created: %v\n%s", len(diags), want, diags, out)
		}
		for addr, d := range diags {
			if d != "Error: Webhook Create Interrupted" {
				t.Errorf("%s: %s, want the error of a create interrupted before it was sent", addr, d)
			}
		}
		if !strings.Contains(out, "interrupted before anything was sent") {
			t.Errorf("the output does not say that nothing was sent:\n%s", out)
		}
		if n := e.emu.RateStats().Writes.Requests - spent; n != created {
			t.Errorf("the service saw %d writes for %d webhooks: a waiting create was sent after the interrupt", n, created)
		}
		e.checkCompletes()
	})

	sentPhases := []struct {
		name  string
		phase string
		match func(*http.Request) bool
		// holds is how many requests must reach the hold before Ctrl-C.
		holds int
		// refuse is the create (from 1) that the test's proxy refuses with a 429, 0 for none.
		refuse int64
	}{
		{"request in flight", acctest.HoldBeforeHandling, acctest.IsWebhooks(http.MethodPost), interruptWebhooks, 0},
		{"response being read", acctest.HoldInBody, acctest.IsWebhooks(http.MethodPost), interruptWebhooks, 0},
		{"list walk for the secret in flight", acctest.HoldBeforeHandling, acctest.IsWebhooks(http.MethodGet), 1, 0},
		// The second create reaches the service, which refuses it for a spent window, as the
		// budget that the suite's tests share against the emulator's binary once did: it was in
		// the hold when Ctrl-C came, but stored nothing, and its retry is never sent.
		{"request in flight, one refused for the rate limit", acctest.HoldBeforeHandling, acctest.IsWebhooks(http.MethodPost), interruptWebhooks, 2},
	}
	for _, p := range sentPhases {
		t.Run(p.name, func(t *testing.T) {
			e := newInterruptEnv(t, tfBin, cliConfig, emulator.Options{}, p.phase, p.match)
			if p.refuse != 0 && e.emu == nil {
				// Against a service that other tests share, the provider's limiter, which learns
				// the writes budget they spend, may send the creates left after the refusal too late
				// to be in the hold together with the others; the plain case accounts for what the
				// shared budget refuses.
				t.Skip("the test's proxy refuses one create, and the six must then be in flight together: " +
					"in-process only, not with VIDEOHOST_EMULATOR=0")
			}
			e.refuse.nth = p.refuse
			e.slowOn.Store(true)
			r := e.start(apply...)
			out := e.interrupt(r, func() bool { return e.slow.Await(p.holds, time.Minute) })
			// Every create that was sent lands in the state, with its secret, and says so once,
			// as a warning; a create still waiting to be sent is not sent, and says so once. The
			// holds requests in flight at Ctrl-C are creates of distinct webhooks, or a retry of
			// one that the service refused for the rate limit: each refused request stored
			// nothing, and leaves one webhook fewer to find.
			n := e.checkServiceMatchesState("after the interrupted apply")
			refused := e.made.refusedCount()
			if p.refuse != 0 && refused != 1 {
				t.Fatalf("the service refused %d creates, want the one the test's proxy refuses", refused)
			}
			if p.holds == interruptWebhooks && n < p.holds-refused {
				t.Fatalf("%d of the %d webhooks whose creates were in flight are on the service and in the state, %d of them refused for the rate limit:\n%s", n, p.holds, refused, out)
			}
			if refused > 0 {
				t.Logf("%d creates in flight were refused for the rate limit", refused)
			}
			for id, secret := range e.stateSecrets() {
				if secret == "" {
					t.Errorf("webhook %s is in the state without its signature secret", id)
				}
			}
			diags, counts := e.interruptDiagnostics(out)
			for addr, d := range diags {
				if d != "Warning: Webhook Create Interrupted After It Was Sent" && d != "Error: Webhook Create Interrupted" {
					t.Errorf("%s: %s", addr, d)
				}
			}
			recorded, notSent := counts["Warning: Webhook Create Interrupted After It Was Sent"], counts["Error: Webhook Create Interrupted"]
			if os.Getenv("INTERRUPT_DEBUG") != "" {
				t.Log(out)
			}
			t.Logf("%d webhooks created, %d of them interrupted and recorded, %d interrupted before they were sent", n, recorded, notSent)
			if began := started(out, diags); recorded == 0 || n+notSent != began {
				t.Errorf("%d created and %d not sent of the %d creates terraform started, with %d warnings of creates recorded: %v\n%s", n, notSent, began, recorded, counts, out)
			}
			// Each create that terraform started was either finished (and is in the state) or
			// says that it was not sent. One terraform had not started when Ctrl-C came, or
			// halted before calling the provider, has nothing to say.
			for i := range interruptWebhooks {
				addr := fmt.Sprintf("videohost_webhook.w[%d]", i)
				if !strings.Contains(out, addr+": Creating...") || halted(out, diags, addr) {
					continue
				}
				created := strings.Contains(out, addr+": Creation complete")
				if created == (diags[addr] == "Error: Webhook Create Interrupted") {
					t.Errorf("%s: created %v, diagnostic %q", addr, created, diags[addr])
				}
			}
			if w := e.made.count(); w != n {
				t.Errorf("the service made %d webhooks, and %d are on it and in the state", w, n)
			}
			e.checkCompletes()
		})
	}

	destroyPhases := []struct {
		name string
		opts emulator.Options
		slow bool
		// emulatorOnly says why the case needs the emulator, "" when it runs against any service.
		emulatorOnly string
		// before runs between the apply and the destroy.
		before func(e *interruptEnv)
		ready  func(e *interruptEnv) bool
	}{
		{"destroy with deletes in flight", emulator.Options{}, true, "", func(*interruptEnv) {}, func(e *interruptEnv) bool { return e.slow.Await(1, time.Minute) }},
		// In a new window, another pipeline on the key spends all but one write: the destroy's
		// first delete learns that the window is spent, and the others wait for the limiter,
		// for most of a minute.
		{"destroy waiting for the rate limit", emulator.Options{Limits: emulator.Limits{Writes: interruptLimit}}, false, spendsTheWindow, func(e *interruptEnv) {
			e.emu.AdvanceClock(2 * time.Minute)
			e.spendWrites(interruptLimit - 1)
		}, func(e *interruptEnv) bool {
			ok := awaitWrites(e.emu, interruptWebhooks+interruptLimit, time.Minute)
			time.Sleep(time.Second)
			return ok
		}},
	}
	for _, p := range destroyPhases {
		t.Run(p.name, func(t *testing.T) {
			e := newInterruptEnv(t, tfBin, cliConfig, p.opts, acctest.HoldBeforeHandling, func(r *http.Request) bool { return r.Method == http.MethodDelete })
			if p.emulatorOnly != "" {
				e.requireEmulator(p.emulatorOnly)
			}
			e.Run(apply...)
			p.before(e)
			e.slowOn.Store(p.slow)
			r := e.start("destroy", "-auto-approve", "-no-color", "-input=false")
			out := e.interrupt(r, func() bool { return p.ready(e) })
			// Each webhook is either deleted and out of the state or present and in it.
			left := e.checkServiceMatchesState("after the interrupted destroy")
			t.Logf("%d of %d webhooks left after the interrupted destroy", left, interruptWebhooks)
			if os.Getenv("INTERRUPT_DEBUG") != "" {
				t.Log(out)
			}
			diags, counts := e.interruptDiagnostics(out)
			for addr, d := range diags {
				if d != "Error: Webhook Delete Interrupted" && d != "Warning: Webhook Delete Interrupted After It Was Sent" {
					t.Errorf("%s: %s", addr, d)
				}
			}
			// A webhook left on the service is one whose delete was not sent, and says so, or one
			// whose delete terraform never started: it announces "Destroying..." after the
			// interrupt, then halts before calling the provider, which has nothing to say. A
			// provider that returned without deleting would have left a webhook in the service
			// but not in the state, which checkServiceMatchesState refuses.
			if n := counts["Error: Webhook Delete Interrupted"]; n > left {
				t.Errorf("%d webhooks are left, and %d deletes say they were interrupted before they were sent: %v\n%s", left, n, counts, out)
			}
			_, afterInterrupt, _ := strings.Cut(out, "Interrupt received")
			flat := strings.Join(strings.Fields(out), " ") // terraform wraps diagnostics
			for id := range e.stateSecrets() {
				said := strings.Contains(flat, "delete of this webhook. The webhook "+id+" still exists")
				neverStarted := !strings.Contains(out, "[id="+id+"]") || strings.Contains(afterInterrupt, "Destroying... [id="+id+"]")
				if !said && !neverStarted {
					t.Errorf("webhook %s is left, and its delete, started before the interrupt, says nothing of it\n%s", id, out)
				}
			}
			e.checkCompletes()
		})
	}
}
