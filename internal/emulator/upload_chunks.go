package emulator

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strconv"
	"sync"
)

// Limits of a video source, from the contract.
const (
	minChunkBytes  = 5 << 20   // every chunk but the last
	maxChunkBytes  = 200 << 20 // every chunk, and a regular upload
	maxParts       = 10000
	maxSourceBytes = 30 << 30
)

// Forms of a source upload: one request without Content-Range, or chunks of either form.
const (
	formRegular = "regular"
	formBytes   = "bytes"
	formPart    = "part"
)

// contentRange is a chunk's Content-Range: bytes FROM-TO/TOTAL or part N/TOTAL; total is -1
// for *.
type contentRange struct {
	form     string
	from, to int64 // bytes form
	part     int64 // part form
	total    int64
}

var (
	bytesRangeRe = regexp.MustCompile(`^bytes (\d{1,15})-(\d{1,15})/(\d{1,15}|\*)$`)
	partRangeRe  = regexp.MustCompile(`^part (\d{1,9})/(\d{1,9}|\*)$`)
)

// parseContentRange reads a Content-Range header; false when it has neither form.
func parseContentRange(h string) (contentRange, bool) {
	num := func(s string) int64 {
		if s == "*" {
			return -1
		}
		n, _ := strconv.ParseInt(s, 10, 64) // The patterns allow 15 digits at most.
		return n
	}
	if m := bytesRangeRe.FindStringSubmatch(h); m != nil {
		return contentRange{form: formBytes, from: num(m[1]), to: num(m[2]), total: num(m[3])}, true
	}
	if m := partRangeRe.FindStringSubmatch(h); m != nil {
		return contentRange{form: formPart, part: num(m[1]), total: num(m[2])}, true
	}
	return contentRange{}, false
}

// check is the detail that refuses a range on its own, before any byte is read, or "".
func (c contentRange) check() string {
	switch c.form {
	case formBytes:
		switch {
		case c.from > c.to:
			return "The range's end comes before its start."
		case c.total >= 0 && c.to >= c.total:
			return "The range ends beyond the total size."
		case c.total > maxSourceBytes || c.to >= maxSourceBytes:
			return "A source holds at most 30 GiB."
		case c.to-c.from+1 > maxChunkBytes:
			return "A chunk holds at most 200 MiB."
		}
	case formPart:
		switch {
		case c.part < 1:
			return "Parts are numbered from 1."
		case c.part > maxParts || c.total > maxParts:
			return "A source has at most 10000 parts."
		case c.total >= 0 && c.part > c.total:
			return "The part's number is above the total number of parts."
		}
	}
	return ""
}

// last reports whether the chunk completes its range: it states the total and reaches it.
func (c contentRange) last() bool {
	if c.total < 0 {
		return false
	}
	if c.form == formPart {
		return c.part == c.total
	}
	return c.to == c.total-1
}

// key is where the chunk is kept: its first byte, or its part's number.
func (c contentRange) key() int64 {
	if c.form == formPart {
		return c.part
	}
	return c.from
}

// storedChunk is one chunk on disk: its file, its first byte (bytes form) and its size.
type storedChunk struct {
	path       string
	from, size int64
}

// uploadProgress is the upload of one video's source: its form, its total (bytes, or parts)
// once a chunk gave it, its chunks until it is complete, and their hash so far.
type uploadProgress struct {
	form     string
	total    int64
	chunks   map[int64]storedChunk
	complete bool
	size     int64
	hash     *sourceHash
}

// uploadRegistry keeps the uploads under way on disk, in a directory of the emulator's own
// that Close removes: memory holds only the chunks' descriptions, never their bytes.
type uploadRegistry struct {
	mu      sync.Mutex
	dir     string
	closed  bool
	byVideo map[string]*uploadProgress
}

// tempFile makes a new file for a chunk in the registry's directory, made on first use.
func (u *uploadRegistry) tempFile() (*os.File, error) {
	u.mu.Lock()
	if u.closed {
		u.mu.Unlock()
		return nil, errors.New("the emulator is closed")
	}
	if u.dir == "" {
		dir, err := os.MkdirTemp("", "videohost-emulator-uploads-")
		if err != nil {
			u.mu.Unlock()
			return nil, fmt.Errorf("making the upload directory: %w", err)
		}
		u.dir = dir
	}
	dir := u.dir
	u.mu.Unlock()
	return os.CreateTemp(dir, "chunk-*")
}

// progress is the upload of video id, or nil; the caller holds u.mu.
func (u *uploadRegistry) progressLocked(id string) *uploadProgress {
	if u.byVideo == nil {
		u.byVideo = map[string]*uploadProgress{}
	}
	return u.byVideo[id]
}

// progressView is what the status shows of an upload: its form and total, and its chunks in
// the order of the source with their keys (first byte, or part number).
type progressView struct {
	form     string
	total    int64
	complete bool
	size     int64
	keys     []int64
	chunks   []storedChunk
}

// view is what the status shows of the upload of video id, or false when none began.
func (u *uploadRegistry) view(id string) (progressView, bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	p := u.progressLocked(id)
	if p == nil {
		return progressView{}, false
	}
	keys := slices.Sorted(maps.Keys(p.chunks))
	return progressView{form: p.form, total: p.total, complete: p.complete, size: p.size, keys: keys, chunks: sortedChunks(p.form, p.chunks)}, true
}

// holds reports whether p is still the upload of video id: neither dropped nor closed.
func (u *uploadRegistry) holds(id string, p *uploadProgress) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.byVideo[id] == p
}

// drop forgets the upload of video id and deletes its chunks.
func (u *uploadRegistry) drop(id string) {
	u.mu.Lock()
	p := u.progressLocked(id)
	delete(u.byVideo, id)
	u.mu.Unlock()
	if p != nil {
		for _, c := range p.chunks {
			_ = os.Remove(c.path)
		}
	}
}

// close deletes every chunk and the directory.
func (u *uploadRegistry) close() error {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.byVideo = nil
	u.closed = true
	if u.dir == "" {
		return nil
	}
	err := os.RemoveAll(u.dir)
	u.dir = ""
	return err
}

// sortedChunks are chunks in the order of the source: by first byte, or by part.
func sortedChunks(form string, chunks map[int64]storedChunk) []storedChunk {
	keys := slices.Sorted(maps.Keys(chunks))
	out := make([]storedChunk, 0, len(keys))
	var offset int64
	for _, k := range keys {
		c := chunks[k]
		if form == formPart {
			c.from = offset
			offset += c.size
		}
		out = append(out, c)
	}
	return out
}

// coveredRanges merges the byte ranges of sorted chunks where they touch or overlap.
func coveredRanges(chunks []storedChunk) [][2]int64 {
	var out [][2]int64
	for _, c := range chunks {
		end := c.from + c.size - 1
		if n := len(out); n > 0 && c.from <= out[n-1][1]+1 {
			out[n-1][1] = max(out[n-1][1], end)
			continue
		}
		out = append(out, [2]int64{c.from, end})
	}
	return out
}

// isComplete reports whether every byte (or every part) of the source has arrived.
func (p *uploadProgress) isComplete() bool {
	if p.total < 0 {
		return false
	}
	if p.form == formPart {
		for n := int64(1); n <= p.total; n++ {
			if _, ok := p.chunks[n]; !ok {
				return false
			}
		}
		return true
	}
	r := coveredRanges(sortedChunks(p.form, p.chunks))
	return len(r) == 1 && r[0][0] == 0 && r[0][1] == p.total-1
}
