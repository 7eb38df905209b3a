package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// The reference: curl posting the same bytes to the same emulator as Content-Range chunks, as
// the service's own clients do.

// part is one chunk of the file, cut into a file of its own for curl's -F.
type part struct {
	path     string
	from, to int64
}

// curlRun is a reference upload: the video it made, when its create started, and the chunks'
// own wall time.
type curlRun struct {
	id      string
	created time.Time
	seconds float64
	whole   float64
}

// cutParts cuts file into chunks of chunk bytes under <tmp>/parts, and creates a video titled
// title for them, noting when it started creating it.
func (b *bench) cutParts(file string, size, chunk int64, title string) ([]part, curlRun) {
	dir := filepath.Join(b.tmp, "parts")
	_ = os.RemoveAll(dir)
	check(os.MkdirAll(dir, 0o700))
	in, err := os.Open(file)
	check(err)
	defer in.Close()
	var parts []part
	for from := int64(0); from < size; from += chunk {
		n := min(chunk, size-from)
		p := part{filepath.Join(dir, fmt.Sprintf("p.%05d", len(parts))), from, from + n - 1}
		out, err := os.Create(p.path)
		check(err)
		_, err = io.Copy(out, io.NewSectionReader(in, from, n))
		check(err)
		check(out.Close())
		parts = append(parts, p)
	}
	run := curlRun{created: time.Now()}
	body, _ := json.Marshal(map[string]string{"title": title})
	out := b.curl("curl-create", "-sS", "--fail", "--max-time", "10", "-u", b.key+":", "-H", "Content-Type: application/json",
		"-d", string(body), b.baseURL+"/videos")
	var v struct {
		VideoID string `json:"videoId"`
	}
	if err := json.Unmarshal(out, &v); err != nil || v.VideoID == "" {
		fail("creating the video of %s failed: %s", title, out)
	}
	run.id = v.VideoID
	return parts, run
}

// curl runs curl to its end and returns its stdout; it fails when curl does.
func (b *bench) curl(name string, args ...string) []byte {
	p, err := b.ps.start(name, nil, append([]string{"curl"}, args...)...)
	check(err)
	if rc := b.ps.wait(p); rc != 0 {
		fail("%s failed (exit %d): %s", name, rc, b.tail(name+".err"))
	}
	out, _ := os.ReadFile(filepath.Join(b.tmp, name+".out"))
	return out
}

// chunkArgs are curl's arguments for one Content-Range chunk of a video's source.
func (b *bench) chunkArgs(id string, size int64, p part) []string {
	return []string{"-sS", "-u", b.key + ":", "-o", "/dev/null", "-w", "%{http_code}\n",
		"-H", fmt.Sprintf("Content-Range: bytes %d-%d/%d", p.from, p.to, size),
		"-F", "file=@" + p.path + ";filename=source.bin", b.baseURL + "/videos/" + id + "/source"}
}

// curlUpload posts file (size bytes) to a new video as sequential Content-Range chunks of chunk
// bytes on one connection (one curl, --next per chunk).
func (b *bench) curlUpload(file string, size, chunk int64) curlRun {
	parts, run := b.cutParts(file, size, chunk, "bench-upload curl")
	var args []string
	for i, p := range parts {
		if i > 0 {
			args = append(args, "--next")
		}
		args = append(args, b.chunkArgs(run.id, size, p)...)
	}
	t0 := time.Now()
	codes := b.curl("curl-upload", args...)
	run.seconds = time.Since(t0).Seconds()
	run.whole = time.Since(run.created).Seconds()
	b.curlChecked("curl's upload", run.id, string(codes))
	return run
}

// curlParallel creates a video and sends file as Content-Range chunks of chunk bytes, n requests
// at a time, one curl each, the next started as soon as one is answered: what the model carries
// for a shape when the client does nothing else. It returns the upload's span (sourceSpan).
func (b *bench) curlParallel(file string, size, chunk int64, n int) float64 {
	parts, run := b.cutParts(file, size, chunk, "bench-upload curl at a time")
	// The workers start processes and wait for them; only this goroutine may fail, so the
	// workers hand back their outcomes.
	type outcome struct {
		code string
		err  error
	}
	todo := make(chan int)
	results := make([]outcome, len(parts))
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			for i := range todo {
				name := fmt.Sprintf("curl-chunk-%d", i)
				p, err := b.ps.start(name, nil, append([]string{"curl"}, b.chunkArgs(run.id, size, parts[i])...)...)
				if err != nil {
					results[i].err = err
					continue
				}
				if rc := b.ps.wait(p); rc != 0 {
					results[i].err = fmt.Errorf("curl exit %d", rc)
				}
				out, _ := os.ReadFile(filepath.Join(b.tmp, name+".out"))
				results[i].code = string(out)
				_ = os.Remove(filepath.Join(b.tmp, name+".out"))
				_ = os.Remove(filepath.Join(b.tmp, name+".err"))
			}
		})
	}
	for i := range parts {
		todo <- i
	}
	close(todo)
	wg.Wait()
	var codes strings.Builder
	for _, r := range results {
		if r.err != nil {
			fail("curl's chunks %d at a time failed: %v", n, r.err)
		}
		codes.WriteString(r.code)
	}
	b.curlChecked(fmt.Sprintf("curl's chunks %d at a time", n), run.id, codes.String())
	span, _ := b.sourceSpan()
	return span
}

// curlChecked removes the chunks and fails unless every answer was 201 and the emulator holds
// the file's SHA-256 for the video.
func (b *bench) curlChecked(what, id, codes string) {
	_ = os.RemoveAll(filepath.Join(b.tmp, "parts"))
	counts := map[string]int{}
	bad := false
	for _, c := range strings.Fields(codes) {
		counts[c]++
		bad = bad || c != "201"
	}
	if bad {
		fail("%s had answers other than 201: %v", what, counts)
	}
	if b.source(id).sha256() != b.fileSum {
		fail("%s: the emulator's SHA-256 is not the file's", what)
	}
}
