package localfile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestHashCacheSparesTheReadOfAnotherProcess: the record a plan wrote to disk is trusted by a
// plan in another process (with no private state and no record of its own), which then reads
// none of the file; the file rewritten with its size and modification time restored is read
// again, and its new record replaces the old.
func TestHashCacheSparesTheReadOfAnotherProcess(t *testing.T) {
	c := NewCache(filepath.Join(t.TempDir(), "cache"))
	name := filepath.Join(t.TempDir(), "clip.mp4")
	first, other := strings.Repeat("first content", 1<<13), strings.Repeat("other content", 1<<13)
	writeFile(t, name, first)
	time.Sleep(RacyWindow + 100*time.Millisecond) // a record is written once it can be trusted
	got, problem := InspectSource(name, 1<<20, Record{})
	if problem != "" {
		t.Fatal(problem)
	}
	if why := c.Store(name, got.Record); why != "" {
		t.Fatal(why)
	}
	if _, err := os.Stat(c.RecordFile(name)); err != nil {
		t.Fatalf("the plan's record is not on disk: %v", err)
	}

	// Another process, with a cache of the same directory and no record of its own.
	again := NewCache(c.Dir())
	firstRecord := got.Record
	n := readDuring(t, func() { got, problem = InspectSource(name, 1<<20, loaded(t, again, name)) })
	if problem != "" || got.SHA256 != sha256Hex(first) || got.Record != firstRecord || n >= int64(len(first))/2 {
		t.Fatalf("the record on disk was not trusted: %+v, %d bytes read, %s", got, n, problem)
	}

	mtime := time.Unix(0, firstRecord.Identity.ModNano)
	writeFile(t, name, other)
	if err := os.Chtimes(name, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	n = readDuring(t, func() { got, problem = InspectSource(name, 1<<20, loaded(t, again, name)) })
	if problem != "" || got.SHA256 != sha256Hex(other) || n < int64(len(other)) {
		t.Fatalf("a file rewritten with its size and mtime restored: %+v, %d bytes read, %s", got, n, problem)
	}
}

// TestHashCacheNeverStandsInTheWay: a racy record is not written; a record that is not one
// (another format, garbage, a named pipe) is no record; and a cache directory that cannot be made costs a read,
// never an error.
func TestHashCacheNeverStandsInTheWay(t *testing.T) {
	dir := t.TempDir()
	c := NewCache(filepath.Join(dir, "cache"))
	name := filepath.Join(dir, "clip.mp4")
	writeFile(t, name, "just written")
	f, problem := InspectSource(name, 1<<20, Record{})
	if problem != "" {
		t.Fatal(problem)
	}
	c.Store(name, f.Record)
	if _, err := os.Stat(c.RecordFile(name)); !os.IsNotExist(err) {
		t.Errorf("a racy record was written to disk (%v): it could never be trusted", err)
	}

	if err := os.MkdirAll(c.Dir(), 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, c.RecordFile(name), `{"sha256": 42`)
	if r, _ := c.Load(name); r.SHA256 != "" {
		t.Errorf("garbage on disk was taken for a record: %+v", r)
	}

	// A named pipe in the record's place is not opened (which would wait for a writer).
	if err := os.Remove(c.RecordFile(name)); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(c.RecordFile(name), 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan Record, 1)
	go func() { r, _ := c.Load(name); done <- r }()
	select {
	case r := <-done:
		if r.SHA256 != "" {
			t.Errorf("a named pipe was taken for a record: %+v", r)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("reading the record waited on a named pipe in its place")
	}

	blocker := filepath.Join(dir, "not-a-directory")
	writeFile(t, blocker, "")
	blocked := NewCache(filepath.Join(blocker, "cache"))
	time.Sleep(RacyWindow + 100*time.Millisecond)
	f, problem = InspectSource(name, 1<<20, loaded(t, blocked, name))
	if problem != "" || f.SHA256 != sha256Hex("just written") {
		t.Fatalf("with a cache directory that cannot be made: %+v, %s", f, problem)
	}
	blocked.Store(name, f.Record)
	if r, _ := blocked.Load(name); r.SHA256 != "" {
		t.Errorf("a record was read from a directory that cannot exist: %+v", r)
	}

	if NewCache("").RecordFile(name) != "" {
		t.Error("with no cache directory, a record still has a place")
	}
}

// TestHashCacheSweeps: the first record this process writes to the directory removes a record
// being written that a killed process left behind (.record-*, an hour old) and a record not
// written for 30 days; a younger record being written, which another process may be about to
// rename, a younger record, and every other file stay.
func TestHashCacheSweeps(t *testing.T) {
	dir := t.TempDir()
	c := NewCache(dir)
	now := time.Now()
	recent := c.RecordFile(filepath.Join(dir, "recent.mp4"))
	stale := c.RecordFile(filepath.Join(dir, "stale.mp4"))
	files := map[string]struct {
		age  time.Duration
		kept bool
	}{
		filepath.Join(dir, ".record-111"): {2 * recordLitterAge, false},
		filepath.Join(dir, ".record-222"): {recordLitterAge / 2, true},
		stale:                             {recordMaxAge + time.Hour, false},
		recent:                            {recordMaxAge - time.Hour, true},
		filepath.Join(dir, ".record-old"): {2 * recordMaxAge, true},
		filepath.Join(dir, "notes.json"):  {2 * recordMaxAge, true},
		filepath.Join(dir, "notes.txt"):   {2 * recordMaxAge, true},
	}
	for name, f := range files {
		writeFile(t, name, "{")
		if err := os.Chtimes(name, now.Add(-f.age), now.Add(-f.age)); err != nil {
			t.Fatal(err)
		}
	}
	record := Record{Identity: Identity{Size: 1, Inode: 7}, SHA256: sha256Hex("x"), HashedAt: now.UnixNano()}
	c.Store(filepath.Join(dir, "clip.mp4"), record)
	if r, why := c.Load(filepath.Join(dir, "clip.mp4")); r != record || why != "" {
		t.Fatalf("the record was not kept: %+v", r)
	}
	for name, f := range files {
		if _, err := os.Stat(name); (err == nil) != f.kept {
			t.Errorf("%s, %v old: kept %v, want %v", filepath.Base(name), f.age, err == nil, f.kept)
		}
	}
	// Once per directory and process: the next record does not look again.
	litter := filepath.Join(dir, ".record-333")
	writeFile(t, litter, "{")
	old := now.Add(-2 * recordLitterAge)
	if err := os.Chtimes(litter, old, old); err != nil {
		t.Fatal(err)
	}
	c.Store(filepath.Join(dir, "other.mp4"), record)
	if _, err := os.Stat(litter); err != nil {
		t.Errorf("the directory was swept twice: %v", err)
	}
}

// loaded is the record of path in c, failing the test when c refuses it.
func loaded(t *testing.T, c *Cache, path string) Record {
	t.Helper()
	r, why := c.Load(path)
	if why != "" {
		t.Fatalf("the cache refused: %s", why)
	}
	return r
}
