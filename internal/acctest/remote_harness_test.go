package acctest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// envRemoteChild names what TestRemoteChild plays when this test binary runs as a child of the
// tests below.
const envRemoteChild = "VIDEOHOST_REMOTE_CHILD"

// childReady is the line TestRemoteChild prints once its objects are made and one more create
// has reached the service without its answer reaching the test.
const childReady = "remote child: objects made, one create unanswered"

// TestRemoteChild is a remote acceptance test as the harness runs it (VIDEOHOST_EMULATOR=0), for
// the tests below, which run this binary again with VIDEOHOST_REMOTE_CHILD set: "harness" makes
// a webhook outside Terraform, as many tests do first; the others make two upload tokens and a
// webhook, send a third token's create that the service stores and whose answer never comes
// back, print childReady, and then die as a run's test binary dies: "sigint" waits for the
// parent's Ctrl-C, "timeout" for go test's -timeout, "deadline" meets its own deadline
// (VIDEOHOST_TEST_DEADLINE), "panic" panics.
func TestRemoteChild(t *testing.T) {
	mode := os.Getenv(envRemoteChild)
	if mode == "" {
		t.Skip("a child process of TestRemoteHarnessRefusesBeforeAnyRequest and TestLedgerSurvivesItsBinary, not a test of its own")
	}
	if mode == "harness" {
		env := NewAccEnv(t, emulator.Options{})
		CreateWebhookOutside(t, env, "https://hooks.example.test/"+env.Name("hook"), "video.encoding.quality.completed")
		return
	}
	reached, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	// The third token's create goes to the service, which stores it; its answer is held until
	// the test ends (a panic's cleanups), as a binary killed mid-request never sees it.
	hold := func(next http.Handler) http.Handler {
		n := 0
		var mu sync.Mutex
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			if r.Method == http.MethodPost && r.URL.Path == "/upload-tokens" {
				n++
			}
			third := n == 3 && r.Method == http.MethodPost && r.URL.Path == "/upload-tokens"
			mu.Unlock()
			if !third {
				next.ServeHTTP(w, r)
				return
			}
			next.ServeHTTP(&discardWriter{header: http.Header{}}, r)
			once.Do(func() { close(reached) })
			select {
			case <-release:
			case <-r.Context().Done():
			}
		})
	}
	env := remoteAccEnv(t, hold)
	t.Cleanup(func() { close(release) })
	c := ServiceClient(t, env)
	for range 2 {
		if _, err := c.CreateUploadToken(t.Context(), 0); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.CreateWebhook(t.Context(), videohost.CreateWebhookInput{URL: "https://hooks.example.test/" + env.Name("hook"), Events: []string{"video.encoding.quality.completed"}}); err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = c.CreateUploadToken(context.Background(), 0) }()
	<-reached
	fmt.Println(childReady)
	switch mode {
	case "panic":
		panic("the remote child panics, as a test's bug would")
	case "deadline":
		t.Setenv(envTestDeadline, "1ns")
		watchDeadline(t, env.remote.inFlight.String)
	}
	select {}
}

// discardWriter takes an answer and drops it.
type discardWriter struct{ header http.Header }

func (w *discardWriter) Header() http.Header         { return w.header }
func (w *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (w *discardWriter) WriteHeader(int)             {}

// runRemoteChild runs TestRemoteChild in mode against the endpoint base with key, its ledger in
// dir, with the extra environment and arguments, and returns its output and exit error.
// onReady, when not nil, is called once the child printed childReady. The context only bounds a
// child that would hang; no assertion depends on how long it ran.
func runRemoteChild(t *testing.T, mode, base, key, dir string, env, args []string, onReady func(*exec.Cmd)) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], append([]string{"-test.run=^TestRemoteChild$", "-test.v"}, args...)...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "VIDEOHOST_") && !strings.HasPrefix(kv, "TF_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, envRemoteChild+"="+mode, "VIDEOHOST_EMULATOR=0", "TF_ACC=1", "VIDEOHOST_API_KEY="+key,
		"VIDEOHOST_BASE_URL="+base, envLedger+"="+dir, envRun+"=child")
	cmd.Env = append(cmd.Env, env...)
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var lines []string
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if sc.Text() == childReady && onReady != nil {
			onReady(cmd)
		}
	}
	err = cmd.Wait()
	return strings.Join(lines, "\n"), err
}

