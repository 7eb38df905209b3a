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
// rather than answer 201 and lose every change at its restart. Then on a state file in a
// directory as /tmp is, which it may write but others may too: refused, nothing written.
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

	// A directory as /tmp is (root's, mode 1777): nobody may make files there, and so may every
	// other user, who could put a state file or a link there under the name first.
	shared := filepath.Join(dir, "tmp")
	if err := os.Mkdir(shared, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(shared, os.ModeSticky|0o777); err != nil {
		t.Fatal(err)
	}
	state = filepath.Join(shared, "state.json")
	cmd = exec.CommandContext(ctx, setpriv, "--reuid=nobody", "--regid=nogroup", "--clear-groups",
		bin, "-listen", "127.0.0.1:0", "-state", state)
	out.Reset()
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	if err == nil || ctx.Err() != nil {
		t.Fatalf("the emulator started (or hung) on a state file in a shared directory: %v\n%s", err, out.String())
	}
	for _, want := range []string{"videohost-emulator: the state file " + state + " is refused",
		"the directory " + shared + " may be written by other users (mode 1777) and is not yours", "mkdir -m 700"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the refusal does not say %q:\n%s", want, out.String())
		}
	}
	if _, err := os.Stat(state); !os.IsNotExist(err) {
		t.Errorf("a state file was written in the shared directory (%v)", err)
	}
}

// TestRunRefusesAPlantedStateFile: a state file that another user put where -state points
// (it may hold her upload token) stops the start with exit code 1 and a message naming the
// file, its owner and what to do.
func TestRunRefusesAPlantedStateFile(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("playing another user needs root (a file is given to uid 65534 with chown)")
	}
	state := filepath.Join(t.TempDir(), "state.json")
	if err := os.WriteFile(state, []byte(`{"version":1,"clockOffsetSeconds":0}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Lchown(state, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), []string{"-listen", "127.0.0.1:0", "-state", state}, &stdout, &stderr)
	if code != 1 || stdout.Len() != 0 {
		t.Errorf("exit %d, printed %q; want 1 and nothing", code, stdout.String())
	}
	for _, want := range []string{"videohost-emulator: the state file " + state + " is refused", "belongs to user 65534",
		"mkdir -m 700"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("the refusal does not say %q: %s", want, stderr.String())
		}
	}
}
