//go:build unix

package localfile

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// stranger is the user who plays the attacker: nobody, on most systems.
const stranger = 65534

// asStranger makes name belong to the stranger, or skips the test when this process may not
// give files away (only root may).
func asStranger(t *testing.T, name string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("playing another user needs root (a file is given to uid 65534 with chown); run the tests as root to check this refusal")
	}
	if err := os.Lchown(name, stranger, stranger); err != nil {
		t.Fatal(err)
	}
}

// forge writes, as the stranger, a record of victim (its identity now, a time after its last
// write) with the SHA-256 sum, where c keeps victim's record: a record that would be trusted if
// its writer were.
func forge(t *testing.T, c *Cache, victim, sum string) {
	t.Helper()
	f, id, err := OpenRegular(victim)
	if err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	raw, err := json.Marshal(Record{Identity: id, SHA256: sum, HashedAt: time.Now().UnixNano()})
	if err != nil {
		t.Fatal(err)
	}
	name := c.RecordFile(victim)
	_ = os.Remove(name)
	writeFile(t, name, string(raw))
	asStranger(t, name)
}

// victimFile is a file written more than RacyWindow ago, so that a record of it can be trusted.
func victimFile(t *testing.T, content string) string {
	t.Helper()
	name := tempFile(t, t.TempDir(), "clip.mp4", content)
	time.Sleep(RacyWindow + 100*time.Millisecond)
	return name
}

// refusedAndRead checks that c refuses the record of victim with a reason that says want, and
// that the plan then reads the file and takes its true SHA-256.
func refusedAndRead(t *testing.T, c *Cache, victim, content, want string) {
	t.Helper()
	r, why := c.Load(victim)
	if r.SHA256 != "" || !strings.Contains(why, want) {
		t.Fatalf("the forged record was taken (%+v) or refused for another reason: %q, want %q", r, why, want)
	}
	got, problem := InspectSource(victim, 1<<20, r)
	if problem != "" || got.SHA256 != sha256Hex(content) {
		t.Fatalf("the plan did not read the file: %+v %s", got, problem)
	}
}

// TestCacheRefusesASharedDirectory: in a directory that everyone may write (mode 1777, as /tmp
// is), a stranger can claim a record's name before the victim writes it, then forge the old
// hash after the file changed (a plan would say "No changes"), or a wrong hash of a new file
// (every apply would fail and taint). The directory is refused: nothing is read from it and
// nothing written to it.
func TestCacheRefusesASharedDirectory(t *testing.T) {
	shared := filepath.Join(t.TempDir(), "shared")
	if err := os.Mkdir(shared, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(shared, os.ModeSticky|0o777); err != nil {
		t.Fatal(err)
	}
	c := NewCache(shared)
	victim := victimFile(t, "new content")
	forge(t, c, victim, sha256Hex("old content"))
	refusedAndRead(t, c, victim, "new content", "may be written by other users (mode 1777)")

	f, _ := InspectSource(victim, 1<<20, Record{})
	if why := c.Store(victim, f.Record); !strings.Contains(why, "mode 1777") {
		t.Errorf("a record was kept in a shared directory: %q", why)
	}
}

// TestCacheRefusesAStrangersRecord: in the victim's own directory, a record that belongs to
// another user, or that others may write, is refused, as is one from the future.
func TestCacheRefusesAStrangersRecord(t *testing.T) {
	c := NewCache(filepath.Join(t.TempDir(), "cache"))
	victim := victimFile(t, "content")
	f, _ := InspectSource(victim, 1<<20, Record{})
	if why := c.Store(victim, f.Record); why != "" {
		t.Fatal(why)
	}

	if err := os.Chmod(c.RecordFile(victim), 0o666); err != nil {
		t.Fatal(err)
	}
	refusedAndRead(t, c, victim, "content", "may be written by other users (mode 0666)")

	future := f.Record
	future.HashedAt = time.Now().Add(time.Hour).UnixNano()
	raw, _ := json.Marshal(future)
	writeFile(t, c.RecordFile(victim), string(raw))
	if err := os.Chmod(c.RecordFile(victim), 0o600); err != nil {
		t.Fatal(err)
	}
	refusedAndRead(t, c, victim, "content", "in the future")

	forge(t, c, victim, sha256Hex("other content"))
	refusedAndRead(t, c, victim, "content", "belongs to user 65534")
}

// TestCacheRefusesSymbolicLinks: a cache directory that is a symbolic link (to a stranger's
// directory holding a forged record, which would make a plan replace an unchanged video) is
// refused, and so is a record that is a link.
func TestCacheRefusesSymbolicLinks(t *testing.T) {
	base := t.TempDir()
	theirs := filepath.Join(base, "theirs")
	if err := os.Mkdir(theirs, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(base, "cache")
	if err := os.Symlink(theirs, link); err != nil {
		t.Fatal(err)
	}
	c := NewCache(link)
	victim := victimFile(t, "unchanged")
	forge(t, NewCache(theirs), victim, sha256Hex("something else"))
	asStranger(t, theirs)
	asStranger(t, link)
	refusedAndRead(t, c, victim, "unchanged", "is a symbolic link")
	f, _ := InspectSource(victim, 1<<20, Record{})
	if why := c.Store(victim, f.Record); !strings.Contains(why, "symbolic link") {
		t.Errorf("a record was kept through a symbolic link: %q", why)
	}

	own := NewCache(filepath.Join(base, "own"))
	if why := own.Store(victim, f.Record); why != "" {
		t.Fatal(why)
	}
	elsewhere := filepath.Join(base, "record.json")
	if err := os.Rename(own.RecordFile(victim), elsewhere); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, own.RecordFile(victim)); err != nil {
		t.Fatal(err)
	}
	refusedAndRead(t, own, victim, "unchanged", "is a symbolic link")
}
