//go:build !unix

package emulator

// Systems without Unix owners and modes (Windows) check only that the links from -state are
// those of the start; the file is written by its path.

import (
	"io/fs"
	"os"
	"path/filepath"
)

func fileIDOf(fs.FileInfo) fileID { return fileID{} }

func untrustedOwner(fs.FileInfo, string) string { return "" }

func untrustedFile(fs.FileInfo, string) string { return "" }

func untrustedDir(fs.FileInfo, string) string { return "" }

func readStateFile(pin *statePin) ([]byte, error) { return os.ReadFile(pin.target) }

// writeStateFile replaces the pin's target with data through a synced temporary file beside it
// and a rename.
func writeStateFile(pin *statePin, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(pin.target), tempPattern(pin.target))
	if err != nil {
		return err
	}
	defer func() { _ = os.Remove(tmp.Name()) }() // Harmless after the rename.
	if _, err := tmp.Write(data); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), pin.target)
}
