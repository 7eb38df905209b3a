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

// OpenRegular opens name for reading when it is a regular file, and returns the file's
// identity as the open file has it; the caller closes the file. A path that is not a regular
// file is a *NotRegularError, and is never opened; other errors are the system's (an fs.ErrNotExist for a missing file).
func OpenRegular(name string) (*os.File, Identity, error) {
	before, err := os.Stat(name)
	if err != nil {
		return nil, Identity{}, err
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
