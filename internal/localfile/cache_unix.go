//go:build unix

package localfile

// The checks that make a record on disk trustworthy, and the reads and writes of records made
// through the directory once it is checked (openat with O_NOFOLLOW), so that nothing swapped in
// after the check (a symbolic link, another directory) is followed.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"golang.org/x/sys/unix"
)

// maxRecordSize bounds what is read of a record: one is about 250 bytes.
const maxRecordSize = 4096

// openDir opens the cache's directory, after making it when create is set, and checks it: a
// directory, not a symbolic link, owned by this process's user and writable by no one else.
// It returns nil with the reason when it refuses the directory, and nil with "" when there is
// none (or it cannot be made): then there is simply nothing to read or keep.
func (c *Cache) openDir(create bool) (*os.File, string) {
	if create {
		_ = os.MkdirAll(c.dir, 0o700)
	}
	fd, err := unix.Open(c.dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		if fi, lerr := os.Lstat(c.dir); lerr == nil && fi.Mode()&os.ModeSymlink != 0 {
			return nil, fmt.Sprintf("the cache directory %s is a symbolic link; a record is trusted only in a directory "+
				"reached without one", c.dir)
		}
		return nil, ""
	}
	dir := os.NewFile(uintptr(fd), c.dir)
	if why := untrustedOwner(dir, "the cache directory "+c.dir); why != "" {
		_ = dir.Close()
		return nil, why
	}
	return dir, ""
}

// untrustedOwner says why f (named what) could have been written by another user than the one
// running the provider: its owner, or a mode that lets a group or everyone write it. "" when
// only this user (or root) could.
func untrustedOwner(f *os.File, what string) string {
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return fmt.Sprintf("%s cannot be checked: %v", what, err)
	}
	if uid := os.Geteuid(); int(st.Uid) != uid {
		return fmt.Sprintf("%s belongs to user %d, not to the user running the provider (%d)", what, st.Uid, uid)
	}
	if st.Mode&0o022 != 0 {
		return fmt.Sprintf("%s may be written by other users (mode %04o)", what, st.Mode&0o7777)
	}
	return ""
}

// loadRecord reads the record name in dir, checked as the directory is, and refuses one
// hashed after now.
func loadRecord(dir *os.File, name string, now time.Time) (Record, string) {
	fd, err := unix.Openat(int(dir.Fd()), name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	switch {
	case errors.Is(err, unix.ELOOP):
		return Record{}, fmt.Sprintf("the record %s in %s is a symbolic link", name, dir.Name())
	case err != nil:
		return Record{}, ""
	}
	f := os.NewFile(uintptr(fd), name)
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return Record{}, "" // a pipe or a device in a record's place is no record
	}
	if why := untrustedOwner(f, "the record "+name+" in "+dir.Name()); why != "" {
		return Record{}, why
	}
	var r Record
	raw, err := io.ReadAll(io.LimitReader(f, maxRecordSize))
	if err != nil || json.Unmarshal(raw, &r) != nil {
		return Record{}, ""
	}
	if r.HashedAt > now.UnixNano() {
		return Record{}, fmt.Sprintf("the record %s in %s says it was hashed at %s, in the future", name, dir.Name(),
			time.Unix(0, r.HashedAt).UTC().Format(time.RFC3339))
	}
	return r, ""
}

// storeRecord writes raw as the record name in dir: into a new file of this user's alone (mode
// 0600, never through a link), then renamed over the record.
func storeRecord(dir *os.File, name string, raw []byte) {
	dfd := int(dir.Fd())
	tmp := tempRecordName()
	fd, err := unix.Openat(dfd, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return
	}
	f := os.NewFile(uintptr(fd), tmp)
	_, err = f.Write(raw)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = unix.Renameat(dfd, tmp, dfd, name)
	}
	if err != nil {
		_ = unix.Unlinkat(dfd, tmp, 0)
	}
}

// tempRecordName is a new name of a record being written: tempRecordPattern's prefix and
// decimal digits, as os.CreateTemp would give.
func tempRecordName() string {
	return tempRecordPrefix + strconv.FormatUint(uint64(time.Now().UnixNano())^uint64(os.Getpid())<<32, 10)
}
