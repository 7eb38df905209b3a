package localfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOpenCheckedSource(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "ok.bin")
	writeFile(t, ok, "12345")
	empty := filepath.Join(dir, "empty.bin")
	writeFile(t, empty, "")
	// Files that cannot be read even by root (the tests may run as root, whom permission bits
	// do not stop): a symbolic link that loops, and a path through a regular file.
	loop := filepath.Join(dir, "loop")
	if err := os.Symlink(loop, loop); err != nil {
		t.Fatal(err)
	}
	dangling := danglingLink(t, dir)
	cases := []struct {
		name, path string
		limit      int64
		want       string // a part of the problem; "" for none
	}{
		{"fits", ok, 5, ""},
		{"missing", filepath.Join(dir, "nope"), 5, "does not exist"},
		{"a link to nothing", dangling, 5, "a symbolic link to \"" + filepath.Join(dir, "gone.mp4") + "\", which does not exist"},
		{"empty path", "", 5, "is empty: set it"},
		{"empty file", empty, 5, "which is empty"},
		{"directory", dir, 5, "is a directory"},
		{"device", os.DevNull, 5, "not a regular file"},
		{"too large", ok, 4, "holds 5 bytes, more than the 4 bytes the service takes"},
		{"a looping link", loop, 5, "cannot be read: stat " + loop + ": too many levels of symbolic links"},
		{"through a file", filepath.Join(ok, "x"), 5, "cannot be read: stat " + filepath.Join(ok, "x") + ": not a directory"},
	}
	if os.Geteuid() != 0 {
		// Permission bits stop everyone but root.
		locked := filepath.Join(dir, "locked.bin")
		writeFile(t, locked, "12345")
		if err := os.Chmod(locked, 0); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, struct {
			name, path string
			limit      int64
			want       string
		}{"no read permission", locked, 5, "cannot be read: open " + locked + ": permission denied"})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, id, problem := OpenChecked(tc.path, tc.limit)
			if f != nil {
				_ = f.Close()
			}
			size := id.Size
			switch {
			case tc.want == "" && (problem != "" || size != 5):
				t.Errorf("size %d, problem %q; want 5 and none", size, problem)
			case tc.want != "" && !strings.Contains(problem, tc.want):
				t.Errorf("problem %q, want it to say %q", problem, tc.want)
			}
		})
	}
}

func TestSourceFileHashAndChange(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f.bin")
	writeFile(t, name, "abc")
	f, problem := InspectSource(name, 10, Record{})
	// SHA-256 of "abc".
	if problem != "" || f.Size != 3 || f.SHA256 != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Fatalf("inspect: %+v, %q", f, problem)
	}
	fh, _, _, err := OpenPlanned(name, f.SHA256, Record{})
	if err != nil {
		t.Errorf("unchanged file: %v", err)
	} else {
		_ = fh.Close()
	}
	writeFile(t, name, "abd")
	_, _, _, err = OpenPlanned(name, f.SHA256, Record{})
	var changed *ChangedError
	if !errors.As(err, &changed) || !strings.Contains(err.Error(), "changed between the plan and the apply") || !strings.Contains(err.Error(), f.SHA256) {
		t.Errorf("changed file: %v", err)
	}
}

func TestHumanBytes(t *testing.T) {
	for n, want := range map[int64]string{30 << 30: "30 GiB", 5 << 20: "5 MiB", 2048: "2 KiB", 1000: "1000 bytes", 5<<20 + 1: "5242881 bytes"} {
		if got := HumanBytes(n); got != want {
			t.Errorf("HumanBytes(%d) = %q, want %q", n, got, want)
		}
	}
}
