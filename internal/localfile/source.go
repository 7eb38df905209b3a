package localfile

// This file is the handling of a local file that is uploaded whole as a video's source: the
// checks that refuse a file the service could not take before any request, and its SHA-256,
// taken at plan time and checked at apply time (without reading the file while the record of its
// hash is trusted, record.go), so that a file that changed between the two (or during the
// upload) is reported instead of being recorded as what the plan said. It knows nothing of the
// kind of file: a caller that needs more (an image's dimensions) checks that in its own file.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// SourceFile is what the checks of a local file found: its size, the lowercase hex SHA-256 of
// its content, and the record of that hash (the prior one when it was trusted, else a new one
// for the caller to keep; see record.go).
type SourceFile struct {
	Path   string
	Size   int64
	SHA256 string
	Record Record
}

// OpenChecked opens name through OpenRegular when it is a readable, non-empty file of
// at most limit bytes, without reading it. problem says what is wrong, in words that end a
// sentence starting with the attribute's name ("source_file ..."), and what to do; it is empty
// when the file fits, and the caller then closes the file.
func OpenChecked(name string, limit int64) (*os.File, Identity, string) {
	if name == "" {
		return nil, Identity{}, "is empty: set it to the path of a local file"
	}
	f, id, err := OpenRegular(name)
	nr, notRegular := AsNotRegular(err)
	dl, dangling := AsDanglingLink(err)
	switch {
	case dangling:
		return nil, id, fmt.Sprintf("names %q, a symbolic link to %q, which does not exist: correct the link's target or "+
			"set the attribute to the file's own path", name, dl.Target)
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
			name, id.Size, HumanBytes(limit))
	}
	if problem != "" {
		_ = f.Close()
		return nil, id, problem
	}
	return f, id, ""
}

// InspectSource checks name as OpenChecked does and takes its SHA-256: the one of
// prior when prior records the file as it is now (then nothing of it is read), else by reading
// it whole.
func InspectSource(name string, limit int64, prior Record) (SourceFile, string) {
	f, id, problem := OpenChecked(name, limit)
	if problem != "" {
		return SourceFile{}, problem
	}
	defer f.Close()
	if sum, ok := prior.Trusted(id); ok {
		return SourceFile{Path: name, Size: id.Size, SHA256: sum, Record: prior}, ""
	}
	fh := NewHasher()
	n, err := io.Copy(fh, f)
	if err != nil {
		return SourceFile{}, fmt.Sprintf("names %q, which could not be read whole: %v", name, err)
	}
	if n != id.Size {
		return SourceFile{}, fmt.Sprintf("names %q, which changed while it was read (%d bytes, then %d): run the plan "+
			"again once the file is written", name, id.Size, n)
	}
	rec := fh.Record(id)
	return SourceFile{Path: name, Size: n, SHA256: rec.SHA256, Record: rec}, ""
}

// OpenPlanned opens the source file name for its upload after checking that it is still the
// file the plan took with the SHA-256 planned: when rec (the record the plan kept) trusts the
// file as it is now, nothing is read and the record returned is empty; else the file is read
// whole, its new record is returned for the caller to keep, and a file that changed since the
// plan is a *ChangedError. The caller closes the file; the upload itself hashes what it sends.
// It returns the file's identity now.
func OpenPlanned(name, planned string, rec Record) (*os.File, Identity, Record, error) {
	f, id, err := OpenRegular(name)
	if err != nil {
		return nil, id, Record{}, fmt.Errorf("opening %q: %w", name, err)
	}
	if sum, ok := rec.Trusted(id); ok && sum == planned {
		return f, id, Record{}, nil
	}
	fh := NewHasher()
	if _, err := io.Copy(fh, io.NewSectionReader(f, 0, 1<<62)); err != nil {
		_ = f.Close()
		return nil, id, Record{}, fmt.Errorf("reading %q again: %w", name, err)
	}
	now := fh.Record(id)
	if now.SHA256 != planned {
		_ = f.Close()
		return nil, id, now, &ChangedError{Path: name, Planned: planned, Now: now.SHA256, When: "between the plan and the apply"}
	}
	return f, id, now, nil
}

// ChangedError is a file whose SHA-256 is no longer the one the plan took.
type ChangedError struct {
	Path, Planned, Now, When string
}

func (e *ChangedError) Error() string {
	return fmt.Sprintf("the file %q changed %s: its SHA-256 was %s when the plan was made and is %s now", e.Path, e.When, e.Planned, e.Now)
}

// HumanBytes writes a size in the largest binary unit that divides it, or in bytes.
func HumanBytes(n int64) string {
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
