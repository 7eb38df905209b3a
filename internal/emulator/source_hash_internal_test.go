package emulator

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

// hashTrial stores chunks in an upload without HTTP, as commitChunk does, and hashes them as
// the chunks' requests do.
type hashTrial struct {
	t     *testing.T
	dir   string
	u     *uploadRegistry
	p     *uploadProgress
	files atomic.Int64
}

func newHashTrial(t *testing.T, form string) *hashTrial {
	return &hashTrial{t: t, dir: t.TempDir(), u: &uploadRegistry{},
		p: &uploadProgress{form: form, total: -1, chunks: map[int64]storedChunk{}, hash: newSourceHash(form)}}
}

// store writes b as the chunk of key (a first byte, or a part number) and notes it, as
// commitChunk does; it answers the file.
func (tr *hashTrial) store(key int64, b []byte) string {
	path := filepath.Join(tr.dir, fmt.Sprint(tr.files.Add(1)))
	if err := os.WriteFile(path, b, 0o600); err != nil {
		tr.t.Fatal(err)
	}
	c := storedChunk{path: path, from: key, size: int64(len(b))}
	if tr.p.form == formPart {
		c.from = 0
	}
	tr.u.mu.Lock()
	tr.p.chunks[key] = c
	tr.p.hash.storedLocked(key)
	tr.u.mu.Unlock()
	return path
}

// sum finishes the hash of the source whose total is total (bytes, or parts).
func (tr *hashTrial) sum(total int64) (int64, string) {
	tr.u.mu.Lock()
	tr.p.total = total
	tr.u.mu.Unlock()
	size, sum, err := tr.u.sourceSum(tr.p)
	if err != nil {
		tr.t.Fatal(err)
	}
	return size, sum
}

// sourceOf is the source that chunks make, read as a complete source is read: by first byte,
// each chunk giving the bytes that no chunk before it gave.
func sourceOf(chunks map[int64][]byte) []byte {
	var out []byte
	for _, from := range slices.Sorted(func(yield func(int64) bool) {
		for k := range chunks {
			if !yield(k) {
				return
			}
		}
	}) {
		b := chunks[from]
		if end := from + int64(len(b)); end > int64(len(out)) {
			out = append(out, b[int64(len(out))-from:]...)
		}
	}
	return out
}

func hexSum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// TestSourceHashFollowsTheChunks: in order, the hash follows the chunks as they are stored, so
// the chunk that completes the source leaves only its own bytes to hash; out of order, it waits
// for the gap and then takes every chunk that was waiting.
func TestSourceHashFollowsTheChunks(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef"), 64) // 1 KiB
	tr := newHashTrial(t, formBytes)
	for from := int64(0); from < 768; from += 256 {
		tr.store(from, data[from:from+256])
		if err := tr.u.advance(tr.p); err != nil {
			t.Fatal(err)
		}
		if tr.p.hash.pos != from+256 {
			t.Fatalf("after the chunk at %d the hash holds %d bytes, want %d", from, tr.p.hash.pos, from+256)
		}
	}
	tr.store(768, data[768:])
	if size, sum := tr.sum(1024); size != 1024 || sum != hexSum(data) {
		t.Errorf("in order: %d %s, want 1024 %s", size, sum, hexSum(data))
	}

	parts := newHashTrial(t, formPart)
	parts.store(3, data[600:])
	parts.store(2, data[300:600])
	if err := parts.u.advance(parts.p); err != nil || parts.p.hash.pos != 0 {
		t.Fatalf("without part 1 the hash took %d bytes (%v)", parts.p.hash.pos, err)
	}
	parts.store(1, data[:300])
	if err := parts.u.advance(parts.p); err != nil || parts.p.hash.pos != 1024 || parts.p.hash.key != 4 {
		t.Fatalf("part 1 did not take the waiting parts: %d bytes, next part %d (%v)", parts.p.hash.pos, parts.p.hash.key, err)
	}
	if size, sum := parts.sum(3); size != 1024 || sum != hexSum(data) {
		t.Errorf("parts: %d %s, want 1024 %s", size, sum, hexSum(data))
	}
}

// TestSourceHashRewindsForAReplacedChunk: a chunk re-sent with other bytes after the first one
// was hashed, in either form, replaces it in the hash too; so does a chunk that starts inside
// a hashed one.
func TestSourceHashRewindsForAReplacedChunk(t *testing.T) {
	data := bytes.Repeat([]byte("videohost"), 100)
	wrong := bytes.Repeat([]byte("X"), 300)
	for _, form := range []string{formBytes, formPart} {
		tr := newHashTrial(t, form)
		k1, k2, k3 := int64(0), int64(300), int64(600)
		if form == formPart {
			k1, k2, k3 = 1, 2, 3
		}
		tr.store(k1, data[:300])
		tr.store(k2, wrong)
		tr.store(k3, data[600:])
		if err := tr.u.advance(tr.p); err != nil || tr.p.hash.pos != 900 {
			t.Fatalf("%s: %d bytes hashed (%v)", form, tr.p.hash.pos, err)
		}
		tr.store(k2, data[300:600])
		total := int64(900)
		if form == formPart {
			total = 3
		}
		if size, sum := tr.sum(total); size != 900 || sum != hexSum(data) {
			t.Errorf("%s: the replaced chunk stayed in the hash: %d %s, want 900 %s", form, size, sum, hexSum(data))
		}
	}
	// Bytes form: [0, 500) hashed, then a chunk from 100 that the source does not read (the
	// chunk at 0 comes first), then the end.
	tr := newHashTrial(t, formBytes)
	tr.store(0, data[:500])
	if err := tr.u.advance(tr.p); err != nil {
		t.Fatal(err)
	}
	tr.store(100, wrong)
	tr.store(500, data[500:])
	if _, sum := tr.sum(900); sum != hexSum(data) {
		t.Errorf("a chunk inside a hashed one changed the hash: %s, want %s", sum, hexSum(data))
	}
}

