package provider

// This file is the one way the provider opens a file named by an attribute (a video's, a
// caption's or a chapter's source_file, a watermark's source_file, a theme's logo_file), and the
// record of a file's SHA-256 that lets a plan trust it without reading the file again.
//
// Opening: a path is looked at (following links) before it is opened, and anything but a
// regular file is refused without opening it: opening a named pipe for reading waits for a
// writer, forever at plan time, and a device such as /dev/zero never ends. The path is then
// opened without blocking (a pipe put in its place meanwhile does not hold the open) and the open
// file is looked at again: it must be the same file (device and inode) and still regular.
//
// Trusting a hash: the SHA-256 of a file is recorded in the resource's private state (and in a
// cache on disk, file_hash_cache.go) with the file's identity when it was read (size,
// modification and change times, inode and device).
// While the identity is unchanged the content is taken to be too, as git does with its index: a
// write changes the size or the times, and a change time cannot be set back by a user (touch -d
// restores a modification time, and changes the change time). The "racy" case is git's too: a
// file written in the same tick of the file system's clock as the hash was taken could change
// again without its times moving; a record whose file's modification or change time is within
// racyWindow of the moment its read began is not trusted, and the file is read again.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"os"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// racyWindow is how close to the start of its hashing a file's modification or change time may
// be for the hash to be trusted later: 2 s, the coarsest clock of a common file system (FAT's
// modification time), which also covers a few seconds' skew between this machine's clock and a
// network file system's less well. A file written that recently is simply read again.
const racyWindow = 2 * time.Second

// fileIdentity is what says, without reading a file, that it is still the file it was.
type fileIdentity struct {
	Size    int64  `json:"size"`
	ModNano int64  `json:"mtime_ns"`
	ChgNano int64  `json:"ctime_ns"`
	Inode   uint64 `json:"inode"`
	Device  uint64 `json:"device"`
}

// notRegularError is a path that names something other than a regular file.
type notRegularError struct {
	Path string
	Kind string // "directory", "named pipe", "socket", "device", "special file"
}

func (e *notRegularError) Error() string {
	return fmt.Sprintf("%q is not a regular file: it is a %s", e.Path, e.Kind)
}

// openRegularFile opens name for reading when it is a regular file, and returns the file's
// identity as the open file has it; the caller closes the file. A path that is not a regular
// file is a *notRegularError, and is never opened; other errors are the system's (an
// fs.ErrNotExist for a missing file).
func openRegularFile(name string) (*os.File, fileIdentity, error) {
	before, err := os.Stat(name)
	if err != nil {
		return nil, fileIdentity{}, err
	}
	if !before.Mode().IsRegular() {
		return nil, fileIdentity{}, &notRegularError{Path: name, Kind: fileKind(before.Mode())}
	}
	f, err := os.OpenFile(name, os.O_RDONLY|openNoBlock, 0)
	if err != nil {
		return nil, fileIdentity{}, err
	}
	after, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, fileIdentity{}, err
	}
	if !after.Mode().IsRegular() || !os.SameFile(before, after) {
		_ = f.Close()
		kind := "file put in place of the regular file while it was opened"
		if !after.Mode().IsRegular() {
			kind = fileKind(after.Mode())
		}
		return nil, fileIdentity{}, &notRegularError{Path: name, Kind: kind}
	}
	return f, identityOf(f, after), nil
}

// fileKind names the kind of a file that is not regular, for a message.
func fileKind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "directory"
	case m&os.ModeNamedPipe != 0:
		return "named pipe"
	case m&os.ModeSocket != 0:
		return "socket"
	case m&os.ModeDevice != 0:
		return "device"
	default:
		return "special file"
	}
}

// isNotRegular reports whether err is openRegularFile's refusal of a path that is not a
// regular file, and if so the refusal.
func isNotRegular(err error) (*notRegularError, bool) {
	var nr *notRegularError
	ok := errors.As(err, &nr)
	return nr, ok
}

// fileHashRecord is a file's SHA-256 with the file's identity when its read began, kept in the
// private state of the resource under the attribute's name.
type fileHashRecord struct {
	Identity fileIdentity `json:"identity"`
	SHA256   string       `json:"sha256"`
	// HashedAt is when the read that gave SHA256 began, in nanoseconds since the Unix epoch.
	HashedAt int64 `json:"hashed_at_ns"`
}

