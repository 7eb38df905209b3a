package localfile

// This file holds what the caption and chapter resources check of their WebVTT source file
// before any request: the service refuses a file that is not WebVTT, but only once the upload is
// sent, after a plan that looked fine. Checked at plan time, the same mistake is a message on the
// attribute instead.

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// webVTTSignature opens every WebVTT file (after an optional byte order mark), followed by the
// end of the file, a space, a tab or a line break: the WebVTT rule, which the service applies.
const webVTTSignature = "WEBVTT"

var utf8BOM = []byte("\uFEFF")

// WebVTTFile is a WebVTT file as the plan and the upload see it.
type WebVTTFile struct {
	Size   int64
	SHA256 string // lowercase hex of the content
	// Record is the record of SHA256: the prior one when it was trusted, else a new one for the
	// caller to keep.
	Record Record
}

// InspectWebVTT reads the file name through once, in small pieces, and returns its size and
// SHA-256, or why it cannot be a caption or chapter file: missing, unreadable, not a regular
// file (a directory, a pipe or a device: a pipe could be read only once), empty, not WebVTT,
// or WebVTT whose cues are broken (webVTTCues). When prior records the file as it is now,
// nothing is read: it was checked when it was hashed.
// why is a sentence's end for the diagnostic on source_file.
func InspectWebVTT(name string, prior Record) (f WebVTTFile, why string) {
	if name == "" {
		return f, "it is empty: set it to the path of a WebVTT file"
	}
	fh, id, err := OpenRegular(name)
	nr, notRegular := AsNotRegular(err)
	dl, dangling := AsDanglingLink(err)
	switch {
	case dangling:
		return f, fmt.Sprintf("%q is a symbolic link to %q, which does not exist; correct the link's target or set "+
			"source_file to the file's own path", name, dl.Target)
	case os.IsNotExist(err):
		return f, fmt.Sprintf("the file %q does not exist (a relative path is taken from the directory Terraform runs in)", name)
	case notRegular:
		return f, fmt.Sprintf("%q is not a regular file (it is a %s); set source_file to a WebVTT file", name, nr.Kind)
	case err != nil:
		return f, fmt.Sprintf("the file %q cannot be read: %v", name, err)
	}
	defer fh.Close()
	if sum, ok := prior.Trusted(id); ok {
		return WebVTTFile{Size: id.Size, SHA256: sum, Record: prior}, ""
	}
	if id.Size == 0 {
		return f, fmt.Sprintf("the file %q is empty; a WebVTT file starts with the line WEBVTT", name)
	}
	head := make([]byte, len(utf8BOM)+len(webVTTSignature)+1)
	n, err := io.ReadFull(fh, head)
	if err != nil && err != io.ErrUnexpectedEOF {
		return f, fmt.Sprintf("the file %q cannot be read: %v", name, err)
	}
	if !isWebVTT(head[:n]) {
		return f, fmt.Sprintf("the file %q is not WebVTT: a WebVTT file starts with the line WEBVTT", name)
	}
	// The cues are checked from the bytes as they are hashed, so the file is read once.
	h, cues := NewHasher(), newWebVTTCues()
	both := io.MultiWriter(h, cues)
	_, _ = both.Write(head[:n])
	rest, err := io.Copy(both, fh)
	if err != nil {
		return f, fmt.Sprintf("the file %q cannot be read: %v", name, err)
	}
	if why := cues.Close(); why != "" {
		return f, fmt.Sprintf("the file %q is not valid WebVTT: %s; correct that line", name, why)
	}
	rec := h.Record(id)
	return WebVTTFile{Size: int64(n) + rest, SHA256: rec.SHA256, Record: rec}, ""
}

// isWebVTT reports whether head, the first bytes of a file, opens a WebVTT file.
func isWebVTT(head []byte) bool {
	head = bytes.TrimPrefix(head, utf8BOM)
	if !bytes.HasPrefix(head, []byte(webVTTSignature)) {
		return false
	}
	rest := head[len(webVTTSignature):]
	return len(rest) == 0 || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '\n' || rest[0] == '\r'
}
