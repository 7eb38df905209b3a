package localfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/localfile/localfiletest"
)

// TestOpenRegularFileRefusesOthers: a pipe (which an open would wait on for a writer), a socket,
// a device that never ends and a directory are refused with their kind, without opening them.
func TestOpenRegularFileRefusesOthers(t *testing.T) {
	for kind, name := range localfiletest.SpecialFiles(t) {
		f, _, err := OpenRegular(name)
		nr, ok := AsNotRegular(err)
		if f != nil || !ok || nr.Kind != kind {
			t.Errorf("%s: file %v, error %v; want a refusal naming a %s", name, f, err, kind)
		}
	}
	name := filepath.Join(t.TempDir(), "ok.bin")
	writeFile(t, name, "12345")
	f, id, err := OpenRegular(name)
	if err != nil || id.Size != 5 || id.Inode == 0 || id.ChgNano == 0 {
		t.Fatalf("a regular file: %v, %+v", err, id)
	}
	_ = f.Close()
}

// TestHashRecordTrust: a record taken well after the file's last write is trusted and spares
// the read; a record taken within RacyWindow of the write is not; a file rewritten with its
// size and modification time restored (touch -d) is read again, because its change time moved.
func TestHashRecordTrust(t *testing.T) {
	name := filepath.Join(t.TempDir(), "clip.mp4")
	first, other := strings.Repeat("first content", 1<<13), strings.Repeat("other content", 1<<13)
	writeFile(t, name, first)
	f, problem := InspectSource(name, 1<<20, Record{})
	if problem != "" {
		t.Fatal(problem)
	}
	size := int64(len(first))

	// Racy: hashed in the same moment as the file was written.
	if n := readDuring(t, func() { _, problem = InspectSource(name, 1<<20, f.Record) }); problem != "" || n < size {
		t.Fatalf("a racy record was trusted (%d bytes read, want %d or more): %s", n, size, problem)
	}

	// A record taken once RacyWindow has passed since the write: trusted, nothing read.
	time.Sleep(RacyWindow + 100*time.Millisecond)
	later, problem := InspectSource(name, 1<<20, Record{})
	if problem != "" {
		t.Fatal(problem)
	}
	rec := later.Record
	var got SourceFile
	n := readDuring(t, func() { got, problem = InspectSource(name, 1<<20, rec) })
	if problem != "" || got.SHA256 != f.SHA256 || got.Record != rec || n >= size/2 {
		t.Fatalf("a trusted record: %+v, %d bytes read, %s", got, n, problem)
	}
	future := rec
	future.HashedAt = time.Now().Add(time.Hour).UnixNano()
	if _, ok := future.Trusted(rec.Identity); ok {
		t.Error("a record from the future was trusted")
	}

	// Rewritten, same size, modification time put back: the change time tells.
	mtime := time.Unix(0, rec.Identity.ModNano)
	writeFile(t, name, other)
	if err := os.Chtimes(name, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	got, problem = InspectSource(name, 1<<20, rec)
	if problem != "" || got.SHA256 == f.SHA256 || got.SHA256 != sha256Hex(other) {
		t.Fatalf("a file rewritten with its size and mtime restored kept the old hash: %+v %s", got, problem)
	}
}

// TestEveryFileKindTrustsItsRecord: the images (watermark, logo) and the WebVTT files (caption,
// chapter) take their SHA-256 through the same record as a video's source: a record taken well
// after the file's last write spares the read, and one of another identity does not.
func TestEveryFileKindTrustsItsRecord(t *testing.T) {
	dir := t.TempDir()
	img := localfiletest.WriteNoisyPNG(t, dir, "logo.png", 100, 50) // about 40 KiB
	vtt := tempFile(t, dir, "en.vtt", webVTT(strings.Repeat("hello ", 1<<13)))
	time.Sleep(RacyWindow + 100*time.Millisecond) // a record is trusted once the file is that old
	kinds := map[string]func(string, Record) (string, Record, string){
		img: func(name string, prior Record) (string, Record, string) {
			f, err := ReadImage(name, logoImage, prior)
			if err != nil {
				return "", f.Record, err.Error()
			}
			return f.SHA256, f.Record, ""
		},
		vtt: func(name string, prior Record) (string, Record, string) {
			f, why := InspectWebVTT(name, prior)
			return f.SHA256, f.Record, why
		},
	}
	for name, inspect := range kinds {
		sum, rec, why := inspect(name, Record{})
		if why != "" || sum == "" {
			t.Fatalf("%s: %s", name, why)
		}
		fi, err := os.Stat(name)
		if err != nil {
			t.Fatal(err)
		}
		var got string
		if n := readDuring(t, func() { got, _, why = inspect(name, rec) }); why != "" || got != sum || n >= fi.Size()/2 {
			t.Errorf("%s: a trusted record read %d of its %d bytes (sum %s, %s)", name, n, fi.Size(), got, why)
		}
		other := rec
		other.Identity.Inode++
		if n := readDuring(t, func() { got, _, _ = inspect(name, other) }); got != sum || n < fi.Size() {
			t.Errorf("%s: a record of another file was trusted (%d bytes read)", name, n)
		}
	}
}
