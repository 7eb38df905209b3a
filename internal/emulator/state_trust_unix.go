//go:build unix

package emulator

// Who may have written the state file, and its reads and writes made through its directory once
// that directory is checked (openat with O_NOFOLLOW), so that nothing swapped in after the check
// (a symbolic link in the file's place, another directory) is followed.
//
// Refused, at the start and at each save: a link on the way from -state, or the state file,
// that belongs to another user; a state file that others may write; a directory (of a link or
// of the file) that belongs to another user than this one or root, or that others may write
// unless it is this user's own and sticky (in a sticky directory no one may rename or remove
// another's file). /tmp is refused to every user but root: it is root's, and others may write
// it, so anyone may put a file or a link there under the name before the emulator starts.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// fileIDOf is fi's device and inode.
func fileIDOf(fi fs.FileInfo) fileID {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}
	}
	return fileID{dev: uint64(st.Dev), ino: st.Ino}
}

// statOwner is the owner and the permission bits (sticky included) of fi.
func statOwner(fi fs.FileInfo) (uid uint32, mode uint32, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return st.Uid, uint32(st.Mode) & 0o7777, true
}

// untrustedOwner says why what (fi) could have been made by another user: its owner.
func untrustedOwner(fi fs.FileInfo, what string) string {
	uid, _, ok := statOwner(fi)
	if me := os.Geteuid(); ok && int(uid) != me {
		return fmt.Sprintf("%s belongs to user %d, not to the user running the emulator (%d)", what, uid, me)
	}
	return ""
}

// untrustedFile says why the state file (fi) could have been written by another user.
func untrustedFile(fi fs.FileInfo, what string) string {
	uid, mode, ok := statOwner(fi)
	if !ok {
		return ""
	}
	return untrustedFileStat(what, fi.Mode().IsRegular(), uid, mode)
}

// untrustedFileStat is untrustedFile of a file of owner uid and permission bits mode.
func untrustedFileStat(what string, regular bool, uid, mode uint32) string {
	switch me := os.Geteuid(); {
	case !regular:
		return what + " is not a regular file"
	case int(uid) != me:
		return fmt.Sprintf("%s belongs to user %d, not to the user running the emulator (%d)", what, uid, me)
	case mode&0o022 != 0:
		return fmt.Sprintf("%s may be written by other users (mode %04o)", what, mode)
	}
	return ""
}

// untrustedDir says why another user could replace or plant a file in dir (fi).
func untrustedDir(fi fs.FileInfo, dir string) string {
	uid, mode, ok := statOwner(fi)
	if !ok {
		return ""
	}
	mine, others := int(uid) == os.Geteuid(), mode&0o022 != 0
	switch {
	case !mine && uid != 0:
		return fmt.Sprintf("the directory %s belongs to user %d, who may replace any file in it", dir, uid)
	case !mine && others:
		return fmt.Sprintf("the directory %s may be written by other users (mode %04o) and is not yours", dir, mode)
	case others && mode&0o1000 == 0:
		return fmt.Sprintf("the directory %s may be written by other users (mode %04o), who may replace any file in it",
			dir, mode)
	}
	return ""
}

// openPinnedDir opens the directory that holds the pin's target, and checks that it is the one
// of the start and that no other user may write it.
func openPinnedDir(pin *statePin) (*os.File, error) {
	dir := filepath.Dir(pin.target)
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	d := os.NewFile(uintptr(fd), dir)
	fi, err := d.Stat()
	why := ""
	switch {
	case err != nil:
		why = err.Error()
	case fileIDOf(fi) != pin.dir:
		why = "the directory " + dir + " is no longer the one that held the state file at the start"
	default:
		why = untrustedDir(fi, dir)
	}
	if why != "" {
		_ = d.Close()
		return nil, errors.New(why)
	}
	return d, nil
}

// readStateFile reads the pin's target through its checked directory, never through a link:
// fs.ErrNotExist when there is none yet.
func readStateFile(pin *statePin) ([]byte, error) {
	d, err := openPinnedDir(pin)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	name := filepath.Base(pin.target)
	fd, err := unix.Openat(int(d.Fd()), name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	switch {
	case errors.Is(err, unix.ENOENT):
		return nil, fs.ErrNotExist
	case errors.Is(err, unix.ELOOP):
		return nil, fmt.Errorf("%s became a symbolic link", pin.target)
	case err != nil:
		return nil, &fs.PathError{Op: "open", Path: pin.target, Err: err}
	}
	f := os.NewFile(uintptr(fd), pin.target)
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if why := untrustedFile(fi, "the state file "+pin.target); why != "" {
		return nil, errors.New(why)
	}
	return io.ReadAll(f)
}

// writeStateFile replaces the pin's target with data: a new file of this user's alone (mode
// 0600, made where no link is followed), written, synced and renamed over the target by name
// within the checked directory, then the directory synced. A target that became a link, or
// another user's file, is refused rather than replaced: a rename would not follow the link,
// but the emulator would then no longer be writing what -state named.
func writeStateFile(pin *statePin, data []byte) error {
	d, err := openPinnedDir(pin)
	if err != nil {
		return err
	}
	defer d.Close()
	dfd, name := int(d.Fd()), filepath.Base(pin.target)
	var st unix.Stat_t
	if err := unix.Fstatat(dfd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err == nil {
		regular := uint32(st.Mode)&unix.S_IFMT == unix.S_IFREG
		if why := untrustedFileStat("the state file "+pin.target, regular, st.Uid, uint32(st.Mode)&0o7777); why != "" {
			return errors.New(why)
		}
	}
	tmp := "." + name + "." + strconv.FormatUint(rand.Uint64(), 10) + ".tmp" // tempPattern's shape
	fd, err := unix.Openat(dfd, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return &fs.PathError{Op: "create", Path: filepath.Join(d.Name(), tmp), Err: err}
	}
	f := os.NewFile(uintptr(fd), tmp)
	_, err = f.Write(data)
	err = errors.Join(err, f.Sync(), f.Close())
	if err == nil {
		err = unix.Renameat(dfd, tmp, dfd, name)
	}
	if err != nil {
		_ = unix.Unlinkat(dfd, tmp, 0)
		return err
	}
	return d.Sync()
}
