package provider_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// maxShellScriptLines is the longest a shell script of the repository may be. Past it, a script
// has outgrown bash: what it does goes into a Go program (scripts/benchdeliveries,
// scripts/benchupload, scripts/demo, scripts/mirror), or what it shares with the other scripts
// into scripts/lib.sh.
const maxShellScriptLines = 450

// TestShellScriptLength keeps every *.sh file that git tracks within maxShellScriptLines
// lines, naming each one over it with its count.
func TestShellScriptLength(t *testing.T) {
	root := filepath.Join("..", "..")
	out, err := exec.CommandContext(t.Context(), "git", "-C", root, "ls-files", "-z", "--cached", "--", "*.sh").Output()
	if err != nil {
		t.Skipf("reads the shell scripts git tracks, and git ls-files failed in %s (%v): run it in a git checkout", root, err)
	}
	names := strings.Split(strings.TrimRight(string(out), "\x00"), "\x00")
	if len(names) == 0 || names[0] == "" {
		t.Fatal("git tracks no *.sh file: the pathspec or the root is wrong")
	}
	var over []string
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if lines := shellLines(b); lines > maxShellScriptLines {
			over = append(over, fmt.Sprintf("%s: %d lines", name, lines))
		}
	}
	if len(over) > 0 {
		t.Errorf("shell scripts over %d lines (port them to Go, or move what they share into scripts/lib.sh):\n%s",
			maxShellScriptLines, strings.Join(over, "\n"))
	}
	t.Logf("%d shell scripts checked", len(names))
}

// shellLines counts the lines of a file, a last line without its newline included.
func shellLines(b []byte) int {
	n := bytes.Count(b, []byte("\n"))
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}
