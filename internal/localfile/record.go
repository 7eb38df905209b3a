package localfile

// The record of a file's SHA-256 that lets a plan trust it without reading the file again.
//
// Trusting a hash: the SHA-256 of a file is recorded (in the resource's private state, and in a
// Cache on disk) with the file's identity when it was read (size, modification and change times,
// inode and device). While the identity is unchanged the content is taken to be too, as git does
// with its index: a write changes the size or the times, and a change time cannot be set back by
// a user (touch -d restores a modification time, and changes the change time). The "racy" case
// is git's too: a file written in the same tick of the file system's clock as the hash was taken
// could change again without its times moving; a record whose file's modification or change
// time is within RacyWindow of the moment its read began is not trusted, and the file is read
// again.
//
// What a record cannot see: a write that moves neither time. A write through a shared memory
// mapping (mmap) changes the file's pages without a write call; tmpfs never moves the times for
// it, and ext4 moves them only when the pages are written back. git's index has the same limit.
// HashEveryPlanEnv turns records off: every plan and every apply then reads every file whole.

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"os"
	"sync"
	"time"
)

// HashEveryPlanEnv, set to anything but "", "0" or "false", makes no record trusted: each plan
// reads every file whole for its SHA-256, whatever its identity says, and so does the apply
// before it uploads. Its name starts as CacheDirEnv's does, since both are about the records of
// files' hashes, and says what it costs rather than what it distrusts. A value that is not
// understood trusts nothing too: a variable set by mistake costs reads, never a missed change.
const HashEveryPlanEnv = "VIDEOHOST_FILE_HASH_EVERY_PLAN"

// hashEveryPlan reports whether HashEveryPlanEnv turns records off. It is read at every use, so
// that a test or a wrapper script may set it at any time.
func hashEveryPlan() bool {
	switch os.Getenv(HashEveryPlanEnv) {
	case "", "0", "false", "FALSE", "False":
		return false
	}
	return true
}

// RacyWindow is how close to the start of its hashing a file's modification or change time may
// be for the hash to be trusted later: 2 s, the coarsest clock of a common file system (FAT's
// modification time), which also covers a few seconds' skew between this machine's clock and a
// network file system's less well. A file written that recently is simply read again.
const RacyWindow = 2 * time.Second

// Record is a file's SHA-256 with the file's identity when its read began.
type Record struct {
	Identity Identity `json:"identity"`
	SHA256   string   `json:"sha256"`
	// HashedAt is when the read that gave SHA256 began, in nanoseconds since the Unix epoch.
	HashedAt int64 `json:"hashed_at_ns"`
}

// Trusted returns the recorded SHA-256 when id is the identity recorded and the record is not
// racy: the file was last written well before it was read. A platform that gives no inode
// (identityOf leaves it 0) never trusts a record, nor is a record from the future trusted (it
// was not made by this clock: a record's time is when its read began, here), nor any record
// while HashEveryPlanEnv is set.
func (r Record) Trusted(id Identity) (string, bool) {
	if hashEveryPlan() || r.SHA256 == "" || id.Inode == 0 || id != r.Identity || r.Racy() || r.HashedAt > time.Now().UnixNano() {
		return "", false
	}
	return r.SHA256, true
}

// Racy reports whether the file was last written (its modification or change time) within
// RacyWindow of the moment its read began: its content could have changed since without its
// times moving.
func (r Record) Racy() bool {
	limit := r.HashedAt - int64(RacyWindow)
	return r.Identity.ModNano >= limit || r.Identity.ChgNano >= limit
}

// Hasher hashes the bytes of a file written to it.
type Hasher struct {
	start time.Time
	h     hash.Hash // a SHA-256
}

// NewHasher starts a hash; its record's HashedAt is now.
func NewHasher() *Hasher {
	return &Hasher{start: time.Now(), h: sha256.New()}
}

// Write takes the next bytes of the file; it never fails.
func (fh *Hasher) Write(p []byte) (int, error) {
	return fh.h.Write(p)
}

// Record is the record of what was hashed, for a file whose identity is id. It keeps it
// nowhere: the caller does.
func (fh *Hasher) Record(id Identity) Record {
	return Record{Identity: id, SHA256: hex.EncodeToString(fh.h.Sum(nil)), HashedAt: fh.start.UnixNano()}
}

// Recent is the last record a process made of each path. Its zero value is empty and ready.
type Recent struct {
	mu sync.Mutex
	m  map[string]Record
}

// Keep makes r the record of path.
func (c *Recent) Keep(path string, r Record) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]Record{}
	}
	c.m[path] = r
}

// Get is the record of path, or no record.
func (c *Recent) Get(path string) Record {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[path]
}

// Forget removes the record of path, as a new process would start.
func (c *Recent) Forget(path string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, path)
}
