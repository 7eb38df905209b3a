package videohost

import (
	"crypto/sha256"
	"errors"
	"hash"
	"io"
	"net/http"
	"sync"
	"testing"
)

// countedFile is a source whose reads are counted, and whose bytes a test may change.
type countedFile struct {
	mu   sync.Mutex
	b    []byte
	read int64
}

func (c *countedFile) ReadAt(p []byte, off int64) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if off >= int64(len(c.b)) {
		return 0, io.EOF
	}
	n := copy(p, c.b[off:])
	c.read += int64(n)
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

func (c *countedFile) bytesRead() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.read
}

func (c *countedFile) flip(at int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.b[at] ^= 0xff
}

func countedSource(t *testing.T, n int) ([]byte, *countedFile, UploadSource) {
	data, _ := randomFile(t, n)
	cf := &countedFile{b: append([]byte(nil), data...)}
	return data, cf, UploadSource{Name: "clip.mp4", Reader: cf, Size: int64(n)}
}

// TestUploadHashIsTheFileReadOnce: with four chunks in flight, the hash the upload feeds is the
// file's SHA-256 and the file was read once, byte for byte; a resumed upload reads the ranges
// the service held for the hash, still once.
func TestUploadHashIsTheFileReadOnce(t *testing.T) {
	for name, preset := range map[string][][2]int64{
		"whole":   nil,
		"resumed": {{0, 5*mib - 1}, {5 * mib, 7 * mib}, {15 * mib, 20*mib - 1}},
	} {
		t.Run(name, func(t *testing.T) {
			s, f := uploadEnv(t)
			data, cf, src := countedSource(t, 23*mib+7)
			for _, r := range preset {
				s.preset(data, r[0], r[1])
			}
			h := sha256.New()
			opt := UploadOptions{ChunkSize: 5 * mib, ChunksInFlight: 4, Hash: h}
			if _, err := f.client(t).UploadVideoSource(t.Context(), vid, src, opt); err != nil {
				t.Fatal(err)
			}
			hashedOnce(t, h, data, cf)
			if !s.holds(data) {
				t.Fatal("the service does not hold the file")
			}
		})
	}
}

// TestUploadHashRetriedChunk: a chunk sent again is read again and checked against what the
// hash took: the same bytes pass, and bytes changed between the two sends are ErrSourceChanged.
func TestUploadHashRetriedChunk(t *testing.T) {
	for name, change := range map[string]bool{"same bytes": false, "changed bytes": true} {
		t.Run(name, func(t *testing.T) {
			s, f := uploadEnv(t)
			data, cf, src := countedSource(t, 11*mib)
			s.fault = func(n int, w http.ResponseWriter, r *http.Request, commit func()) bool {
				if n != 2 {
					return false
				}
				if change {
					cf.flip(5*mib + 3)
				}
				writeJSON(w, http.StatusInternalServerError, map[string]any{"title": "Oops.", "status": 500})
				return true
			}
			h := sha256.New()
			opt := UploadOptions{ChunkSize: 5 * mib, ChunksInFlight: 1, Hash: h}
			_, err := f.client(t).UploadVideoSource(t.Context(), vid, src, opt)
			if change {
				if !errors.Is(err, ErrSourceChanged) {
					t.Fatalf("err = %v, want ErrSourceChanged", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if want := sha256.Sum256(data); string(h.Sum(nil)) != string(want[:]) {
				t.Fatal("the upload's hash is not the file's SHA-256")
			}
			if got, want := cf.bytesRead(), src.Size+5*mib; got != want {
				t.Fatalf("the upload read %d bytes, want %d (the file and the chunk sent again)", got, want)
			}
		})
	}
}

// TestUploadHashCompletedByAnother: a chunk refused because the source became complete meanwhile
// (another upload of the same file finished it) ends the upload without an error, and the hash
// still holds the whole file: the bytes no chunk sent are read for it.
func TestUploadHashCompletedByAnother(t *testing.T) {
	s, f := uploadEnv(t)
	data, cf, src := countedSource(t, 12*mib)
	s.fault = func(n int, w http.ResponseWriter, r *http.Request, commit func()) bool {
		if n != 2 {
			return false
		}
		s.preset(data, 0, src.Size-1)
		s.mu.Lock()
		s.complete = true
		s.mu.Unlock()
		bad(w, slugAlreadyUploaded, "The source of the video is already uploaded.")
		return true
	}
	h := sha256.New()
	opt := UploadOptions{ChunkSize: 5 * mib, ChunksInFlight: 1, Hash: h}
	if _, err := f.client(t).UploadVideoSource(t.Context(), vid, src, opt); err != nil {
		t.Fatal(err)
	}
	hashedOnce(t, h, data, cf)
}

// hashedOnce checks that an upload's hash h is the SHA-256 of data, the file behind cf, and that
// the upload read each byte of it once.
func hashedOnce(t *testing.T, h hash.Hash, data []byte, cf *countedFile) {
	t.Helper()
	if want := sha256.Sum256(data); string(h.Sum(nil)) != string(want[:]) {
		t.Fatal("the upload's hash is not the file's SHA-256")
	}
	if got := cf.bytesRead(); got != int64(len(data)) {
		t.Fatalf("the upload read %d bytes of a file of %d", got, len(data))
	}
}