// trusted returns the recorded SHA-256 when id is the identity recorded and the record is not
// racy: the file was last written well before it was read. A platform that gives no inode
// (identityOf leaves it 0) never trusts a record.
func (r fileHashRecord) trusted(id fileIdentity) (string, bool) {
	if r.SHA256 == "" || id.Inode == 0 || id != r.Identity || r.racy() {
		return "", false
	}
	return r.SHA256, true
}

// racy reports whether the file was last written (its modification or change time) within
// racyWindow of the moment its read began: its content could have changed since without its
// times moving.
func (r fileHashRecord) racy() bool {
	limit := r.HashedAt - int64(racyWindow)
	return r.Identity.ModNano >= limit || r.Identity.ChgNano >= limit
}

// hashRecordKey is the private state key of the record of the file named by attr.
func hashRecordKey(attr string) string { return "file_sha256:" + attr }

// privateReader and privateWriter are the private state of a request and of a response.
type privateReader interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

type privateWriter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// privateState is the private state of a response that an apply both reads and writes.
type privateState interface {
	privateReader
	privateWriter
}

// loadHashRecord is the record to trust for the file path named by attr: the newest of the one
// kept in the private state, the one this process made last for path, and the one kept on disk
// (file_hash_cache.go). Terraform hands the private state a plan wrote to an update but not to a
// create; the plan of an apply runs in the same process just before its create, and in another
// process than the plan the user approved. A record that cannot be read (written by another
// version) is no record: the file is read again.
func loadHashRecord(ctx context.Context, p privateReader, attr, path string) fileHashRecord {
	r := recentHashRecord(path)
	if c := cachedHashRecord(path); c.HashedAt > r.HashedAt {
		r = c
	}
	if p == nil {
		return r
	}
	var kept fileHashRecord
	raw, diags := p.GetKey(ctx, hashRecordKey(attr))
	if diags.HasError() || len(raw) == 0 || json.Unmarshal(raw, &kept) != nil {
		return r
	}
	if kept.HashedAt > r.HashedAt {
		return kept
	}
	return r
}

// storeHashRecord keeps r for attr; an empty record removes it.
func storeHashRecord(ctx context.Context, p privateWriter, attr string, r fileHashRecord, diags *diag.Diagnostics) {
	var raw []byte
	if r.SHA256 != "" {
		var err error
		if raw, err = json.Marshal(r); err != nil {
			diags.AddError("Unable to Record a File's SHA-256", err.Error())
			return
		}
	}
	diags.Append(p.SetKey(ctx, hashRecordKey(attr), raw)...)
}

// fileHasher hashes the bytes of a file read through it, and counts them for the tests.
type fileHasher struct {
	path  string
	start time.Time
	h     hash.Hash // a SHA-256
}

func newFileHasher(path string) *fileHasher {
	return &fileHasher{path: path, start: time.Now(), h: sha256.New()}
}

func (fh *fileHasher) Write(p []byte) (int, error) {
	n, _ := fh.h.Write(p)
	countHashed(fh.path, int64(n))
	return n, nil
}

// record is the record of what was hashed, for a file whose identity is id; the process keeps
// it for loadHashRecord, and so does the cache on disk.
func (fh *fileHasher) record(id fileIdentity) fileHashRecord {
	r := fileHashRecord{Identity: id, SHA256: hex.EncodeToString(fh.h.Sum(nil)), HashedAt: fh.start.UnixNano()}
	recentHashes.Lock()
	recentHashes.m[fh.path] = r
	recentHashes.Unlock()
	cacheHashRecord(fh.path, r)
	return r
}

// recentHashes is the last record this process made of each path.
var recentHashes = struct {
	sync.Mutex
	m map[string]fileHashRecord
}{m: map[string]fileHashRecord{}}

func recentHashRecord(path string) fileHashRecord {
	recentHashes.Lock()
	defer recentHashes.Unlock()
	return recentHashes.m[path]
}

// hashedBytes counts, per path, the bytes hashed by fileHasher since the process began: the
// tests read it to see that a trusted record spared a read.
var hashedBytes = struct {
	sync.Mutex
	m map[string]int64
}{m: map[string]int64{}}

func countHashed(path string, n int64) {
	hashedBytes.Lock()
	defer hashedBytes.Unlock()
	hashedBytes.m[path] += n
}

// bytesHashed returns how many bytes of path fileHasher has hashed.
func bytesHashed(path string) int64 {
	hashedBytes.Lock()
	defer hashedBytes.Unlock()
	return hashedBytes.m[path]
}
