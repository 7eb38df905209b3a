// Package localfile is what the provider knows of the user's local files, without Terraform and
// without HTTP: the one way a named file is opened (a regular file, never a pipe or a device),
// a file's identity, the record of its SHA-256 and when that record may be trusted, the records
// kept on disk between processes, the checks of a source file, of a WebVTT file and of an image,
// each made while the file is hashed so that it is read once.
//
// Nothing here keeps a record as a side effect: a function that hashes a file returns the new
// record, and the caller decides where to keep it (the provider keeps it in the resource's
// private state, in its Recent records and in the Cache on disk).
package localfile

// This file is the one way the provider opens a file named by an attribute (a video's, a
// caption's or a chapter's source_file, a watermark's source_file, a theme's logo_file).
//
// Opening: a path is looked at (following links) before it is opened, and anything but a
// regular file is refused without opening it: opening a named pipe for reading waits for a
// writer, forever at plan time, and a device such as /dev/zero never ends. The path is then
// opened without blocking (a pipe put in its place meanwhile does not hold the open) and the open
// file is looked at again: it must be the same file (device and inode) and still regular.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Identity is what says, without reading a file, that it is still the file it was.
type Identity struct {
	Size    int64  `json:"size"`
	ModNano int64  `json:"mtime_ns"`
	ChgNano int64  `json:"ctime_ns"`
	Inode   uint64 `json:"inode"`
	Device  uint64 `json:"device"`
}

// NotRegularError is a path that names something other than a regular file.
type NotRegularError struct {
	Path string
	Kind string // "directory", "named pipe", "socket", "device", "special file"
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%q is not a regular file: it is a %s", e.Path, e.Kind)
}

// DanglingLinkError is a path that is a symbolic link whose target does not exist: "does not
// exist" would send the user looking for a path that is there.
type DanglingLinkError struct {
	Path, Target string
}

func (e *DanglingLinkError) Error() string {
	return fmt.Sprintf("%q is a symbolic link to %q, which does not exist", e.Path, e.Target)
}

// Unwrap makes a dangling link an fs.ErrNotExist still, for callers that only ask that.
func (e *DanglingLinkError) Unwrap() error { return fs.ErrNotExist }

// OpenRegular opens name for reading when it is a regular file, and returns the file's
// identity as the open file has it; the caller closes the file. A path that is not a regular
// file is a *NotRegularError, and is never opened; a symbolic link to nothing is a
// *DanglingLinkError; other errors are the system's (an fs.ErrNotExist for a missing file).
func OpenRegular(name string) (*os.File, Identity, error) {
	before, err := os.Stat(name)
	if err != nil {
		return nil, Identity{}, danglingOr(name, err)
	}
	if !before.Mode().IsRegular() {
		return nil, Identity{}, &NotRegularError{Path: name, Kind: fileKind(before.Mode())}
	}
	f, err := os.OpenFile(name, os.O_RDONLY|openNoBlock, 0)
	if err != nil {
		return nil, Identity{}, err
	}
	after, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, Identity{}, err
	}
	if !after.Mode().IsRegular() || !os.SameFile(before, after) {
		_ = f.Close()
		kind := "file put in place of the regular file while it was opened"
		if !after.Mode().IsRegular() {
			kind = fileKind(after.Mode())
		}
		return nil, Identity{}, &NotRegularError{Path: name, Kind: kind}
	}
	return f, identityOf(f, after), nil
}

// danglingOr is err, the failed stat of name, or a *DanglingLinkError when name itself is a
// symbolic link whose target is missing.
func danglingOr(name string, err error) error {
	if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if fi, lerr := os.Lstat(name); lerr == nil && fi.Mode()&os.ModeSymlink != 0 {
		target, _ := os.Readlink(name)
		return &DanglingLinkError{Path: name, Target: target}
	}
	return err
}

// IdentityOfOpen is the identity of the open file f now: compared with the one OpenRegular
// gave, it tells whether the file changed since it was opened.
func IdentityOfOpen(f *os.File) (Identity, error) {
	fi, err := f.Stat()
	if err != nil {
		return Identity{}, err
	}
	return identityOf(f, fi), nil
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

// AsNotRegular reports whether err is OpenRegular's refusal of a path that is not a regular
// file, and if so the refusal.
func AsNotRegular(err error) (*NotRegularError, bool) {
	var nr *NotRegularError
	ok := errors.As(err, &nr)
	return nr, ok
}

// AsDanglingLink reports whether err is OpenRegular's refusal of a symbolic link to nothing.
func AsDanglingLink(err error) (*DanglingLinkError, bool) {
	var dl *DanglingLinkError
	ok := errors.As(err, &dl)
	return dl, ok
}
