package localfile

// This file holds the check of a WebVTT file's cues, made when the plan is made as the file is
// hashed. The service takes a file whose first line is WEBVTT and whose cues are broken (an
// arrow "->", a timestamp "00:00:0x.000"), and players then show nothing for them; checked
// here, the mistake is an error on source_file that names its line.

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// webVTTTimestamp is a WebVTT timestamp: hours (two digits or more, optional), minutes and
// seconds of two digits below 60, and milliseconds of three digits.
var webVTTTimestamp = regexp.MustCompile(`^(?:(\d{2,}):)?([0-5]\d):([0-5]\d)\.(\d{3})$`)

// maxCueLineKept bounds what is kept of one line: only a block's first two lines are read,
// and no timing line is longer.
const maxCueLineKept = 4096

// webVTTCues checks a WebVTT file's blocks as the file's bytes are written to it, line by line,
// keeping no more than the line in progress and the first two lines of the block in progress.
// Close returns the first problem, "" when there is none.
type webVTTCues struct {
	line     int    // lines seen
	partial  []byte // the line in progress
	inHeader bool   // still in the header block that the WEBVTT line opens
	block    []cueLine
	why      string
}

// cueLine is one of the first lines of a block, with its number.
type cueLine struct {
	n    int
	text string
}

func newWebVTTCues() *webVTTCues { return &webVTTCues{inHeader: true} }

// Write takes the next bytes of the file; it never fails.
func (c *webVTTCues) Write(p []byte) (int, error) {
	n := len(p)
	for c.why == "" {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			c.partial = append(c.partial, p[:min(len(p), max(0, maxCueLineKept-len(c.partial)))]...)
			break
		}
		c.partial = append(c.partial, p[:min(i, max(0, maxCueLineKept-len(c.partial)))]...)
		c.take(strings.TrimSuffix(string(c.partial), "\r"))
		c.partial, p = c.partial[:0], p[i+1:]
	}
	return n, nil
}

// Close ends the file and returns why its cues are wrong, or "".
func (c *webVTTCues) Close() string {
	if c.why == "" && len(c.partial) > 0 {
		c.take(strings.TrimSuffix(string(c.partial), "\r"))
	}
	if c.why == "" {
		c.endBlock()
	}
	return c.why
}

// take is the next whole line of the file.
func (c *webVTTCues) take(text string) {
	c.line++
	switch {
	case c.inHeader:
		c.inHeader = text != ""
	case text == "":
		c.endBlock()
	default:
		if len(c.block) < 2 {
			c.block = append(c.block, cueLine{c.line, text})
		}
	}
}

// endBlock checks the block that a blank line (or the file's end) closed: a comment, a style or
// region definition, or a cue, whose timing is its first line or, after an identifier, its
// second.
func (c *webVTTCues) endBlock() {
	block := c.block
	c.block = c.block[:0]
	if len(block) == 0 {
		return
	}
	for _, word := range []string{"NOTE", "STYLE", "REGION"} {
		if rest, ok := strings.CutPrefix(block[0].text, word); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			return
		}
	}
	for _, l := range block {
		if strings.Contains(l.text, "-->") {
			if why := cueTimingProblem(l.text); why != "" {
				c.why = fmt.Sprintf("line %d, %q, is not a cue timing: %s", l.n, l.text, why)
			}
			return
		}
	}
	at := block[len(block)-1]
	if !strings.ContainsAny(at.text, "->") {
		at = block[0]
	}
	c.why = fmt.Sprintf("line %d, %q, starts a block that is neither a cue nor a NOTE: a cue's first line (or its second, "+
		"after an identifier) is its timing, such as 00:00:01.000 --> 00:00:04.000, with an arrow of two dashes and >", at.n, at.text)
}

// cueTimingProblem is why the line text, which holds "-->", is not a cue timing, or "".
func cueTimingProblem(text string) string {
	left, right, _ := strings.Cut(text, "-->")
	start := strings.TrimSpace(left)
	end, _, _ := strings.Cut(strings.TrimLeft(right, " \t"), " ")
	end, _, _ = strings.Cut(end, "\t")
	startAt, ok := webVTTTime(start)
	if !ok {
		return fmt.Sprintf("the start %q is not a time such as 00:01.000 or 01:02:03.000 (minutes and seconds of two digits, "+
			"milliseconds of three)", start)
	}
	endAt, ok := webVTTTime(end)
	if !ok {
		return fmt.Sprintf("the end %q is not a time such as 00:01.000 or 01:02:03.000 (minutes and seconds of two digits, "+
			"milliseconds of three)", end)
	}
	if endAt < startAt {
		return fmt.Sprintf("the cue ends (%s) before it starts (%s)", end, start)
	}
	return ""
}

// webVTTTime is the time a WebVTT timestamp stands for, and whether s is one.
func webVTTTime(s string) (time.Duration, bool) {
	m := webVTTTimestamp.FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	if len(m[1]) > 6 { // a million hours and more: no video is that long, and a Duration overflows
		return 0, false
	}
	// The pattern holds only digits, so Atoi fails only on an empty hour, which is 0.
	h, _ := strconv.Atoi(m[1])
	mi, _ := strconv.Atoi(m[2])
	sec, _ := strconv.Atoi(m[3])
	ms, _ := strconv.Atoi(m[4])
	return time.Duration(h)*time.Hour + time.Duration(mi)*time.Minute + time.Duration(sec)*time.Second +
		time.Duration(ms)*time.Millisecond, true
}
