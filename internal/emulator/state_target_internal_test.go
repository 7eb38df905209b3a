package emulator

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckStateWritableSaysWhereAndWhy: a directory where no file can be made (the probe is
// refused as a read-only directory refuses a user who is not root) stops the start with a
// message naming the state file, the link's target and the directory, the reason and what to
// do. As root, permission bits refuse nothing, so the refusal is injected here; the state
// tests show a real one (a path under a regular file).
func TestCheckStateWritableSaysWhereAndWhy(t *testing.T) {
	var probed string
	refuse := func(dir string) error {
		probed = dir
		return &fs.PathError{Op: "open", Path: dir, Err: fs.ErrPermission}
	}
	err := checkStateWritable(&statePin{path: "/srv/link.json", target: "/data/emu/state.json"}, refuse)
	if err == nil {
		t.Fatal("a directory that refuses new files was accepted")
	}
	if probed != "/data/emu" {
		t.Errorf("probed %q, want the directory of the link's target", probed)
	}
	for _, want := range []string{"/srv/link.json", "a link to /data/emu/state.json", "in /data/emu", "permission denied", "choose a -state"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the message does not say %q: %v", want, err)
		}
	}
	if err := checkStateWritable(&statePin{path: "s.json", target: "s.json"}, func(string) error { return nil }); err != nil {
		t.Errorf("a writable directory was refused: %v", err)
	}
}

// TestResolveStatePath follows relative and absolute links, to a file that may not exist yet,
// records each link it followed, and refuses a loop.
func TestResolveStatePath(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "link.json")
	mustSymlink(t, "sub/../real.json", link)
	pin, err := resolveStatePath(link)
	if err != nil || pin.target != filepath.Join(dir, "sub/../real.json") {
		t.Fatalf("resolveStatePath(link) = %+v, %v", pin, err)
	}
	if len(pin.links) != 1 || pin.links[0].path != link || pin.links[0].dest != "sub/../real.json" {
		t.Errorf("the links followed: %+v", pin.links)
	}
	loop := filepath.Join(dir, "loop.json")
	mustSymlink(t, loop, loop)
	if _, err := resolveStatePath(loop); err == nil || !strings.Contains(err.Error(), "too many levels") {
		t.Errorf("a link to itself: %v", err)
	}
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}
