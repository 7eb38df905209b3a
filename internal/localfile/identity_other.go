//go:build !unix

package localfile

import "os"

// openNoBlock: the other systems have no named pipe that an open would wait for.
const openNoBlock = 0

// identityOf gives no inode where the system has none to give in os.FileInfo: a record of the
// file's SHA-256 is then never trusted, and every plan reads the file.
func identityOf(_ *os.File, fi os.FileInfo) Identity {
	return Identity{Size: fi.Size(), ModNano: fi.ModTime().UnixNano()}
}
