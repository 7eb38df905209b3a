package lifecycle

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// statFields are the fields of /proc/pid/stat after the command name: the state, the parent,
// the process group, the session. A process gone gives none.
func statFields(pid int) []string {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil
	}
	return strings.Fields(string(raw[bytes.LastIndexByte(raw, ')')+1:]))
}

// TestHandOffStartsADetachedCleaner: the tokens handed off are deleted by another process, in
// a session of its own (out of reach of a signal to Terraform's group), which then exits; the
// tokens and the API key reach it by a pipe, not by its command line or its environment.
func TestHandOffStartsADetachedCleaner(t *testing.T) {
	c, tokens := spentTokens(t, 2*time.Second)
	pid, n, err := handOffUnclosedTokens(map[*videohost.Client][]string{c: tokens})
	if err != nil || n != 2 || pid <= 0 {
		t.Fatalf("handOffUnclosedTokens = %d, %d, %v; want a process for the 2 tokens", pid, n, err)
	}
	fields := statFields(pid)
	if len(fields) < 4 {
		t.Fatalf("the cleaner %d ended before it could be looked at", pid)
	}
	if mine := statFields(os.Getpid()); fields[3] == mine[3] {
		t.Errorf("the cleaner runs in this process's session %s; want one of its own", mine[3])
	}
	for _, f := range []string{"cmdline", "environ"} {
		raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/%s", pid, f))
		if err == nil && (bytes.Contains(raw, []byte(c.Settings().APIKey)) || bytes.Contains(raw, []byte(tokens[0]))) {
			t.Errorf("the cleaner's %s holds the API key or a token", f)
		}
	}
	deadline := time.Now().Add(30 * time.Second)
	for liveTokens(t, c) != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("tokens still live 30 s after the hand-off")
		}
		time.Sleep(100 * time.Millisecond)
	}
	// Released, the cleaner is reaped by no one here: once done it is a zombie, which has exited.
	for f := statFields(pid); len(f) > 0 && f[0] != "Z"; f = statFields(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("the cleaner %d still runs after deleting the tokens", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
