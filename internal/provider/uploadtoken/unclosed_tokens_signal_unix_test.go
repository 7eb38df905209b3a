//go:build linux

package uploadtoken_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/provider/uploadtoken"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// A CI system that cancels a job sends SIGTERM to the job's process group, Terraform and its
// providers alike; an out-of-memory killer or a kill -9 ends Terraform alone. These tests run
// the real CLI against a development build of the provider, stop it in the middle of an apply
// that holds ephemeral upload tokens open, and count the tokens still live on the service and
// the provider processes still running. They run against any endpoint: the run's tokens are
// told apart from others of the workspace by their fingerprints, which the apply writes out.
// On a shared endpoint other runs spend the writes budget too, and a delete may wait for the
// next window: the provider then hands the tokens to a cleaner process, so the tests wait for
// the tokens to go, as long as a cleaner may take, and for every process of the build to end.

// stoppedRun is an apply started in a process group of its own, waiting in a provisioner while
// the run's ephemeral upload tokens are open.
type stoppedRun struct {
	t         *testing.T
	cmd       *exec.Cmd
	out       bytes.Buffer
	done      chan error
	env       *acctest.AccEnv
	client    *videohost.Client
	opened    map[string]bool // the fingerprints of the tokens the apply opened
	providers []int           // the provider processes Terraform started
	exe       string          // the provider's executable, which a cleaner runs too
}

// cleanerWithin is how long a test waits for the tokens to go and for the provider's cleaner
// to end: a cleaner's budget (2 minutes) and some.
const cleanerWithin = 150 * time.Second

// startStoppableApply starts terraform apply against env on a configuration whose apply opens 3
// ephemeral tokens and then sleeps in a provisioner, and returns once the provisioner has
// started.
func startStoppableApply(t *testing.T, env *acctest.AccEnv) *stoppedRun {
	t.Helper()
	w := acctest.NewCLIWorkdir(t.Context(), t, "1.10.0")
	started := filepath.Join(w.Dir, "started")
	// The provisioner writes the fingerprints of the open tokens (their ids), then says it
	// started by renaming the file, so that the test never reads it half written.
	w.WriteConfig(env, `auth_scheme = "basic"`, fmt.Sprintf(`
ephemeral "videohost_upload_token" "t" {
  count = 3
  ttl   = 900
}
resource "terraform_data" "wait" {
  provisioner "local-exec" {
    command     = "echo \"$TOKENS\" > %[1]s.tmp && mv %[1]s.tmp %[1]s && sleep 30"
    environment = { TOKENS = join(",", ephemeral.videohost_upload_token.t[*].id) }
  }
}
`, started))
	r := &stoppedRun{t: t, env: env, client: acctest.ServiceClient(t, env), done: make(chan error, 1)}
	r.cmd = exec.Command(w.Bin, "apply", "-auto-approve", "-no-color")
	r.cmd.Dir, r.cmd.Env = w.Dir, w.Env
	r.cmd.Stdout, r.cmd.Stderr = &r.out, &r.out
	r.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pgid := r.cmd.Process.Pid
	t.Cleanup(func() { _ = syscall.Kill(-pgid, syscall.SIGKILL) }) // the sleep, and anything left
	go func() { r.done <- r.cmd.Wait() }()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if _, err := os.Stat(started); err == nil {
			break
		}
		select {
		case err := <-r.done:
			t.Fatalf("terraform ended before the provisioner started: %v\n%s", err, r.out.String())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("the provisioner did not start in 2 minutes:\n%s", r.out.String())
		}
	}
	r.opened = map[string]bool{}
	for _, fp := range strings.Split(strings.TrimSpace(acctest.ReadText(t, started)), ",") {
		r.opened[fp] = true
	}
	// A test that fails before the provider closed them leaves no token behind.
	t.Cleanup(func() {
		left, err := r.client.ListUploadTokens(context.Background(), videohost.UploadTokenFilter{})
		if err != nil {
			t.Errorf("listing the tokens left: %v", err)
			return
		}
		for _, tok := range left {
			fp := uploadtoken.UploadTokenFingerprint(tok.Token)
			if !r.opened[fp] {
				continue
			}
			if err := r.client.DeleteUploadToken(context.Background(), tok.Token); err != nil && !errors.Is(err, videohost.ErrNotFound) {
				t.Errorf("deleting token %s that the test left: %v", fp, err)
			}
		}
	})
	r.providers = providerChildren(t, pgid)
	if len(r.providers) == 0 {
		t.Fatal("found no provider process started by terraform")
	}
	if r.exe, _ = os.Readlink(fmt.Sprintf("/proc/%d/exe", r.providers[0])); r.exe == "" {
		t.Fatal("cannot read the provider's executable")
	}
	if n := r.liveTokens(); n != 3 {
		t.Fatalf("%d tokens live while the apply waits, want the 3 it opened", n)
	}
	return r
}

