package provider

// This file is the shared handling of an attribute whose value is the path of a local file that
// is uploaded (a video's source_file): the checks that refuse a file the service could not take
// before any request, and its SHA-256, taken at plan time and again at apply time, so that a file
// that changed between the two (or during the upload) is reported instead of being recorded as
// what the plan said. It knows nothing of the kind of file: a caller that needs more (an image's
// dimensions) checks that in its own file.

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// sourceFile is what the checks of a local file found: its size and the lowercase hex SHA-256
// of its content.
type sourceFile struct {
	Path   string
	Size   int64
	SHA256 string
}

// statSourceFile checks that name is a regular, readable, non-empty file of at most limit bytes,
// without reading it whole. problem says what is wrong, in words that end a sentence starting
// with the attribute's name ("source_file ..."), and what to do; it is empty when the file fits.
func statSourceFile(name string, limit int64) (size int64, problem string) {
	if name == "" {
		return 0, "is empty: set it to the path of a local file"
	}
	fi, err := os.Stat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return 0, fmt.Sprintf("names %q, which does not exist: correct the path (a relative path is relative to the "+
			"directory terraform runs in; path.module makes it relative to the module)", name)
	case err != nil:
		return 0, fmt.Sprintf("names %q, which cannot be read: %v", name, err)
	case fi.IsDir():
		return 0, fmt.Sprintf("names %q, which is a directory: set it to the path of a file", name)
	case !fi.Mode().IsRegular():
		return 0, fmt.Sprintf("names %q, which is not a regular file (a device, a pipe or a socket): its content could "+
			"change between the plan and the apply; copy it to a regular file", name)
	case fi.Size() == 0:
		return 0, fmt.Sprintf("names %q, which is empty: the service takes no empty file", name)
	case fi.Size() > limit:
		return 0, fmt.Sprintf("names %q, which holds %d bytes, more than the %s the service takes",
			name, fi.Size(), humanBytes(limit))
	}
	f, err := os.Open(name)
	if err != nil {
		return 0, fmt.Sprintf("names %q, which cannot be read: %v", name, err)
	}
	_ = f.Close()
	return fi.Size(), ""
}

// inspectSourceFile checks name as statSourceFile does and reads it whole for its SHA-256.
func inspectSourceFile(name string, limit int64) (sourceFile, string) {
	size, problem := statSourceFile(name, limit)
	if problem != "" {
		return sourceFile{}, problem
	}
	sum, n, err := hashFile(name)
	if err != nil {
		return sourceFile{}, fmt.Sprintf("names %q, which could not be read whole: %v", name, err)
	}
	if n != size {
		return sourceFile{}, fmt.Sprintf("names %q, which changed while it was read (%d bytes, then %d): run the plan "+
			"again once the file is written", name, size, n)
	}
	return sourceFile{Path: name, Size: n, SHA256: sum}, ""
}

// hashFile returns the lowercase hex SHA-256 of the file name and how many bytes it read.
func hashFile(name string) (string, int64, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", n, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// openPlannedFile opens the file the plan took with the SHA-256 planned, and checks that it
// still holds those bytes: a file that changed between the plan and the apply is an error that
// says so. The caller closes the file.
func openPlannedFile(name, plannedSHA256 string) (*os.File, videohost.UploadSource, error) {
	if err := checkFileUnchanged(name, plannedSHA256, "between the plan and the apply"); err != nil {
		return nil, videohost.UploadSource{}, err
	}
	return openSourceFile(name)
}

// openSourceFile opens a file for an upload that reads it by ranges, with its size now (the
// client refuses to go on when the file grows or shrinks meanwhile). The caller closes the file.
func openSourceFile(name string) (*os.File, videohost.UploadSource, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, videohost.UploadSource{}, fmt.Errorf("opening %q: %w", name, err)
	}
	fi, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, videohost.UploadSource{}, fmt.Errorf("reading the size of %q: %w", name, err)
	}
	return f, videohost.UploadSource{Name: name, Reader: f, Size: fi.Size()}, nil
}

// checkFileUnchanged reads the file again and compares it with the plan's SHA-256; when says
// since when it may have changed ("while it was uploaded"): a file whose bytes changed during its
// upload may have sent some of its old bytes and some of its new ones.
func checkFileUnchanged(name, plannedSHA256, when string) error {
	sum, _, err := hashFile(name)
	if err != nil {
		return fmt.Errorf("reading %q again: %w", name, err)
	}
	if sum != plannedSHA256 {
		return &fileChangedError{Path: name, Planned: plannedSHA256, Now: sum, When: when}
	}
	return nil
}

// fileChangedError is a file whose SHA-256 is no longer the one the plan took.
type fileChangedError struct {
	Path, Planned, Now, When string
}

func (e *fileChangedError) Error() string {
	return fmt.Sprintf("the file %q changed %s: its SHA-256 was %s when the plan was made and is %s now", e.Path, e.When, e.Planned, e.Now)
}

// humanBytes writes a size in the largest binary unit that divides it, or in bytes.
func humanBytes(n int64) string {
	for _, u := range []struct {
		shift int
		name  string
	}{{30, "GiB"}, {20, "MiB"}, {10, "KiB"}} {
		if n >= 1<<u.shift && n%(1<<u.shift) == 0 {
			return fmt.Sprintf("%d %s", n>>u.shift, u.name)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}
