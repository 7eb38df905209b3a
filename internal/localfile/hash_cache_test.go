package provider

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// withHashCacheDir points the cache on disk at dir for the test. The tests that change it do not
// run in parallel: the parallel tests, which use the cache, wait for them.
func withHashCacheDir(t *testing.T, dir string) {
	t.Helper()
	before := hashCacheDir
	hashCacheDir = dir
	t.Cleanup(func() { hashCacheDir = before })
}

// TestHashCacheSparesTheReadOfAnotherProcess: the record a plan wrote to disk is trusted by a
// plan in another process (with no private state and no record of its own), which then reads
// none of the file; the file rewritten with its size and modification time restored is read
// again, and its new record replaces the old.
func TestHashCacheSparesTheReadOfAnotherProcess(t *testing.T) {
	withHashCacheDir(t, filepath.Join(t.TempDir(), "cache"))
	name := filepath.Join(t.TempDir(), "clip.mp4")
	writeFile(t, name, "first content")
	time.Sleep(racyWindow + 100*time.Millisecond) // a record is written once it can be trusted
	first, problem := inspectSourceFile(name, 1<<20, fileHashRecord{})
	if problem != "" {
		t.Fatal(problem)
	}
	if _, err := os.Stat(cachedHashFile(name)); err != nil {
		t.Fatalf("the plan's record is not on disk: %v", err)
	}

	recentHashes.Lock()
	delete(recentHashes.m, name) // a new process
	recentHashes.Unlock()
	read := bytesHashed(name)
	rec := loadHashRecord(context.Background(), nil, "source_file", name)
	got, problem := inspectSourceFile(name, 1<<20, rec)
	if problem != "" || got.SHA256 != first.SHA256 || bytesHashed(name) != read {
		t.Fatalf("the record on disk was not trusted: %+v, %d bytes read, %s", got, bytesHashed(name)-read, problem)
	}

	mtime := time.Unix(0, first.Record.Identity.ModNano)
	writeFile(t, name, "other content")
	if err := os.Chtimes(name, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	recentHashes.Lock()
	delete(recentHashes.m, name)
	recentHashes.Unlock()
	got, problem = inspectSourceFile(name, 1<<20, loadHashRecord(context.Background(), nil, "source_file", name))
	if problem != "" || got.SHA256 != sha256Hex("other content") || bytesHashed(name) != read+13 {
		t.Fatalf("a file rewritten with its size and mtime restored: %+v, %d bytes read (want 13), %s",
			got, bytesHashed(name)-read, problem)
	}
}

// TestHashCacheNeverStandsInTheWay: a racy record is not written; a record that is not one
// (another format, garbage, a named pipe) is no record; and a cache directory that cannot be made costs a read,
// never an error.
func TestHashCacheNeverStandsInTheWay(t *testing.T) {
	dir := t.TempDir()
	withHashCacheDir(t, filepath.Join(dir, "cache"))
	name := filepath.Join(dir, "clip.mp4")
	writeFile(t, name, "just written")
	if _, problem := inspectSourceFile(name, 1<<20, fileHashRecord{}); problem != "" {
		t.Fatal(problem)
	}
	if _, err := os.Stat(cachedHashFile(name)); !os.IsNotExist(err) {
		t.Errorf("a racy record was written to disk (%v): it could never be trusted", err)
	}

	if err := os.MkdirAll(hashCacheDir, 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, cachedHashFile(name), `{"sha256": 42`)
	if r := cachedHashRecord(name); r.SHA256 != "" {
		t.Errorf("garbage on disk was taken for a record: %+v", r)
	}

	// A named pipe in the record's place is not opened (which would wait for a writer).
	if err := os.Remove(cachedHashFile(name)); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(cachedHashFile(name), 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan fileHashRecord, 1)
	go func() { done <- cachedHashRecord(name) }()
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
	withHashCacheDir(t, filepath.Join(blocker, "cache"))
	time.Sleep(racyWindow + 100*time.Millisecond)
	read := bytesHashed(name)
	got, problem := inspectSourceFile(name, 1<<20, fileHashRecord{})
	if problem != "" || got.SHA256 != sha256Hex("just written") || bytesHashed(name) != read+12 {
		t.Fatalf("with a cache directory that cannot be made: %+v, %s", got, problem)
	}
	if r := cachedHashRecord(name); r.SHA256 != "" {
		t.Errorf("a record was read from a directory that cannot exist: %+v", r)
	}

	withHashCacheDir(t, "")
	if cachedHashFile(name) != "" {
		t.Error("with no cache directory, a record still has a place")
	}
}

// TestHashCacheSweeps: the first record this process writes to the directory removes a record
// being written that a killed process left behind (.record-*, an hour old) and a record not
// written for 30 days; a younger record being written, which another process may be about to
// rename, a younger record, and every other file stay.
func TestHashCacheSweeps(t *testing.T) {
	dir := t.TempDir()
	withHashCacheDir(t, dir)
	now := time.Now()
	recent := cachedHashFile(filepath.Join(dir, "recent.mp4"))
	stale := cachedHashFile(filepath.Join(dir, "stale.mp4"))
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
	record := fileHashRecord{Identity: fileIdentity{Size: 1, Inode: 7}, SHA256: sha256Hex("x"), HashedAt: now.UnixNano()}
	cacheHashRecord(filepath.Join(dir, "clip.mp4"), record)
	if r := cachedHashRecord(filepath.Join(dir, "clip.mp4")); r != record {
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
	cacheHashRecord(filepath.Join(dir, "other.mp4"), record)
	if _, err := os.Stat(litter); err != nil {
		t.Errorf("the directory was swept twice: %v", err)
	}
}