// providerChildren are the processes of this provider whose parent is pid.
func providerChildren(t *testing.T, pid int) []int {
	return processesWhere(t, func(p int, exe string) bool {
		return filepath.Base(exe) == "terraform-provider-videohost" && parentOf(p) == pid
	})
}

// processesOf are the running processes of the executable exe, removed since or not.
func processesOf(t *testing.T, exe string) []int {
	return processesWhere(t, func(p int, path string) bool {
		return strings.TrimSuffix(path, " (deleted)") == exe && alive(p)
	})
}

// processesWhere are the processes, by pid and executable, for which match holds.
func processesWhere(t *testing.T, match func(pid int, exe string) bool) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var found []int
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if exe, _ := os.Readlink(filepath.Join("/proc", e.Name(), "exe")); match(p, exe) {
			found = append(found, p)
		}
	}
	return found
}

// parentOf is the parent pid of pid from /proc, 0 when pid is gone.
func parentOf(pid int) int {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The command name, in parentheses, may hold spaces: the fields after it are fixed.
	fields := strings.Fields(string(raw[bytes.LastIndexByte(raw, ')')+1:]))
	if len(fields) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(fields[1])
	return ppid
}

// alive reports whether pid runs (a zombie, which has exited, does not).
func alive(pid int) bool {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	fields := strings.Fields(string(raw[bytes.LastIndexByte(raw, ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z"
}

// liveTokens counts the tokens on the service that the apply opened; in-process, every token of
// the emulator, which no one else uses, so that a token the provider opened besides them counts
// too.
func (r *stoppedRun) liveTokens() int {
	r.t.Helper()
	left, err := r.client.ListUploadTokens(r.t.Context(), videohost.UploadTokenFilter{})
	if err != nil {
		r.t.Fatal(err)
	}
	if r.env.Emu != nil {
		return len(left)
	}
	n := 0
	for _, tok := range left {
		if r.opened[uploadtoken.UploadTokenFingerprint(tok.Token)] {
			n++
		}
	}
	return n
}

// providersGone waits up to within for the provider processes to exit and fails the test with
// those still running.
func (r *stoppedRun) providersGone(within time.Duration) {
	r.t.Helper()
	deadline := time.Now().Add(within)
	for {
		var running []int
		for _, p := range r.providers {
			if alive(p) {
				running = append(running, p)
			}
		}
		if len(running) == 0 {
			return
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("provider processes %v still run %s after terraform", running, within)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// tokensGone waits up to within for the run's tokens to be deleted, then for every process of
// the provider's executable (its cleaner among them) to end, and fails the test with what is
// left.
func (r *stoppedRun) tokensGone(within time.Duration, after string) {
	r.t.Helper()
	deadline := time.Now().Add(within)
	for n := r.liveTokens(); n != 0; n = r.liveTokens() {
		if time.Now().After(deadline) {
			r.t.Fatalf("%d ephemeral tokens live %s after %s, want none:\n%s", n, within, after, r.out.String())
		}
		time.Sleep(250 * time.Millisecond)
	}
	for left := processesOf(r.t, r.exe); len(left) > 0; left = processesOf(r.t, r.exe) {
		if time.Now().After(deadline) {
			r.t.Fatalf("processes %v of the provider's executable still run %s after %s", left, within, after)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// stopWithSIGTERM sends SIGTERM to Terraform's process group (a CI cancel) and checks that
// Terraform fails the run and the provider it started exits.
func (r *stoppedRun) stopWithSIGTERM() {
	r.t.Helper()
	if err := syscall.Kill(-r.cmd.Process.Pid, syscall.SIGTERM); err != nil {
		r.t.Fatal(err)
	}
	select {
	case err := <-r.done:
		if err == nil {
			r.t.Fatalf("terraform succeeded after SIGTERM:\n%s", r.out.String())
		}
	case <-time.After(time.Minute):
		r.t.Fatalf("terraform still runs a minute after SIGTERM:\n%s", r.out.String())
	}
	r.providersGone(5 * time.Second)
}

// TestAccSIGTERMToTheGroupClosesEphemeralTokens: SIGTERM to Terraform's process group (a CI
// cancel) ends the run as Ctrl-C does: Terraform fails the run, the provider exits, and no
// ephemeral token of the run stays live.
func TestAccSIGTERMToTheGroupClosesEphemeralTokens(t *testing.T) {
	r := startStoppableApply(t, acctest.NewAccEnv(t, emulator.Options{Limits: acctest.RaisedLimits}))
	r.stopWithSIGTERM()
	r.tokensGone(cleanerWithin, "SIGTERM to the group")
}

// TestAccSIGTERMWithTheWritesBudgetSpent: the apply spends the writes budget of the window on
// its tokens, so their deletes must wait for the next window, longer than Terraform lets the
// provider live once stopped. The provider still exits at once, and a cleaner it leaves deletes
// the tokens once the window has passed, then ends, though the provider's file was removed
// meanwhile (a rebuild, an upgrade of the plugin cache).
func TestAccSIGTERMWithTheWritesBudgetSpent(t *testing.T) {
	// 3 writes a window of 5 s: the plan's 3 openings, its 3 closings and the apply's 3
	// openings each wait for a window of their own, and the apply's spend the last one.
	env := acctest.NewAccEnv(t, emulator.Options{
		Limits:     emulator.Limits{Writes: 3, Reads: acctest.RaisedLimits.Reads, Uploads: acctest.RaisedLimits.Uploads},
		RateWindow: 5 * time.Second,
	})
	env.RequireEmulatorFor(t, "it sets the writes budget of the service's rate window")
	r := startStoppableApply(t, env)
	if err := os.Remove(r.exe); err != nil {
		t.Fatal(err)
	}
	r.stopWithSIGTERM()
	r.tokensGone(30*time.Second, "SIGTERM to the group")
}

// TestAccSIGTERMWithASlowService: the service answers a delete of an upload token 5 s late, and
// drops one whose client hung up, as a slow link does. Once Terraform has stopped it, the
// provider's deletes are cut at the end of its 1.5 s, before Terraform kills it at 2 s, rather
// than held until the request timeout, and it hands the tokens to a cleaner, which deletes them
// however late the service answers, then ends.
func TestAccSIGTERMWithASlowService(t *testing.T) {
	tokenDeletes := func(r *http.Request) bool {
		return r.Method == http.MethodDelete && strings.HasPrefix(r.URL.Path, "/upload-tokens/")
	}
	env := acctest.NewAccEnvBehind(t, emulator.Options{Limits: acctest.RaisedLimits}, func(emu *emulator.Emulator) http.Handler {
		return acctest.NewSlowService(emu, acctest.HoldOnTheWay, 5*time.Second, tokenDeletes)
	})
	r := startStoppableApply(t, env)
	r.stopWithSIGTERM()
	r.tokensGone(time.Minute, "SIGTERM to the group with a slow service")
}

// TestAccKilledTerraformLeavesNoProvider: after a kill -9 of Terraform alone, the provider
// notices that its parent is gone, deletes the tokens Terraform will never close, and exits.
func TestAccKilledTerraformLeavesNoProvider(t *testing.T) {
	r := startStoppableApply(t, acctest.NewAccEnv(t, emulator.Options{Limits: acctest.RaisedLimits}))
	if err := r.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := <-r.done; err == nil {
		t.Fatal("terraform succeeded though it was killed")
	}
	r.providersGone(5 * time.Second)
	r.tokensGone(cleanerWithin, "terraform was killed")
}
