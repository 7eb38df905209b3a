package localfile

import (
	"strings"
	"testing"
)

// TestWebVTTCues: well-formed files pass, whatever their line endings and however their bytes
// arrive; a broken cue is refused with its line number and what is wrong with it.
func TestWebVTTCues(t *testing.T) {
	good := []string{
		"WEBVTT",
		"WEBVTT\n",
		"WEBVTT - a title\nKind: captions\n\n00:01.000 --> 00:02.000\nHello.\n",
		"WEBVTT\n\nintro\n00:00:00.000 --> 00:00:02.000 align:start position:10%\nHello.\nTwo lines.\n\n" +
			"NOTE a comment\nover two lines\n\n01:00:00.000-->01:00:00.000\nAn instant.\n",
		"\uFEFFWEBVTT\r\n\r\n100:00:00.000 --> 100:00:01.500\r\nA long video.\r\n",
		"WEBVTT\n\nSTYLE\n::cue { color: yellow }\n\nREGION\nid:r1\n\n00:01.000 --> 00:02.000\nx",
	}
	for _, f := range good {
		if why := cueCheck(f, 1); why != "" {
			t.Errorf("%q refused: %s", f, why)
		}
	}
	for f, want := range map[string]string{
		"WEBVTT\n\n00:00:01.000 -> 00:00:02.000\nBroken arrow.\n":             `line 3, "00:00:01.000 -> 00:00:02.000", starts a block that is neither a cue nor a NOTE`,
		"WEBVTT\n\n1\n00:00:01.000 -> 00:00:02.000\nBroken arrow.\n":          `line 4, "00:00:01.000 -> 00:00:02.000", starts a block`,
		"WEBVTT\n\n00:00:0x.000 --> 00:00:02.000\nBad digit.\n":               `line 3, "00:00:0x.000 --> 00:00:02.000", is not a cue timing: the start "00:00:0x.000" is not a time`,
		"WEBVTT\n\n00:00:01.000 --> 00:00:02.00\nShort ms.\n":                 `the end "00:00:02.00" is not a time`,
		"WEBVTT\n\n00:01.000 --> 00:61.000\nSeconds.\n":                       `the end "00:61.000" is not a time`,
		"WEBVTT\n\n00:00:05.000 --> 00:00:02.000\nBackwards.\n":               `line 3, "00:00:05.000 --> 00:00:02.000", is not a cue timing: the cue ends (00:00:02.000) before it starts (00:00:05.000)`,
		"WEBVTT\n\n00:01.000 --> 00:02.000\nfine\n\n\nHello without timing\n": `line 7, "Hello without timing", starts a block`,
		"WEBVTT\r\n\r\n00:01.000 --> 0:02.000\r\n":                            `line 3, "00:01.000 --> 0:02.000"`,
	} {
		for _, chunk := range []int{1, 7, 1 << 20} {
			if why := cueCheck(f, chunk); !strings.Contains(why, want) {
				t.Errorf("%q in pieces of %d: %q, want %q", f, chunk, why, want)
			}
		}
	}
}

// cueCheck writes f to a webVTTCues in pieces of chunk bytes and returns what it found.
func cueCheck(f string, chunk int) string {
	c := newWebVTTCues()
	for len(f) > 0 {
		n := min(chunk, len(f))
		_, _ = c.Write([]byte(f[:n]))
		f = f[n:]
	}
	return c.Close()
}
