package main

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runItBlock is the first shell block of the guide's "Run it" section.
var runItBlock = regexp.MustCompile("(?s)## Run it\n.*?```shell\n(.*?)```")

// TestEmulatorGuideCommands runs the commands of the emulator guide's "Run it" section as a
// user with a checkout would: go install ./cmd/videohost-emulator from the repository's root
// (into a GOBIN of its own), then the documented command line of the installed binary, whose
// first lines must be its address and the key, with the seeded videos and live streams served.
func TestEmulatorGuideCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: this test installs the command and runs it as a process")
	}
	root := filepath.Join("..", "..")
	guide, err := os.ReadFile(filepath.Join(root, "docs", "guides", "testing-with-the-emulator.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := runItBlock.FindSubmatch(guide)
	if m == nil {
		t.Fatal("the guide has no shell block under \"## Run it\"")
	}
	lines := strings.Split(strings.TrimSpace(string(m[1])), "\n")
	if len(lines) != 2 || lines[0] != "go install ./cmd/videohost-emulator" || !strings.HasPrefix(lines[1], "videohost-emulator ") {
		t.Fatalf("the guide's commands are not the install from a checkout and the run this test checks:\n%s", m[1])
	}

	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	gobin := t.TempDir()
	install := exec.CommandContext(ctx, "go", strings.Fields(lines[0])[1:]...)
	install.Dir = root
	install.Env = append(os.Environ(), "GOBIN="+gobin)
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", lines[0], err, out)
	}
	args := strings.Fields(lines[1])
	cmd, first, stderr := startBinary(ctx, t, filepath.Join(gobin, args[0]), args[1:]...)
	if !strings.HasPrefix(first[0], "http://127.0.0.1:") || first[1] != "api-key: test-key" {
		t.Fatalf("the documented command printed %q, want its address, then api-key: test-key", first)
	}
	for _, p := range []string{"/videos", "/live-streams"} {
		if s := get(t, first[0]+p, "test-key"); s != http.StatusOK {
			t.Errorf("GET %s: %d", p, s)
		}
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("exit %v; stderr %s", err, stderr.String())
	}
}
