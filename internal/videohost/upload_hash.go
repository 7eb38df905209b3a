package videohost

import (
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"sync"
)

// sequentialHash feeds UploadOptions.Hash with every byte of a source in order, from a read of
// the file of its own: one goroutine reads the file from its start for the hash, while the
// chunks' bodies, several at once, read their ranges as the transport writes them. Over a long
// path one connection carries only so much, so the bodies must go out together; feeding the hash
// from the bodies would have them go one after the other. The second read costs a pass over
// bytes the page cache usually holds, never a chunk in memory.
//
// What the service receives is still what the hash describes: on the way the reader takes the
// CRC-32C of every chunk of the upload's grid, and each attempt at a chunk takes the CRC-32C of
// the bytes it sends and holds back its last read until the reader has passed the chunk's end.
// Bytes that differ (a file written meanwhile) end the attempt with ErrSourceChanged before
// its last bytes leave, so the service never holds the chunk whole. A CRC, computed by the
// processor at several GB/s, rather than a second SHA-256 on every byte sent: it guards against a
// file written meanwhile, not against an adversary, who could as well write the file before the
// plan.
//
// The reader runs no further than the end of the last chunk started (allow), so that it reads
// what the bodies read at about the same time, and reads nothing more once the upload stops.
type sequentialHash struct {
	src  UploadSource
	h    io.Writer
	grid int64 // the chunk size: chunk k holds bytes [k*grid, (k+1)*grid)

	mu      sync.Mutex
	allowed int64    // the reader reads the bytes before it
	sums    []uint32 // the CRC-32C of each chunk of the grid the reader has passed
	err     error    // why the reader stopped before the end of the file
	moved   chan struct{}
	started bool
	done    chan struct{} // closed when the reader has ended
}

// errHashStopped is the reader's end when the upload stopped before the file's end.
var errHashStopped = errors.New("videohost: the upload stopped before its hash was taken")

func newSequentialHash(src UploadSource, h io.Writer, grid int64) *sequentialHash {
	return &sequentialHash{src: src, h: h, grid: grid, moved: make(chan struct{}), done: make(chan struct{})}
}

// allow lets the reader read up to pos, starting it on the first call.
func (s *sequentialHash) allow(pos int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if pos > s.allowed {
		s.allowed = pos
		s.broadcast()
	}
	if !s.started {
		s.started = true
		go s.read()
	}
}

// broadcast wakes every waiter; the caller holds s.mu.
func (s *sequentialHash) broadcast() {
	close(s.moved)
	s.moved = make(chan struct{})
}

// stop ends the reader where it stands, and every wait for it: the upload is over.
func (s *sequentialHash) stop() {
	s.mu.Lock()
	if s.err == nil {
		s.err = errHashStopped
	}
	s.broadcast()
	started := s.started
	s.mu.Unlock()
	if started {
		<-s.done
	}
}

// whole waits until the reader has hashed the whole file, and says why it could not.
func (s *sequentialHash) whole() error {
	s.allow(s.src.Size)
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// read is the reader: the file in order into the hash, and the CRC-32C of each chunk.
func (s *sequentialHash) read() {
	defer close(s.done)
	buf := make([]byte, 256<<10)
	var pos int64
	var sum uint32
	for pos < s.src.Size {
		limit, ok := s.wait(pos)
		if !ok {
			return
		}
		chunkEnd := min((pos/s.grid+1)*s.grid, s.src.Size)
		n, err := s.src.Reader.ReadAt(buf[:min(int64(len(buf)), limit-pos, chunkEnd-pos)], pos)
		_, _ = s.h.Write(buf[:n])
		sum = crc32.Update(sum, castagnoli, buf[:n])
		pos += int64(n)
		if pos == chunkEnd {
			s.passed(sum)
			sum = 0
		}
		switch {
		case errors.Is(err, io.EOF) && pos < s.src.Size:
			s.fail(fmt.Errorf("%w: it ends at byte %d, before the %d bytes it was measured to hold", ErrSourceChanged, pos, s.src.Size))
			return
		case err != nil && !errors.Is(err, io.EOF):
			s.fail(fmt.Errorf("reading %q: %w", s.src.Name, err))
			return
		}
	}
}

// wait returns how far the reader may read from pos, once it may read at all; false once the
// upload stopped.
func (s *sequentialHash) wait(pos int64) (int64, bool) {
	for {
		s.mu.Lock()
		allowed, err, moved := s.allowed, s.err, s.moved
		s.mu.Unlock()
		switch {
		case err != nil:
			return 0, false
		case allowed > pos:
			return allowed, true
		}
		<-moved
	}
}

// passed records the CRC-32C of the next chunk of the grid.
func (s *sequentialHash) passed(sum uint32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sums = append(s.sums, sum)
	s.broadcast()
}

func (s *sequentialHash) fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		s.err = err
	}
	s.broadcast()
}

// chunkSum waits for the CRC-32C of chunk k of the grid, which the reader takes once allowed
// past the chunk's end (its body was allowed when the chunk started).
func (s *sequentialHash) chunkSum(k int) (uint32, error) {
	for {
		s.mu.Lock()
		sums, err, moved := s.sums, s.err, s.moved
		s.mu.Unlock()
		switch {
		case k < len(sums):
			return sums[k], nil
		case err != nil:
			return 0, err
		}
		<-moved
	}
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// checked wraps the reader of one attempt at the chunk of n bytes from off.
func (s *sequentialHash) checked(r io.Reader, off, n int64) io.Reader {
	return &checkedReader{s: s, r: r, from: off, k: int(off / s.grid), n: n}
}

// checkedReader is one attempt's read of a chunk: it takes the CRC-32C of the bytes as they go,
// and holds back the last ones until they are known to be those the hash took.
type checkedReader struct {
	s      *sequentialHash
	r      io.Reader
	from   int64
	k      int
	n, pos int64
	sum    uint32
}

func (c *checkedReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if n == 0 {
		return n, err
	}
	c.sum = crc32.Update(c.sum, castagnoli, p[:n])
	c.pos += int64(n)
	if c.pos < c.n {
		return n, err
	}
	want, werr := c.s.chunkSum(c.k)
	switch {
	case werr != nil:
		return 0, werr
	case want != c.sum:
		return 0, fmt.Errorf("%w: bytes %d to %d are not those read for the file's hash", ErrSourceChanged, c.from, c.from+c.n-1)
	}
	return n, err
}