// TestRemoteHarnessRefusesBeforeAnyRequest: a remote test (VIDEOHOST_EMULATOR=0) pointed at a
// loopback server that is not an emulator, as a tunnel to production would be, fails before
// any request with the key: the server gets the guard's probe alone, which carries none.
// Allowed (VIDEOHOST_ALLOW_PRODUCTION=1), the same test sends its requests, with the key, there:
// the spy sees them when they are sent.
func TestRemoteHarnessRefusesBeforeAnyRequest(t *testing.T) {
	for _, allowed := range []bool{false, true} {
		t.Run(fmt.Sprintf("allowed=%t", allowed), func(t *testing.T) {
			spy := newSpyServer(t, "127.0.0.1:0", nil)
			var env []string
			if allowed {
				env = append(env, EnvAllowProduction+"=1")
			}
			out, err := runRemoteChild(t, "harness", spy.URL, "the-key", filepath.Join(t.TempDir(), "ledger"), env, nil, nil)
			if err == nil {
				t.Errorf("the child passed against a server that is not the emulator:\n%s", out)
			}
			if allowed {
				if spy.withKey() == 0 {
					t.Errorf("allowed, the child sent nothing with the key (%q): the spy cannot tell a refusal from a test that sends nothing\n%s", spy.requests(), out)
				}
				return
			}
			if !strings.Contains(out, "does not answer as the videohost emulator") || !strings.Contains(out, EnvAllowProduction+"=1") {
				t.Errorf("the child's output does not say why it refused, nor how to allow it:\n%s", out)
			}
			if got := spy.requests(); spy.withKey() != 0 || len(got) != 1 || got[0] != "GET /_emulator/ auth=" {
				t.Errorf("the server was sent %q, want the probe alone, without a key", got)
			}
		})
	}
}

