package provider

// This file is the shared handling of an attribute whose value is the path of a local file that
// is uploaded (a video's source_file): the checks that refuse a file the service could not take
// before any request, and its SHA-256, taken at plan time and checked at apply time (without
// reading the file while the record of its hash is trusted, file_identity.go), so that a file
// that changed between the two (or during the upload) is reported instead of being recorded as
// what the plan said. It knows nothing of the kind of file: a caller that needs more (an image's
// dimensions) checks that in its own file.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// sourceFile is what the checks of a local file found: its size, the lowercase hex SHA-256 of
// its content, and the record to keep of that hash (see file_identity.go).
type sourceFile struct {
	Path   string
	Size   int64
	SHA256 string
	Record fileHashRecord
}

// openCheckedSource opens name through openRegularFile when it is a readable, non-empty file of
// at most limit bytes, without reading it. problem says what is wrong, in words that end a
// sentence starting with the attribute's name ("source_file ..."), and what to do; it is empty
// when the file fits, and the caller then closes the file.
func openCheckedSource(name string, limit int64) (*os.File, fileIdentity, string) {
	if name == "" {
		return nil, fileIdentity{}, "is empty: set it to the path of a local file"
	}
	f, id, err := openRegularFile(name)
	nr, notRegular := isNotRegular(err)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, id, fmt.Sprintf("names %q, which does not exist: correct the path (a relative path is relative to the "+
			"directory terraform runs in; path.module makes it relative to the module)", name)
	case notRegular && nr.Kind == "directory":
		return nil, id, fmt.Sprintf("names %q, which is a directory: set it to the path of a file", name)
	case notRegular:
		return nil, id, fmt.Sprintf("names %q, which is not a regular file (it is a %s): its content could "+
			"change between the plan and the apply, or never end; copy it to a regular file", name, nr.Kind)
	case err != nil:
		return nil, id, fmt.Sprintf("names %q, which cannot be read: %v", name, err)
	}
	var problem string
	switch {
	case id.Size == 0:
		problem = fmt.Sprintf("names %q, which is empty: the service takes no empty file", name)
	case id.Size > limit:
		problem = fmt.Sprintf("names %q, which holds %d bytes, more than the %s the service takes",
			name, id.Size, humanBytes(limit))
	}
	if problem != "" {
		_ = f.Close()
		return nil, id, problem
	}
	return f, id, ""
}

// inspectSourceFile checks name as openCheckedSource does and takes its SHA-256: the one of
// prior when prior records the file as it is now (then nothing of it is read), else by reading
// it whole.
func inspectSourceFile(name string, limit int64, prior fileHashRecord) (sourceFile, string) {
	f, id, problem := openCheckedSource(name, limit)
	if problem != "" {
		return sourceFile{}, problem
	}
	defer f.Close()
	if sum, ok := prior.trusted(id); ok {
		return sourceFile{Path: name, Size: id.Size, SHA256: sum, Record: prior}, ""
	}
	fh := newFileHasher(name)
	n, err := io.Copy(fh, f)
	if err != nil {
		return sourceFile{}, fmt.Sprintf("names %q, which could not be read whole: %v", name, err)
	}
	if n != id.Size {
		return sourceFile{}, fmt.Sprintf("names %q, which changed while it was read (%d bytes, then %d): run the plan "+
			"again once the file is written", name, id.Size, n)
	}
	rec := fh.record(id)
	return sourceFile{Path: name, Size: n, SHA256: rec.SHA256, Record: rec}, ""
}

// openPlannedSource opens the source file name for its upload after checking that it is still
// the file the plan took with the SHA-256 planned: when rec (the record the plan kept) trusts
// the file as it is now, nothing is read; else the file is read whole, and a file that changed
// since the plan is a *fileChangedError. The caller closes the file; the upload itself hashes
// what it sends (uploadVideoSource). It returns the file's identity now.
func openPlannedSource(name, planned string, rec fileHashRecord) (*os.File, videohost.UploadSource, fileIdentity, error) {
	f, id, err := openRegularFile(name)
	if err != nil {
		return nil, videohost.UploadSource{}, id, fmt.Errorf("opening %q: %w", name, err)
	}
	src := videohost.UploadSource{Name: name, Reader: f, Size: id.Size}
	if sum, ok := rec.trusted(id); ok && sum == planned {
		return f, src, id, nil
	}
	fh := newFileHasher(name)
	if _, err := io.Copy(fh, io.NewSectionReader(f, 0, 1<<62)); err != nil {
		_ = f.Close()
		return nil, videohost.UploadSource{}, id, fmt.Errorf("reading %q again: %w", name, err)
	}
	if now := fh.record(id).SHA256; now != planned {
		_ = f.Close()
		return nil, videohost.UploadSource{}, id, &fileChangedError{Path: name, Planned: planned, Now: now, When: "between the plan and the apply"}
	}
	return f, src, id, nil
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
