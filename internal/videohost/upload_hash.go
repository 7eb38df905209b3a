package videohost

import (
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"sync"
)

// sequentialHash feeds UploadOptions.Hash with every byte of a source in order, reading each
// byte once: the bytes of a chunk as its request's body reads them, and the bytes the service
// already held (skipped by a resumed upload) by reading them for the hash alone. Chunks may be
// in flight together, but their bodies are read one after the other: a chunk starts only once
// the body of the chunk before it was read whole (the frontier passed its end), so that its
// bytes reach the hash in order without being held; what overlaps is the wait for the service's
// answers, not the reading.
//
// A chunk sent again (a retry, or a body the transport makes anew) reads bytes that the hash has
// already taken: those are checked against the CRC-32C of the chunk's bytes as they were first
// read, and a difference is ErrSourceChanged, since the service would hold bytes the hash does
// not describe. A CRC, computed by the processor at several GB/s, rather than a second SHA-256
// on every byte sent: it guards against a file written meanwhile, not against an adversary, who
// could as well write the file before the plan.
type sequentialHash struct {
	src UploadSource
	h   io.Writer

	mu       sync.Mutex
	frontier int64         // the bytes before it are in h
	want     int64         // where the waiter waits for the frontier to reach
	reached  chan struct{} // closed when the frontier reaches want; nil when nobody waits
}

func newSequentialHash(src UploadSource, h io.Writer) *sequentialHash {
	return &sequentialHash{src: src, h: h}
}

// at returns where the frontier stands.
func (s *sequentialHash) at() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.frontier
}

// take adds p, read at off, to the hash when off is the frontier, and reports whether it did.
// It runs on every read of a chunk's body, so it wakes the waiter only once, when the frontier
// reaches what it waits for.
func (s *sequentialHash) take(off int64, p []byte) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if off != s.frontier || len(p) == 0 {
		return false
	}
	_, _ = s.h.Write(p)
	s.frontier += int64(len(p))
	if s.reached != nil && s.frontier >= s.want {
		close(s.reached)
		s.reached = nil
	}
	return true
}

// waitFor waits until the frontier reaches pos, or done is closed (the chunk that would move it
// ended), or ctx ends. One waiter at a time: the upload's loop, which starts the chunks in order.
func (s *sequentialHash) waitFor(ctx context.Context, pos int64, done <-chan struct{}) {
	s.mu.Lock()
	if s.frontier >= pos {
		s.mu.Unlock()
		return
	}
	reached := make(chan struct{})
	s.want, s.reached = pos, reached
	s.mu.Unlock()
	select {
	case <-reached:
	case <-done:
	case <-ctx.Done():
	}
	s.mu.Lock()
	if s.reached == reached {
		s.reached = nil
	}
	s.mu.Unlock()
}

// fill reads the file from the frontier up to pos for the hash alone: bytes no chunk sends. It
// reads from wherever the frontier stands at each step, so that the body of a chunk still being
// read (the service answered before reading it whole) and fill never leave a gap between them.
func (s *sequentialHash) fill(pos int64) error {
	buf := make([]byte, 256<<10)
	for {
		f := s.at()
		if f >= pos {
			return nil
		}
		n, err := s.src.Reader.ReadAt(buf[:min(int64(len(buf)), pos-f)], f)
		s.take(f, buf[:n])
		switch {
		case errors.Is(err, io.EOF) && f+int64(n) < pos:
			return fmt.Errorf("%w: it ends at byte %d, before the %d bytes it was measured to hold", ErrSourceChanged, f+int64(n), s.src.Size)
		case err != nil && !errors.Is(err, io.EOF):
			return fmt.Errorf("reading %q: %w", s.src.Name, err)
		}
	}
}

// chunkSeen is what the hash took of one chunk: the first n bytes, whose CRC-32C is sum.
type chunkSeen struct {
	s    *sequentialHash
	from int64

	mu  sync.Mutex
	n   int64
	sum uint32
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// attempt wraps the reader of the chunk's bytes for one attempt to send it.
func (c *chunkSeen) attempt(r io.Reader) io.Reader {
	return &seenReader{c: c, r: r}
}

// seenReader is one attempt's read of a chunk: its bytes past what the hash took of the chunk
// go to the hash, and those before are checked against it.
type seenReader struct {
	c   *chunkSeen
	r   io.Reader
	sum uint32 // the CRC-32C of this attempt's bytes so far
	pos int64  // from the chunk's start
}

func (a *seenReader) Read(p []byte) (int, error) {
	c := a.c
	// The length and the CRC of what the hash took, read together: another attempt at the same
	// chunk may move both meanwhile.
	c.mu.Lock()
	seen, seenSum := c.n, c.sum
	c.mu.Unlock()
	if a.pos < seen && int64(len(p)) > seen-a.pos {
		p = p[:seen-a.pos] // stop where the check is due
	}
	n, err := a.r.Read(p)
	if n == 0 {
		return n, err
	}
	a.sum = crc32.Update(a.sum, castagnoli, p[:n])
	if a.pos < seen {
		a.pos += int64(n)
		if a.pos == seen && a.sum != seenSum {
			return n, fmt.Errorf("%w: bytes %d to %d are not those read when the chunk was first sent",
				ErrSourceChanged, c.from, c.from+seen-1)
		}
		return n, err
	}
	if c.s.take(c.from+a.pos, p[:n]) {
		c.mu.Lock()
		c.n, c.sum = a.pos+int64(n), a.sum
		c.mu.Unlock()
	}
	a.pos += int64(n)
	return n, err
}
