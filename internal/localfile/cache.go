package localfile

// The records of files' SHA-256 kept on disk, beside those in the private state, for the plans
// that have no private state to read: Terraform hands none to the plan of a create, and plans
// again in a new provider process before it applies. Without them, an apply that creates a video
// from a 1 GiB file reads it three times (its plan, the apply's plan, the upload); with them,
// twice, the apply's plan trusting the record its own plan wrote moments before.
//
// One small file per path, in the user's cache directory (os.UserCacheDir: $XDG_CACHE_HOME or
// ~/.cache on Linux, ~/Library/Caches on macOS, %LocalAppData% on Windows), under
// terraform-provider-videohost/file-sha256 (or in VIDEOHOST_FILE_HASH_CACHE_DIR), named by the SHA-256 of the file's absolute path and
// holding the Record the private state would hold. A record is trusted by the rules of
// record.go (the same identity, not racy), so a record of another file or of an older
// content is simply not used. The cache is a shortcut and nothing more: a record that is missing,
// unreadable or of another format is no record, and a directory that cannot be written costs a
// read of the file, never an error.
//
// A record is trusted only when no one but the user running the provider could have written
// it (cache_unix.go): the directory and the record belong to that user, no one else may write
// them, and neither is a symbolic link. Otherwise the cache is not used, and Load and Store say
// why: on a shared directory (mode 1777, as a system's temporary directory is) another user
// could claim a record's name, or forge a record that makes a plan trust a changed file. A
// record from the future is refused too: it would outrank every honest record. It holds no content and no path, one entry per path hashed
// (overwritten when the file changes), and can be deleted at any time. The first record a
// process writes there sweeps the directory: a record being written that a killed process left
// behind (.record-*) goes once it is an hour old, and a record not written for 30 days goes too.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Cache is the records kept on disk in one directory.
type Cache struct {
	dir   string
	swept sync.Once
}

// NewCache keeps its records in dir; "" keeps none.
func NewCache(dir string) *Cache { return &Cache{dir: dir} }

// Dir is the directory of the records, "" when none is kept.
func (c *Cache) Dir() string { return c.dir }

// CacheDirEnv names another directory for the records; set and empty, it keeps none.
const CacheDirEnv = "VIDEOHOST_FILE_HASH_CACHE_DIR"

// DefaultCacheDir is the directory that CacheDirEnv names, or the one in the user's cache.
func DefaultCacheDir() string {
	if dir, ok := os.LookupEnv(CacheDirEnv); ok {
		return dir
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(base, "terraform-provider-videohost", "file-sha256")
}

// RecordFile is where the record of path is kept; "" when nothing is.
func (c *Cache) RecordFile(path string) string {
	if c.dir == "" {
		return ""
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	key := sha256.Sum256([]byte(abs))
	return filepath.Join(c.dir, hex.EncodeToString(key[:])+".json")
}

// Load is the record of path kept on disk, or no record. refused says why the cache or the
// record is not trusted (another user could have written it, or it claims to have been hashed
// in the future), in words for a log line; it is "" when there is simply no record.
func (c *Cache) Load(path string) (r Record, refused string) {
	name := c.RecordFile(path)
	if name == "" {
		return Record{}, ""
	}
	dir, refused := c.openDir(false)
	if dir == nil {
		return Record{}, refused
	}
	defer dir.Close()
	return loadRecord(dir, filepath.Base(name), time.Now())
}

// Store keeps r as the record of path on disk, replacing the one before at once (a plan
// reading it meanwhile sees the old record or the new, never half of one). A racy record is not
// kept, nor one without an inode (Windows): neither would ever be trusted. refused says why
// the cache was not used, as Load's does; a directory that cannot be written is no refusal,
// only a read of the file the next time.
func (c *Cache) Store(path string, r Record) (refused string) {
	name := c.RecordFile(path)
	if name == "" || r.SHA256 == "" || r.Identity.Inode == 0 || r.Racy() {
		return ""
	}
	raw, err := json.Marshal(r)
	if err != nil {
		return ""
	}
	dir, refused := c.openDir(true)
	if dir == nil {
		return refused
	}
	defer dir.Close()
	c.swept.Do(func() { sweepHashCache(c.dir, time.Now()) })
	storeRecord(dir, filepath.Base(name), raw)
	return ""
}

// tempRecordPrefix starts the name of a record being written, until its rename; decimal digits
// follow.
const tempRecordPrefix = ".record-"

// recordLitterAge is how old a record being written must be to count as left behind: a writer
// renames it microseconds after making it, unless it was killed in between (kill -9).
const recordLitterAge = time.Hour

// recordMaxAge is how long a record stays unwritten before it is removed. A record on disk
// serves the plans soon after the one that wrote it (the apply's plan, the next plan of a
// create); later plans have the private state's. So an old record is rarely worth keeping, and
// without this the directory would keep one for every path ever hashed.
const recordMaxAge = 30 * 24 * time.Hour

// sweepHashCache removes from dir, at now, the records being written that were left behind
// (older than recordLitterAge) and the records not written for recordMaxAge. It touches nothing
// else: only the names this file gives.
func sweepHashCache(dir string, now time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		var age time.Duration
		switch name := e.Name(); {
		case isRecordName(name):
			age = recordMaxAge
		case isTempRecordName(name):
			age = recordLitterAge
		default:
			continue
		}
		if fi, err := e.Info(); err == nil && fi.Mode().IsRegular() && now.Sub(fi.ModTime()) > age {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// isRecordName reports whether name is that of a record: 64 lowercase hex digits and .json.
func isRecordName(name string) bool {
	sum, ok := strings.CutSuffix(name, ".json")
	return ok && len(sum) == 2*sha256.Size && strings.Trim(sum, "0123456789abcdef") == ""
}

// isTempRecordName reports whether name is that of a record being written: tempRecordPrefix and
// decimal digits.
func isTempRecordName(name string) bool {
	digits, ok := strings.CutPrefix(name, tempRecordPrefix)
	return ok && digits != "" && strings.Trim(digits, "0123456789") == ""
}
