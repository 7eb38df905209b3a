package localfile

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/videohost/terraform-provider-videohost/internal/localfile/localfiletest"
)

var writeFile = localfiletest.WriteFile

// sha256Hex is the lowercase hex SHA-256 of s.
func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// tempFile writes content to name in dir and returns its path.
func tempFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	writeFile(t, p, content)
	return p
}

// webVTT is a small WebVTT file with one cue of text.
func webVTT(text string) string {
	return "WEBVTT\n\n00:00:00.000 --> 00:00:02.000\n" + text + "\n"
}

// bytesRead is how many bytes this process has read so far, by the system's count (rchar in
// /proc/self/io: every read, of any file). A test measures what a call read by the difference,
// with files much larger than the few hundred bytes that reading the count itself costs; it is
// skipped where the system keeps no such count.
func bytesRead(t *testing.T) int64 {
	t.Helper()
	raw, err := os.ReadFile("/proc/self/io")
	if err != nil {
		t.Skipf("this system does not count the bytes a process reads (%v)", err)
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, "rchar: "); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Skip("/proc/self/io has no rchar")
	return 0
}

// readDuring is how many bytes this process read while f ran.
func readDuring(t *testing.T, f func()) int64 {
	t.Helper()
	before := bytesRead(t)
	f()
	return bytesRead(t) - before
}

// danglingLink makes in dir a symbolic link, link.mp4, to gone.mp4, which does not exist.
func danglingLink(t *testing.T, dir string) string {
	t.Helper()
	link := filepath.Join(dir, "link.mp4")
	if err := os.Symlink(filepath.Join(dir, "gone.mp4"), link); err != nil {
		t.Fatal(err)
	}
	return link
}
