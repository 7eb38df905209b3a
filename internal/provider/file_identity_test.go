package provider

import (
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// specialFiles makes a named pipe, a unix socket (listening) and a directory in a temporary
// directory and returns them with /dev/zero, by the kind openRegularFile names.
func specialFiles(t *testing.T) map[string]string {
	t.Helper()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.mp4")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock.mp4")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	sub := filepath.Join(dir, "dir.mp4")
	if err := os.Mkdir(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	return map[string]string{"named pipe": fifo, "socket": sock, "device": "/dev/zero", "directory": sub}
}

// TestOpenRegularFileRefusesOthers: a pipe (which an open would wait on for a writer), a socket,
// a device that never ends and a directory are refused with their kind, without opening them.
func TestOpenRegularFileRefusesOthers(t *testing.T) {
	for kind, name := range specialFiles(t) {
		f, _, err := openRegularFile(name)
		nr, ok := isNotRegular(err)
		if f != nil || !ok || nr.Kind != kind {
			t.Errorf("%s: file %v, error %v; want a refusal naming a %s", name, f, err, kind)
		}
	}
	name := filepath.Join(t.TempDir(), "ok.bin")
	writeFile(t, name, "12345")
	f, id, err := openRegularFile(name)
	if err != nil || id.Size != 5 || id.Inode == 0 || id.ChgNano == 0 {
		t.Fatalf("a regular file: %v, %+v", err, id)
	}
	_ = f.Close()
}

// TestHashRecordTrust: a record taken well after the file's last write is trusted and spares
// the read; a record taken within racyWindow of the write is not; a file rewritten with its
// size and modification time restored (touch -d) is read again, because its change time moved.
func TestHashRecordTrust(t *testing.T) {
	name := filepath.Join(t.TempDir(), "clip.mp4")
	writeFile(t, name, "first content")
	f, problem := inspectSourceFile(name, 1<<20, fileHashRecord{})
	if problem != "" {
		t.Fatal(problem)
	}
	read := bytesHashed(name)

	// Racy: hashed in the same moment as the file was written.
	if _, problem := inspectSourceFile(name, 1<<20, f.Record); problem != "" || bytesHashed(name) != read+13 {
		t.Fatalf("a racy record was trusted (%d bytes read, want 13 more than %d): %s", bytesHashed(name), read, problem)
	}
	read = bytesHashed(name)

	// The same record as if it had been taken 3 s later: trusted, nothing read.
	rec := f.Record
	rec.HashedAt += int64(racyWindow + time.Second)
	got, problem := inspectSourceFile(name, 1<<20, rec)
	if problem != "" || got.SHA256 != f.SHA256 || bytesHashed(name) != read {
		t.Fatalf("a trusted record: %+v, %d bytes read, %s", got, bytesHashed(name)-read, problem)
	}

	// Rewritten, same size, modification time put back: the change time tells.
	mtime := time.Unix(0, rec.Identity.ModNano)
	writeFile(t, name, "other content")
	if err := os.Chtimes(name, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	got, problem = inspectSourceFile(name, 1<<20, rec)
	if problem != "" || got.SHA256 == f.SHA256 || got.SHA256 != sha256Hex("other content") {
		t.Fatalf("a file rewritten with its size and mtime restored kept the old hash: %+v %s", got, problem)
	}
}

// TestAccFileAttributesRefuseNonRegular: every attribute that names a file refuses a named
// pipe, a socket, /dev/zero and a directory at plan time, on the attribute, at once (a pipe
// used to hang the plan of a watermark or a logo), and nothing reaches the service.
func TestAccFileAttributesRefuseNonRegular(t *testing.T) {
	env := newAccEnv(t, emulator.Options{})
	configs := []struct {
		config       func(file string) string
		summary, dir string // the diagnostic's summary, and what it says of a directory
	}{
		{func(f string) string { return videoConfig(env, "title", hcl("Pipe"), "source_file", hcl(f)) }, "Invalid Source File", `is\s+a\s+directory`},
		{func(f string) string { return trackConfig(env, "caption", "vi0000000000000000000001", "en", f) }, "Unusable Source File", `it\s+is\s+a\s+directory`},
		{func(f string) string { return trackConfig(env, "chapter", "vi0000000000000000000001", "en", f) }, "Unusable Source File", `it\s+is\s+a\s+directory`},
		{func(f string) string { return watermarkConfig(env, f) }, "Invalid Image File", `it\s+is\s+a\s+directory`},
		{func(f string) string { return themeConfig(env, "name", hcl("brand"), "logo_file", hcl(f)) }, "Invalid Image File", `it\s+is\s+a\s+directory`},
	}
	var steps []resource.TestStep
	for _, c := range configs {
		for kind, file := range specialFiles(t) {
			want := `not\s+a\s+regular\s+file\s+\(it\s+is\s+a\s+` + strings.ReplaceAll(kind, " ", `\s+`) + `\)`
			if kind == "directory" {
				want = c.dir
			}
			steps = append(steps, resource.TestStep{
				Config:      c.config(file),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)` + c.summary + `.*` + regexp.QuoteMeta(filepath.Base(file)) + `.*` + want),
			})
		}
	}
	accTest(t, resource.TestCase{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, Steps: steps})
	for _, p := range []string{"/videos", "/watermarks", "/players"} {
		if n := env.RequestCount("", p); n != 0 {
			t.Errorf("%d requests reached %s; every file was refused at plan time", n, p)
		}
	}
}

// TestAccVideoPlanTrustsRecordedHash: once a video is uploaded, a refreshing plan over its
// unchanged source reads none of it (the record kept in the private state is trusted); the
// file rewritten with the same size and its modification time restored is read again and
// planned as a new source.
func TestAccVideoPlanTrustsRecordedHash(t *testing.T) {
	env := newAccEnv(t, emulator.Options{})
	dir := t.TempDir()
	file, _ := writeRandomFile(t, dir, "clip.mp4", 6<<20)
	// The record is trusted only when the file was last written racyWindow before it was hashed.
	time.Sleep(racyWindow + 100*time.Millisecond)
	config := videoConfig(env, "title", hcl("Trusted"), "source_file", hcl(file))
	var before int64
	var mtime time.Time
	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config},
			{
				PreConfig: func() {
					before = bytesHashed(file)
					forgetHashesOf(file) // as a new process with no cache: only the private state holds the record
				},
				Config:   config,
				PlanOnly: true,
			},
			{
				PreConfig: func() {
					if n := bytesHashed(file) - before; n != 0 {
						t.Errorf("a plan over the unchanged source read %d of its bytes", n)
					}
					fi, err := os.Stat(file)
					if err != nil {
						t.Fatal(err)
					}
					mtime = fi.ModTime()
					forgetHashesOf(file)
					rewritten, _ := writeRandomFile(t, dir, "clip.mp4", 6<<20)
					if err := os.Chtimes(rewritten, mtime, mtime); err != nil {
						t.Fatal(err)
					}
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("videohost_video.clip", plancheck.ResourceActionReplace),
				}},
			},
		},
	})
}

// forgetHashesOf forgets the records of path that this process made and that the cache on disk
// holds, as a new provider process with an empty cache would start.
func forgetHashesOf(path string) {
	recentHashes.Lock()
	defer recentHashes.Unlock()
	delete(recentHashes.m, path)
	if name := cachedHashFile(path); name != "" {
		_ = os.Remove(name)
	}
}

// TestEveryFileKindTrustsItsRecord: the images (watermark, logo) and the WebVTT files (caption,
// chapter) take their SHA-256 through the same record as a video's source: a record taken well
// after the file's last write spares the read, and one of another identity does not.
func TestEveryFileKindTrustsItsRecord(t *testing.T) {
	dir := t.TempDir()
	img := writePNG(t, dir, "logo.png", 10, 10, 1)
	vtt := tempFile(t, dir, "en.vtt", webVTT("hello"))
	kinds := map[string]func(string, fileHashRecord) (string, fileHashRecord, string){
		img: func(name string, prior fileHashRecord) (string, fileHashRecord, string) {
			f, err := readImageFile(name, logoImage, prior)
			if err != nil {
				return "", f.record, err.Error()
			}
			return f.sha256, f.record, ""
		},
		vtt: func(name string, prior fileHashRecord) (string, fileHashRecord, string) {
			f, why := inspectWebVTT(name, prior)
			return f.sha256, f.record, why
		},
	}
	for name, inspect := range kinds {
		sum, rec, why := inspect(name, fileHashRecord{})
		if why != "" || sum == "" {
			t.Fatalf("%s: %s", name, why)
		}
		read := bytesHashed(name)
		rec.HashedAt += int64(racyWindow + time.Second)
		if got, _, why := inspect(name, rec); why != "" || got != sum || bytesHashed(name) != read {
			t.Errorf("%s: a trusted record read %d bytes (sum %s, %s)", name, bytesHashed(name)-read, got, why)
		}
		other := rec
		other.Identity.Inode++
		if got, _, _ := inspect(name, other); got != sum || bytesHashed(name) == read {
			t.Errorf("%s: a record of another file was trusted", name)
		}
	}
}
