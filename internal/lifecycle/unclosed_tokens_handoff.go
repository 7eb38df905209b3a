package lifecycle

// Terraform gives a provider it stops 2 seconds to exit, then kills it; it closes no ephemeral
// resource of a run that was interrupted or that failed. The provider deletes the ephemeral
// upload tokens left open in that time (deleteUnclosedTokens), but a delete can have to wait
// longer: for the writes budget of the rate window, spent by the run itself or by other runs on
// the same key (a minute on the service), or for a service slow to answer. An upload token is a
// credential, so rather than leave it usable until its ttl ends, the provider hands the tokens it
// could not delete to a cleaner: its own executable started again in a session of its own, out
// of reach of Terraform's kill and of a signal to Terraform's process group, which reads the
// tokens and the client's settings from a pipe (never the command line or the environment,
// which other processes can read), deletes them within cleanerBudget, and exits.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// CleanerRole is the argument that starts the provider's executable as a cleaner rather than as
// a plugin. It is an argument, not a variable of the environment: Terraform starts a provider
// with no argument and passes its own environment on, so a variable set in a CI job, a wrapper
// or a shell would turn every provider Terraform starts into a cleaner reading Terraform's
// standard input. Only the provider (handOffUnclosedTokens) passes this argument.
const CleanerRole = "delete-unclosed-upload-tokens"

// cleanerBudget bounds a cleaner's life: two of the service's one-minute rate windows, so that
// a delete held for a whole window, then retried, still goes out.
const cleanerBudget = 2 * time.Minute

// cleanerWork is what the provider writes to the cleaner's standard input: the tokens of each
// client, with that client's settings.
type cleanerWork struct {
	Clients []cleanerClient `json:"clients"`
}

type cleanerClient struct {
	Settings videohost.Config `json:"settings"`
	Tokens   []string         `json:"tokens"`
}

// handOffUnclosedTokens starts a cleaner for the tokens, by client, and returns its pid and
// how many tokens it took; it does not wait for it. Nothing to hand off starts nothing.
func handOffUnclosedTokens(byClient map[*videohost.Client][]string) (pid, n int, err error) {
	var work cleanerWork
	for c, tokens := range byClient {
		work.Clients = append(work.Clients, cleanerClient{Settings: c.Settings(), Tokens: tokens})
		n += len(tokens)
	}
	if n == 0 {
		return 0, 0, nil
	}
	payload, err := json.Marshal(work)
	if err != nil {
		return 0, n, fmt.Errorf("encoding the cleaner's work: %w", err)
	}
	exe, err := ownExecutable()
	if err != nil {
		return 0, n, fmt.Errorf("finding the provider's executable to start a cleaner: %w", err)
	}
	// The same environment (a proxy, the CA bundle), and no output: Terraform reads the
	// provider's standard error until every process that holds it has exited.
	cmd := exec.Command(exe, CleanerRole)
	cmd.SysProcAttr = detachedProcess()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return 0, n, fmt.Errorf("starting a cleaner: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return 0, n, fmt.Errorf("starting a cleaner: %w", err)
	}
	_, werr := stdin.Write(payload)
	if cerr := stdin.Close(); werr == nil {
		werr = cerr
	}
	pid = cmd.Process.Pid
	_ = cmd.Process.Release()
	if werr != nil {
		return pid, n, fmt.Errorf("handing the tokens to the cleaner: %w", werr)
	}
	return pid, n, nil
}

// cleanerPause is how long a cleaner waits before it tries again the deletes that failed.
const cleanerPause = time.Second

// ownExecutable names this process's executable for a new process. On Linux /proc/self/exe
// starts the very file this process runs even when its path was removed or replaced meanwhile
// (an upgrade of the plugin cache, a rebuilt development binary); elsewhere, its path.
func ownExecutable() (string, error) {
	if runtime.GOOS == "linux" {
		if _, err := os.Stat("/proc/self/exe"); err == nil {
			return "/proc/self/exe", nil
		}
	}
	return os.Executable()
}

// RunCleaner is the cleaner's main: it reads its work from r, deletes the tokens within
// cleanerBudget, trying again those whose delete failed (a client told to send every call once
// still gets past a 429), and returns the exit code: 0 once every token is gone. It writes
// nothing: no one reads its output.
func RunCleaner(r io.Reader, leftovers Leftovers) int {
	return runCleaner(r, leftovers, cleanerBudget)
}

// runCleaner is RunCleaner within budget. The client cuts a delete still in flight when the
// budget ends (a delete may be sent again), so the cleaner ends then whatever the service does.
func runCleaner(r io.Reader, leftovers Leftovers, budget time.Duration) int {
	var work cleanerWork
	if err := json.NewDecoder(io.LimitReader(r, 1<<20)).Decode(&work); err != nil {
		return 2
	}
	code := 0
	for _, cc := range work.Clients {
		c, err := videohost.New(cc.Settings)
		if err != nil {
			code = 1
			continue
		}
		for _, token := range cc.Tokens {
			leftovers.Keep(c, token)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	for {
		if _, err := leftovers.Delete(ctx); err == nil {
			return code
		}
		select {
		case <-ctx.Done():
			return 1
		case <-time.After(cleanerPause):
		}
	}
}