// TestLedgerSurvivesItsBinary: a remote test binary that dies after making objects (a Ctrl-C,
// go test's -timeout, its own deadline, a panic), one create still unanswered, leaves a ledger
// that lists each object it left, with the create no one saw the answer to, and names the
// command that sweeps them; the sweeper, given that ledger, deletes every object whose id it
// holds (the upload tokens have no name to find them by), and only the unanswered token stays.
func TestLedgerSurvivesItsBinary(t *testing.T) {
	for _, tc := range []struct {
		mode  string
		extra []string
		says  string
	}{
		{"sigint", nil, ""},
		{"timeout", []string{"-test.timeout=20s"}, "test timed out"},
		{"deadline", nil, "past its deadline"},
		{"panic", nil, "the remote child panics"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			base, key := emulatorAt(t, "127.0.0.1:0", emulator.Options{})
			dir := filepath.Join(t.TempDir(), "ledger")
			ready := false
			out, err := runRemoteChild(t, tc.mode, base, key, dir, nil, tc.extra, func(cmd *exec.Cmd) {
				ready = true
				if tc.mode == "sigint" {
					if err := cmd.Process.Signal(os.Interrupt); err != nil {
						t.Errorf("interrupting the child: %v", err)
					}
				}
			})
			var exit *exec.ExitError
			switch {
			case !ready:
				t.Fatalf("the child died before it made its objects (%v):\n%s", err, out)
			case !errors.As(err, &exit):
				t.Fatalf("the child ended with %v, want it stopped:\n%s", err, out)
			case tc.mode == "sigint" && !exit.Sys().(syscall.WaitStatus).Signaled(): //nolint:forcetypeassert // exec's own type on unix.
				t.Errorf("the child ended with %v, want it killed by SIGINT", err)
			case !strings.Contains(out, tc.says):
				t.Errorf("the child's output does not say %q:\n%s", tc.says, out)
			}
			c, err := videohost.New(videohost.Config{BaseURL: base, APIKey: key, AuthScheme: videohost.AuthBasic, Version: "test"})
			if err != nil {
				t.Fatal(err)
			}
			tokens, err := c.ListUploadTokens(t.Context(), videohost.UploadTokenFilter{})
			if err != nil {
				t.Fatal(err)
			}
			hooks, err := c.ListWebhooks(t.Context(), "")
			if err != nil {
				t.Fatal(err)
			}
			if len(tokens) != 3 || len(hooks) != 1 {
				t.Fatalf("the service holds %d tokens and %d webhooks, want the child's 3 and 1", len(tokens), len(hooks))
			}

			entries, err := ReadLedger(dir)
			if err != nil {
				t.Fatal(err)
			}
			var report strings.Builder
			tally, _ := WriteLedgerReport(&report, dir, entries)
			left := map[string]bool{}
			for _, e := range tally.Left {
				left[e.Kind+" "+e.ID] = true
			}
			var held int
			for _, tok := range tokens {
				if left["upload token "+tok.Token] {
					held++
				}
			}
			if held != 2 || !left["webhook "+hooks[0].ID] || len(tally.Left) != 3 {
				t.Errorf("the ledger left %+v: want 2 of the service's 3 tokens and its webhook", tally.Left)
			}
			if len(tally.Unanswered) != 1 || tally.Unanswered[0].Kind != "upload token" {
				t.Errorf("unanswered %+v: want the third token's create", tally.Unanswered)
			}
			for _, want := range []string{"upload token      2 created,    0 deleted,    2 left", "left: webhook " + hooks[0].ID, "left: upload token ",
				"perhaps left: upload token (no name) by TestRemoteChild", SweepCommand(dir)} {
				if !strings.Contains(report.String(), want) {
					t.Errorf("the summary does not say %q:\n%s", want, report.String())
				}
			}

			var swept strings.Builder
			if _, err := Sweep(t.Context(), c, nil, LedgerIDs(entries), &swept); err != nil {
				t.Fatal(err)
			}
			tokens, err = c.ListUploadTokens(t.Context(), videohost.UploadTokenFilter{})
			if err != nil {
				t.Fatal(err)
			}
			hooks, err = c.ListWebhooks(t.Context(), "")
			if err != nil {
				t.Fatal(err)
			}
			if len(tokens) != 1 || len(hooks) != 0 {
				t.Errorf("after the sweep with the ledger, %d tokens and %d webhooks are left, want the unanswered token alone:\n%s", len(tokens), len(hooks), swept.String())
			}
		})
	}
}

// TestAccRemoteScriptRefusesBeforeAnyRequest: make testacc-remote pointed at a loopback server
// that is not an emulator stops before its inventory, its tests or anything else sends the key
// there: the server gets the guard's probe alone, and the script says why and how to allow it.
func TestAccRemoteScriptRefusesBeforeAnyRequest(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("runs scripts/testacc-remote.sh, which builds the sweep program: only with TF_ACC=1")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	spy := newSpyServer(t, "127.0.0.1:0", nil)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", filepath.Join(root, "scripts", "testacc-remote.sh"))
	cmd.Dir = root
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "VIDEOHOST_") && !strings.HasPrefix(kv, "TESTACC_") && !strings.HasPrefix(kv, "TF_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "VIDEOHOST_API_KEY=the-key", "VIDEOHOST_BASE_URL="+spy.URL, "TESTACC_REMOTE_INVENTORY=1")
	res := RunInGroup(ctx, t, cmd)
	out := string(res.Output)
	if res.Err == nil {
		t.Errorf("the script passed against a server that is not the emulator:\n%s", out)
	}
	for _, want := range []string{"does not answer as the videohost emulator", "refusing to send the key to " + spy.URL, EnvAllowProduction + "=1"} {
		if !strings.Contains(out, want) {
			t.Errorf("the script's output does not say %q:\n%s", want, out)
		}
	}
	if got := spy.requests(); spy.withKey() != 0 || len(got) != 1 || got[0] != "GET /_emulator/ auth=" {
		t.Errorf("the server was sent %q, want the probe alone, without a key", got)
	}
}
