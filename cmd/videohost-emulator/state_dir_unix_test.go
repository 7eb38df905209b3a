//go:build linux

package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBinaryRefusesAStateDirItCannotWrite runs the emulator as the user nobody (through
// setpriv, when the test runs as root, whom permission bits do not stop) on an existing state
// file in a directory that only root may write: it must refuse to start, saying where and why,
// rather than answer 201 and lose every change at its restart.
func TestBinaryRefusesAStateDirItCannotWrite(t *testing.T) {
	setpriv, err := exec.LookPath("setpriv")
	if os.Geteuid() != 0 || err != nil {
		t.Skip("needs root and setpriv to run the emulator as another user")
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	// A directory every user may enter and read, that only root may write (and its parent, which
	// the testing package makes for root alone).
	dir := t.TempDir()
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	bin := buildBinary(ctx, t, dir)
	state := filepath.Join(dir, "state.json")
	if err := os.WriteFile(state, []byte(`{"version":1,"clockOffsetSeconds":0}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, setpriv, "--reuid=nobody", "--regid=nogroup", "--clear-groups",
		bin, "-listen", "127.0.0.1:0", "-state", state)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	if err == nil || ctx.Err() != nil {
		t.Fatalf("the emulator started (or hung) on a state file it cannot save: %v\n%s", err, out.String())
	}
	for _, want := range []string{state, "in " + dir, "permission denied", "choose a -state"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the refusal does not say %q:\n%s", want, out.String())
		}
	}
}
