//go:build unix

package localfile

import (
	"os"

	"golang.org/x/sys/unix"
)

// openNoBlock makes the open of a path that was a regular file a moment ago return at once even
// if a named pipe took its place meanwhile; it changes nothing for a regular file.
const openNoBlock = unix.O_NONBLOCK

// identityOf is the identity of the open file f, whose os.FileInfo is fi: the change time,
// inode and device come from the system's own status of the file.
func identityOf(f *os.File, fi os.FileInfo) Identity {
	id := Identity{Size: fi.Size(), ModNano: fi.ModTime().UnixNano()}
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return id // no inode: the record is never trusted
	}
	id.ChgNano = st.Ctim.Nano()
	id.Inode = uint64(st.Ino)
	id.Device = uint64(st.Dev) //nolint:gosec // a device number, compared, never computed with
	return id
}
