package provider_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestVersionScript: scripts/version.sh prints the release's version only on the commit of its
// tag with nothing in the tree that the tag does not hold. A file ignored by git keeps it; a
// changed tracked file, or an untracked file that git does not ignore (a zz_untracked.go in
// package main is built in), makes it a dirty development version; another commit a development
// version. It runs the script in a scratch repository of its own, tagged v0.1.0.
func TestVersionScript(t *testing.T) {
	script, err := os.ReadFile(filepath.Join("..", "..", "scripts", "version.sh"))
	if err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		path := filepath.Join(repo, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// git runs with no user or system configuration, so that the machine's settings (signing,
	// hooks, a global ignore file) cannot change what the script sees.
	env := append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "HOME="+repo,
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@localhost", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@localhost")
	run := func(name string, args ...string) string {
		t.Helper()
		cmd := exec.CommandContext(t.Context(), name, args...)
		cmd.Dir, cmd.Env = repo, env
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s %v: %v", name, args, err)
		}
		return strings.TrimSpace(string(out))
	}
	write("scripts/version.sh", string(script))
	write("CHANGELOG.md", "# Changelog\n\n## 0.1.0 (Unreleased)\n")
	write("main.go", "package main\n\nfunc main() {}\n")
	write(".gitignore", "/terraform-provider-videohost\n/dist/\n")
	run("git", "init", "-q")
	run("git", "add", ".")
	run("git", "commit", "-q", "-m", "release")
	run("git", "tag", "v0.1.0")
	commit := run("git", "rev-parse", "--short=12", "HEAD")
	version := func() string { t.Helper(); return run(filepath.Join(repo, "scripts", "version.sh")) }

	steps := []struct {
		name   string
		change func()
		undo   func()
		want   string
	}{
		{name: "the tag's commit, clean", want: "0.1.0"},
		{
			name:   "ignored files only",
			change: func() { write("terraform-provider-videohost", "binary"); write("dist/a.zip", "zip") },
			want:   "0.1.0",
		},
		{
			name:   "an untracked source file",
			change: func() { write("zz_untracked.go", "package main\n\nfunc init() {}\n") },
			undo:   func() { _ = os.Remove(filepath.Join(repo, "zz_untracked.go")) },
			want:   "0.1.0+dev." + commit + ".dirty",
		},
		{
			name:   "an untracked file in a new directory",
			change: func() { write("internal/extra/extra.go", "package extra\n") },
			undo:   func() { _ = os.RemoveAll(filepath.Join(repo, "internal")) },
			want:   "0.1.0+dev." + commit + ".dirty",
		},
		{
			name:   "a tracked file changed",
			change: func() { write("main.go", "package main\n\nfunc main() { println() }\n") },
			undo:   func() { run("git", "checkout", "-q", "--", "main.go") },
			want:   "0.1.0+dev." + commit + ".dirty",
		},
		{name: "clean again", want: "0.1.0"},
	}
	for _, s := range steps {
		if s.change != nil {
			s.change()
		}
		if got := version(); got != s.want {
			t.Errorf("%s: version.sh printed %q, want %q", s.name, got, s.want)
		}
		if s.undo != nil {
			s.undo()
		}
	}

	run("git", "commit", "-q", "--allow-empty", "-m", "after the release")
	if got, want := version(), "0.1.0+dev."+run("git", "rev-parse", "--short=12", "HEAD"); got != want {
		t.Errorf("a commit after the tag: version.sh printed %q, want %q", got, want)
	}
}
