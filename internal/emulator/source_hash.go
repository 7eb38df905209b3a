package emulator

import (
	"crypto/sha256"
	"encoding"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"sync"
)

// sourceHash is the SHA-256 of an upload's source, taken as its chunks are stored, in the order
// of the source. The request that stores a chunk hashes what that chunk joins to the bytes
// hashed so far: its own bytes and those of the later chunks that were waiting for them, read
// back while they are still in the page cache. So the request that completes a source hashes
// only what is left, not the whole source (at 1 GB/s, half a minute for 30 GiB), and
// chunks sent together are hashed while the next ones arrive.
//
// A chunk stored over bytes already hashed (a re-sent chunk replaces the one before it) rewinds
// the hash to the mark taken before the first step it may change; the chunks' files stay on
// disk until the source is complete, so the steps after it are taken again.
type sourceHash struct {
	// mu is held by the one request that hashes, outside the registry's lock, so that the
	// registry never waits on a file.
	mu    sync.Mutex
	sum   resumableHash
	marks []hashMark // one before every step taken, in order

	// The fields below are written under both mu and the registry's lock, and read under either.

	// key is where the next step starts: a byte offset (bytes form, regular) or a part number.
	key int64
	// pos is how many bytes of the source sum holds.
	pos int64
	// reach is the key after the step under way, or key when none is.
	reach int64
	// rewind is the lowest key of a chunk stored below reach since the last step, or -1.
	rewind int64
}

// resumableHash is a hash whose state can be saved and put back, as crypto/sha256's can (its
// documentation promises it).
type resumableHash interface {
	hash.Hash
	encoding.BinaryMarshaler
	encoding.BinaryUnmarshaler
}

// newSHA256 is a SHA-256 whose state can be saved and put back.
func newSHA256() resumableHash {
	h, ok := sha256.New().(resumableHash)
	if !ok {
		panic("crypto/sha256 no longer saves the state of its hash")
	}
	return h
}

// hashMark is the hash as it was before one step: where the step started and sum's state.
type hashMark struct {
	key, pos int64
	state    []byte
}

// hashStep is one step of the hash: the bytes [from, to) of a chunk's file, after which the next
// step starts at key next.
type hashStep struct {
	path     string
	from, to int64
	next     int64
}

// newSourceHash starts the hash of an upload of form, before its first byte.
func newSourceHash(form string) *sourceHash {
	first := int64(0)
	if form == formPart {
		first = 1
	}
	return &sourceHash{sum: newSHA256(), key: first, reach: first, rewind: -1}
}

// storedLocked notes that a chunk of key was stored: a chunk below reach may change bytes that
// are hashed, or being hashed. The caller holds the registry's lock.
func (h *sourceHash) storedLocked(key int64) {
	if key < h.reach {
		h.rewindToLocked(key)
	}
}

// rewindToLocked asks the next step to take the hash back to before key, unless it goes back
// further already. The caller holds the registry's lock.
func (h *sourceHash) rewindToLocked(key int64) {
	if h.rewind < 0 || key < h.rewind {
		h.rewind = key
	}
}

// rewindLocked takes the hash back to the last mark at or before the chunk that asked for it.
// The caller holds h.mu and the registry's lock.
func (h *sourceHash) rewindLocked() error {
	k := h.rewind
	h.rewind = -1
	i := len(h.marks) - 1
	for i >= 0 && h.marks[i].key > k {
		i--
	}
	if i < 0 {
		return nil // nothing hashed comes from that chunk
	}
	m := h.marks[i]
	if err := h.sum.UnmarshalBinary(m.state); err != nil {
		return fmt.Errorf("rewinding the source's hash: %w", err)
	}
	h.marks = h.marks[:i]
	h.key, h.pos, h.reach = m.key, m.pos, m.key
	return nil
}

// nextStepLocked is the step that continues the hash from h.key, when p holds its chunk: the
// next part, or the bytes from h.pos of the chunk that starts first among those that hold that
// byte (the order in which a complete source is read). The caller holds the registry's lock.
func (h *sourceHash) nextStepLocked(p *uploadProgress) (hashStep, bool) {
	if p.form == formPart {
		c, ok := p.chunks[h.key]
		return hashStep{path: c.path, from: 0, to: c.size, next: h.key + 1}, ok
	}
	var best storedChunk
	found := false
	for _, c := range p.chunks {
		if c.from <= h.pos && h.pos < c.from+c.size && (!found || c.from < best.from) {
			best, found = c, true
		}
	}
	if !found {
		return hashStep{}, false
	}
	return hashStep{path: best.path, from: h.pos - best.from, to: best.size, next: best.from + best.size}, true
}

// advance hashes every chunk of p that continues the hash, in order, until the next one has not
// arrived. On an error the hash stays where it was before the failed step.
func (u *uploadRegistry) advance(p *uploadProgress) error {
	h := p.hash
	h.mu.Lock()
	defer h.mu.Unlock()
	for {
		u.mu.Lock()
		if h.rewind >= 0 {
			if err := h.rewindLocked(); err != nil {
				u.mu.Unlock()
				return err
			}
		}
		step, ok := h.nextStepLocked(p)
		if !ok {
			u.mu.Unlock()
			return nil
		}
		state, err := h.sum.MarshalBinary()
		if err != nil {
			u.mu.Unlock()
			return fmt.Errorf("marking the source's hash: %w", err)
		}
		h.marks = append(h.marks, hashMark{key: h.key, pos: h.pos, state: state})
		h.reach = step.next
		u.mu.Unlock()

		err = hashFileRange(h.sum, step.path, step.from, step.to)

		u.mu.Lock()
		if err != nil {
			h.rewindToLocked(h.marks[len(h.marks)-1].key)
			rerr := h.rewindLocked()
			u.mu.Unlock()
			if rerr != nil {
				return rerr
			}
			return err
		}
		h.key, h.pos = step.next, h.pos+step.to-step.from
		u.mu.Unlock()
	}
}

// sourceSum finishes the hash of p, a complete source, and answers its size and SHA-256.
func (u *uploadRegistry) sourceSum(p *uploadProgress) (int64, string, error) {
	if err := u.advance(p); err != nil {
		return 0, "", err
	}
	h := p.hash
	h.mu.Lock()
	defer h.mu.Unlock()
	u.mu.Lock()
	end := p.total
	if p.form == formPart {
		end = p.total + 1
	}
	key, pos := h.key, h.pos
	u.mu.Unlock()
	if key != end {
		return 0, "", fmt.Errorf("the source's hash stopped at %d of %d", key, end)
	}
	h.marks = nil
	return pos, hex.EncodeToString(h.sum.Sum(nil)), nil
}

// hashFileRange writes the bytes [from, to) of the file at path to sum.
func hashFileRange(sum io.Writer, path string, from, to int64) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("reading a chunk: %w", err)
	}
	defer func() { _ = f.Close() }()
	n, err := io.CopyBuffer(sum, io.NewSectionReader(f, from, to-from), make([]byte, sourceCopyBufferLength))
	if err == nil && n != to-from {
		err = io.ErrUnexpectedEOF
	}
	if err != nil {
		return fmt.Errorf("reading a chunk: %w", err)
	}
	return nil
}
