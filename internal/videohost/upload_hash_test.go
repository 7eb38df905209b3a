package videohost

import (
	"crypto/sha256"
	"errors"
	"hash"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
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

// TestUploadHashReadsTheFileOnceBesideTheBodies: with four chunks in flight, the hash the upload
// feeds is the file's SHA-256, and the file was read once for it besides the bytes the chunks
// sent; a resumed upload reads the ranges the service held for the hash alone.
func TestUploadHashReadsTheFileOnceBesideTheBodies(t *testing.T) {
	for name, tc := range map[string]struct {
		preset [][2]int64
		sent   int64
	}{
		"whole": {sent: 23*mib + 7},
		// The chunks from 5 MiB and 10 MiB, and the last one from 20 MiB.
		"resumed": {preset: [][2]int64{{0, 5*mib - 1}, {5 * mib, 7 * mib}, {15 * mib, 20*mib - 1}}, sent: 13*mib + 7},
	} {
		t.Run(name, func(t *testing.T) {
			s, f := uploadEnv(t)
			data, cf, src := countedSource(t, 23*mib+7)
			for _, r := range tc.preset {
				s.preset(data, r[0], r[1])
			}
			h := sha256.New()
			opt := UploadOptions{ChunkSize: 5 * mib, ChunksInFlight: 4, Hash: h}
			if _, err := f.client(t).UploadVideoSource(t.Context(), vid, src, opt); err != nil {
				t.Fatal(err)
			}
			hashedBeside(t, h, data, cf, tc.sent)
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
			if got, want := cf.bytesRead(), 2*src.Size+5*mib; got != want {
				t.Fatalf("the upload read %d bytes, want %d (the file for the hash, the chunks, and the chunk sent again)", got, want)
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
	if want := sha256.Sum256(data); string(h.Sum(nil)) != string(want[:]) {
		t.Fatal("the upload's hash is not the file's SHA-256")
	}
	if got := cf.bytesRead(); got > 2*src.Size {
		t.Fatalf("the upload read %d bytes of a file of %d, more than the hash and the chunks", got, src.Size)
	}
}

// hashedBeside checks that an upload's hash h is the SHA-256 of data, the file behind cf, and that
// the upload read each byte of it once for the hash and the sent bytes once more for the chunks.
func hashedBeside(t *testing.T, h hash.Hash, data []byte, cf *countedFile, sent int64) {
	t.Helper()
	if want := sha256.Sum256(data); string(h.Sum(nil)) != string(want[:]) {
		t.Fatal("the upload's hash is not the file's SHA-256")
	}
	if got, want := cf.bytesRead(), int64(len(data))+sent; got != want {
		t.Fatalf("the upload read %d bytes of a file of %d, want %d (the file for the hash, %d for the chunks)", got, len(data), want, sent)
	}
}

// TestUploadBodiesGoTogether: with four chunks in flight, four bodies are read at once. The
// service reads 1 MiB of each chunk after the first to arrive (sent alone while the client learns
// the rate limit) and waits for the four to have come that far before it reads on: an upload that
// sent a chunk's body only once the one before was read whole would never get there.
func TestUploadBodiesGoTogether(t *testing.T) {
	s := newSourceStore(t)
	var arrived, posts atomic.Int32
	together := make(chan struct{})
	// Not the fake service, which reads every body whole before it answers.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && posts.Add(1) > 1 {
			r.Body = &barrierBody{ReadCloser: r.Body, at: mib, arrived: &arrived, of: 4, together: together}
		}
		s.serve(w, r)
	}))
	t.Cleanup(srv.Close)
	c, err := New(Config{BaseURL: srv.URL, APIKey: testKey, AuthScheme: AuthBasic, HTTPClient: srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	data, cf, src := countedSource(t, 25*mib)
	h := sha256.New()
	opt := UploadOptions{ChunkSize: 5 * mib, ChunksInFlight: 4, Hash: h}
	if _, err := c.UploadVideoSource(t.Context(), vid, src, opt); err != nil {
		t.Fatal(err)
	}
	select {
	case <-together:
	default:
		t.Fatalf("only %d chunk bodies were being read at once, want 4", arrived.Load())
	}
	hashedBeside(t, h, data, cf, src.Size)
	if !s.holds(data) {
		t.Fatal("the service does not hold the file")
	}
}

// barrierBody is a request body that, once at bytes were read, waits (at most 10 s) until of
// bodies have come that far.
type barrierBody struct {
	io.ReadCloser
	at       int64
	read     int64
	arrived  *atomic.Int32
	of       int32
	together chan struct{}
	waited   bool
}

func (b *barrierBody) Read(p []byte) (int, error) {
	if b.read >= b.at && !b.waited {
		b.waited = true
		if b.arrived.Add(1) == b.of {
			close(b.together)
		}
		select {
		case <-b.together:
		case <-time.After(10 * time.Second):
		}
	}
	n, err := b.ReadCloser.Read(p[:min(int64(len(p)), max(b.at-b.read, 1<<20))])
	b.read += int64(n)
	return n, err
}

// TestUploadHashWithholdsChangedChunk: an attempt at a chunk whose bytes are not those the hash
// read ends with ErrSourceChanged before its last bytes, so that the service never has the chunk
// whole; the same bytes pass whole.
func TestUploadHashWithholdsChangedChunk(t *testing.T) {
	for name, change := range map[string]bool{"same bytes": false, "changed bytes": true} {
		t.Run(name, func(t *testing.T) {
			_, cf, src := countedSource(t, 12*mib)
			s := newSequentialHash(src, sha256.New(), 5*mib)
			if err := s.whole(); err != nil {
				t.Fatal(err)
			}
			if change {
				cf.flip(7 * mib)
			}
			n, err := io.Copy(io.Discard, s.checked(io.NewSectionReader(cf, 5*mib, 5*mib), 5*mib, 5*mib))
			switch {
			case change && (!errors.Is(err, ErrSourceChanged) || n >= 5*mib):
				t.Fatalf("sent %d bytes, err = %v; want ErrSourceChanged before the chunk's end", n, err)
			case !change && (err != nil || n != 5*mib):
				t.Fatalf("sent %d bytes, err = %v; want the whole chunk", n, err)
			}
		})
	}
}
