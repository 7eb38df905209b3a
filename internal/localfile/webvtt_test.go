package localfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestIsWebVTT(t *testing.T) {
	for head, want := range map[string]bool{
		"WEBVTT":                 true,
		"WEBVTT\n":               true,
		"WEBVTT\r\n":             true,
		"WEBVTT - a title\n":     true,
		"WEBVTT\tx":              true,
		"\uFEFFWEBVTT\n":         true, // a byte order mark may come first
		"WEBVTTX":                false,
		"webvtt\n":               false,
		" WEBVTT\n":              false,
		"1\n00:00:00,000 --> 00": false, // SubRip
		"":                       false,
	} {
		if got := isWebVTT([]byte(head)); got != want {
			t.Errorf("isWebVTT(%q) = %t, want %t", head, got, want)
		}
	}
}

func TestInspectWebVTT(t *testing.T) {
	dir := t.TempDir()
	content := webVTT("Hello.") + strings.Repeat("more text\n", 10000) // read in several pieces
	good := tempFile(t, dir, "good.vtt", content)
	f, why := InspectWebVTT(good, Record{})
	if why != "" || f.Size != int64(len(content)) || f.SHA256 != sha256Hex(content) {
		t.Errorf("a WebVTT file: %+v, %q", f, why)
	}
	short := tempFile(t, dir, "short.vtt", "WEBVTT")
	if f, why := InspectWebVTT(short, Record{}); why != "" || f.SHA256 != sha256Hex("WEBVTT") {
		t.Errorf("the shortest WebVTT file: %+v, %q", f, why)
	}
	for name, c := range map[string]struct{ path, want string }{
		"missing":   {filepath.Join(dir, "nope.vtt"), "does not exist"},
		"dangling":  {danglingLink(t, dir), "is a symbolic link to"},
		"directory": {dir, "is not a regular file (it is a directory)"},
		"empty":     {tempFile(t, dir, "empty.vtt", ""), "is empty"},
		"not WebVTT": {tempFile(t, dir, "x.srt", "1\n00:00:00,000 --> 00:00:01,000\nHi\n"),
			"is not WebVTT"},
		"no path": {"", "it is empty"},
	} {
		if _, why := InspectWebVTT(c.path, Record{}); !strings.Contains(why, c.want) {
			t.Errorf("%s: %q, want it to say %q", name, why, c.want)
		}
	}
	if os.Geteuid() != 0 {
		locked := tempFile(t, dir, "locked.vtt", "WEBVTT\n")
		if err := os.Chmod(locked, 0); err != nil {
			t.Fatal(err)
		}
		if _, why := InspectWebVTT(locked, Record{}); !strings.Contains(why, "cannot be read") {
			t.Errorf("an unreadable file: %q", why)
		}
	}
}