// TestSourceHashAnyOrder stores random chunks (overlapping, some with other bytes than their
// neighbours, re-sent with other bytes, in any order) from concurrent requests that each hash what they can, as the emulator's do: the sum
// is always that of the source the chunks make.
func TestSourceHashAnyOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 1))
	for trial := range 200 {
		size := 1 + rng.IntN(4096)
		final := make([]byte, size)
		for i := range final {
			final[i] = byte(rng.UintN(256))
		}
		form := formBytes
		if trial%2 == 1 {
			form = formPart
		}
		type send struct {
			key int64
			b   []byte
		}
		var sends []send
		want := map[int64][]byte{}
		var total int64
		if form == formPart {
			var cuts []int
			for i := 1; i < size; i++ {
				if rng.IntN(500) == 0 {
					cuts = append(cuts, i)
				}
			}
			cuts = append(append([]int{0}, cuts...), size)
			for n := 1; n < len(cuts); n++ {
				b := final[cuts[n-1]:cuts[n]]
				sends = append(sends, send{int64(n), b})
				want[int64(n)] = b
			}
			total = int64(len(cuts) - 1)
		} else {
			// Chunks that cover the source, some overlapping the one before.
			for from := 0; from < size; {
				to := min(size, from+1+rng.IntN(1024))
				start := from
				if from > 0 && rng.IntN(3) == 0 {
					start = max(0, from-rng.IntN(64))
					if _, taken := want[int64(start)]; taken {
						start = from
					}
				}
				sends = append(sends, send{int64(start), final[start:to]})
				want[int64(start)] = final[start:to]
				from = to
			}
			// And chunks of other bytes over the others: what the source reads of them
			// depends on the order of first bytes.
			for range rng.IntN(4) {
				start := rng.IntN(size)
				if _, taken := want[int64(start)]; taken {
					continue
				}
				b := bytes.Repeat([]byte{byte(rng.UintN(256))}, 1+rng.IntN(size-start))
				sends = append(sends, send{int64(start), b})
				want[int64(start)] = b
			}
			total = int64(size)
		}
		// Some chunks are first sent with other bytes, and replaced.
		var wrongs []send
		for _, s := range sends {
			if rng.IntN(4) == 0 {
				wrongs = append(wrongs, send{s.key, bytes.Repeat([]byte{0xEE}, len(s.b))})
			}
		}
		rng.Shuffle(len(sends), func(i, j int) { sends[i], sends[j] = sends[j], sends[i] })
		tr := newHashTrial(t, form)
		stored := func(s send) {
			tr.store(s.key, s.b)
			if err := tr.u.advance(tr.p); err != nil {
				t.Error(err)
			}
		}
		for _, w := range wrongs {
			stored(w)
		}
		var wg sync.WaitGroup
		for _, s := range sends {
			wg.Go(func() { stored(s) })
		}
		wg.Wait()
		gotSize, sum := tr.sum(total)
		wantSource := final
		if form == formBytes {
			wantSource = sourceOf(want)
		}
		if gotSize != int64(len(wantSource)) || sum != hexSum(wantSource) {
			t.Fatalf("trial %d (%s): %d %s, want %d %s", trial, form, gotSize, sum, len(wantSource), hexSum(wantSource))
		}
	}
}

// TestSourceHashReadFailure: a chunk's file that cannot be read leaves the hash where it was, and
// the next request takes the step again.
func TestSourceHashReadFailure(t *testing.T) {
	data := []byte("a source of two chunks")
	tr := newHashTrial(t, formBytes)
	tr.store(0, data[:10])
	path := tr.store(10, data[10:])
	moved := path + ".away"
	if err := os.Rename(path, moved); err != nil {
		t.Fatal(err)
	}
	if err := tr.u.advance(tr.p); err == nil {
		t.Fatal("a missing chunk's file did not fail the step")
	}
	if tr.p.hash.pos != 10 || tr.p.hash.reach != 10 || len(tr.p.hash.marks) != 1 {
		t.Fatalf("after the failed step: pos %d, reach %d, %d marks", tr.p.hash.pos, tr.p.hash.reach, len(tr.p.hash.marks))
	}
	if err := os.Rename(moved, path); err != nil {
		t.Fatal(err)
	}
	if size, sum := tr.sum(int64(len(data))); size != int64(len(data)) || sum != hexSum(data) {
		t.Errorf("%d %s, want %d %s", size, sum, len(data), hexSum(data))
	}
}
