package emulator_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// Chunks of the progressive tests: a full first chunk of the minimum size, and a short last one.
const (
	firstChunk = 5 * mib
	lastChunk  = 1234
)

// TestSourceBytesForm sends the last chunk first, then the first one with TOTAL *: the status
// shows the ranges received, and once both arrived the source is complete with the file's hash;
// the chunk sent again after that is refused.
func TestSourceBytesForm(t *testing.T) {
	start := time.Date(2026, 11, 28, 10, 0, 0, 123456789, time.UTC)
	e := newEnv(t, emulator.Options{IngestDelay: time.Hour, Now: func() time.Time { return start }})
	data := randomBytes(1, firstChunk+lastChunk)
	total := len(data)
	id := e.createVideo(map[string]any{"title": "bytes"})
	last := e.upload(id, fmt.Sprintf("bytes %d-%d/%d", firstChunk, total-1, total), fileParts(data[firstChunk:]))
	expectStatus(t, last, http.StatusCreated)
	if last.str("videoId") != id {
		t.Errorf("a chunk's answer is not the video: %s", last.raw)
	}
	s := e.api("GET", "/videos/"+id+"/status", nil)
	in, _ := s.body["ingest"].(map[string]any)
	if in["status"] != "uploading" || in["filesize"] != float64(total) {
		t.Errorf("after the last chunk: %s", s.raw)
	}
	if rb, _ := in["receivedBytes"].([]any); len(rb) != 1 || member(rb[0], "from") != float64(firstChunk) {
		t.Errorf("receivedBytes %v", in["receivedBytes"])
	}
	if len(qualities(s)) != 0 {
		t.Errorf("qualities before the source is complete: %s", s.raw)
	}
	if src := e.sourceOf(id); src.body["complete"] != false || src.body["sha256"] != nil || src.body["completedAt"] != nil {
		t.Errorf("an incomplete source: %s", src.raw)
	}
	e.emu.AdvanceClock(1500 * time.Millisecond)
	expectStatus(t, e.upload(id, fmt.Sprintf("bytes 0-%d/*", firstChunk-1), fileParts(data[:firstChunk])), http.StatusCreated)
	s = e.api("GET", "/videos/"+id+"/status", nil)
	in, _ = s.body["ingest"].(map[string]any)
	rb, _ := in["receivedBytes"].([]any)
	if in["status"] != "uploaded" || len(rb) != 1 || member(rb[0], "to") != float64(total-1) || len(qualities(s)) != 8 {
		t.Errorf("a complete source's status (ranges merged, 8 qualities waiting): %s", s.raw)
	}
	src := e.sourceOf(id)
	if src.str("sha256") != sha256Hex(data) || src.num("size") != total {
		t.Errorf("source %s, want %s and %d", src.raw, sha256Hex(data), total)
	}
	// completedAt is the clock when the chunk that completed the source arrived, to the
	// nanosecond, 1.5 s after the first chunk: a benchmark takes an upload's span from the two.
	uploads := member(e.ctl("GET", "/stats", nil).body["rateLimits"], "uploads")
	first, _ := time.Parse(time.RFC3339Nano, fmt.Sprint(member(uploads, "first")))
	at, err := time.Parse(time.RFC3339Nano, src.str("completedAt"))
	if err != nil || !at.Equal(start.Add(1500*time.Millisecond)) || at.Sub(first) != 1500*time.Millisecond {
		t.Errorf("completedAt %q (%v), first upload %v: want the clock's %s, 1.5 s after the first",
			src.str("completedAt"), err, member(uploads, "first"), start.Add(1500*time.Millisecond).Format(time.RFC3339Nano))
	}
	again := e.upload(id, fmt.Sprintf("bytes %d-%d/%d", firstChunk, total-1, total), fileParts(data[firstChunk:]))
	expectError(t, again, 400, "video-source-already-uploaded", "file")
	expectError(t, e.upload(id, "", fileParts(data[:10])), 400, "video-source-already-uploaded", "file")
	// The refused chunks were refused before their bodies were read.
	if got := e.emu.UploadedBytes(id); got != int64(total) {
		t.Errorf("UploadedBytes = %d, want %d", got, total)
	}
}

// TestSourcePartForm uploads as the Node client does: part N/TOTAL, the file part named after
// the file; a part sent again replaces the first one.
func TestSourcePartForm(t *testing.T) {
	e := newEnv(t, emulator.Options{IngestDelay: time.Hour})
	data := randomBytes(2, firstChunk+lastChunk)
	id := e.createVideo(map[string]any{"title": "parts"})
	named := func(b []byte) []part {
		return []part{{field: "clip.mp4", filename: "clip.mp4", body: bytes.NewReader(b)}}
	}
	// Part 2 first, then a wrong part 1, then the right part 1 in its place.
	expectStatus(t, e.upload(id, "part 2/2", named(data[firstChunk:])), http.StatusCreated)
	s := e.api("GET", "/videos/"+id+"/status", nil)
	in, _ := s.body["ingest"].(map[string]any)
	rp, _ := in["receivedParts"].(map[string]any)
	if fmt.Sprint(rp["parts"]) != "[2]" || rp["total"] != float64(2) || item(in["receivedBytes"], 0) != nil {
		t.Errorf("parts after part 2: %s", s.raw)
	}
	wrong := randomBytes(3, firstChunk)
	expectError(t, e.upload(id, "part 1/*", named(wrong[:lastChunk])), 400, "invalid-attribute", "file")
	id2 := e.createVideo(map[string]any{"title": "parts, replaced"})
	expectStatus(t, e.upload(id2, "part 1/*", named(wrong)), http.StatusCreated)
	s = e.api("GET", "/videos/"+id2+"/status", nil)
	in, _ = s.body["ingest"].(map[string]any)
	if rb, _ := in["receivedBytes"].([]any); len(rb) != 1 || member(rb[0], "to") != float64(firstChunk-1) {
		t.Errorf("the run from part 1: %s", s.raw)
	}
	expectStatus(t, e.upload(id2, "part 1/*", named(data[:firstChunk])), http.StatusCreated)
	expectStatus(t, e.upload(id2, "part 2/2", named(data[firstChunk:])), http.StatusCreated)
	if src := e.sourceOf(id2); src.str("sha256") != sha256Hex(data) {
		t.Errorf("the re-sent part did not replace the first: %s", src.raw)
	}
	expectStatus(t, e.upload(id, "part 1/2", named(data[:firstChunk])), http.StatusCreated)
	s = e.api("GET", "/videos/"+id+"/status", nil)
	in, _ = s.body["ingest"].(map[string]any)
	rp, _ = in["receivedParts"].(map[string]any)
	if fmt.Sprint(rp["parts"]) != "[1 2]" || in["filesize"] != float64(len(data)) {
		t.Errorf("complete parts: %s", s.raw)
	}
	if src := e.sourceOf(id); src.str("sha256") != sha256Hex(data) {
		t.Errorf("source %s", src.raw)
	}
}

func TestSourceRegularUpload(t *testing.T) {
	e := newEnv(t, emulator.Options{IngestDelay: time.Hour})
	data := randomBytes(4, 3000)
	id := e.createVideo(map[string]any{"title": "regular"})
	expectStatus(t, e.upload(id, "", []part{{field: "anything", filename: "a.mov", body: bytes.NewReader(data)}}), http.StatusCreated)
	if src := e.sourceOf(id); src.str("sha256") != sha256Hex(data) || src.num("size") != len(data) {
		t.Errorf("source %s", src.raw)
	}
	expectError(t, e.upload(id, "", fileParts(data)), 400, "video-source-already-uploaded", "file")
}

// TestSourceRegularTooLarge streams 200 MiB and one byte from a generator: the emulator refuses
// it without holding it.
func TestSourceRegularTooLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 200 MiB")
	}
	e := newEnv(t, emulator.Options{})
	id := e.createVideo(map[string]any{"title": "big"})
	big := io.LimitReader(zeros{}, 200*mib+1)
	expectError(t, e.upload(id, "", []part{{field: "file", filename: "big.mp4", body: big}}), 400, "uploaded-file-too-large", "file")
	if s := e.sourceOf(id); s.body["complete"] != false {
		t.Errorf("a refused file was kept: %s", s.raw)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func TestSourceRules(t *testing.T) {
	e := newEnv(t, emulator.Options{IngestDelay: time.Hour})
	small := func() []part { return fileParts([]byte("small")) }
	full := func() []part { return fileParts(randomBytes(5, firstChunk)) }
	id := e.createVideo(map[string]any{"title": "rules"})
	cases := []struct {
		name, rng  string
		parts      func() []part
		slug, attr string
	}{
		{"malformed range", "bytes 0-10", small, "invalid-attribute", "Content-Range"},
		{"end before start", "bytes 10-0/20", small, "invalid-attribute", "Content-Range"},
		{"end beyond total", "bytes 0-20/20", small, "invalid-attribute", "Content-Range"},
		{"over 30 GiB", "bytes 0-4/32212254721", small, "invalid-attribute", "Content-Range"},
		{"chunk over 200 MiB", fmt.Sprintf("bytes 0-%d/*", 200*mib), small, "invalid-attribute", "Content-Range"},
		{"part 0", "part 0/2", small, "invalid-attribute", "Content-Range"},
		{"over 10000 parts", "part 10001/*", small, "invalid-attribute", "Content-Range"},
		{"part above total", "part 3/2", small, "invalid-attribute", "Content-Range"},
		{"range and size differ", "bytes 0-9/*", small, "invalid-attribute", "Content-Range"},
		{"small chunk not last", "bytes 0-4/*", small, "invalid-attribute", "file"},
		{"small part not last", "part 1/2", small, "invalid-attribute", "file"},
		{"no file", "", func() []part { return []part{{field: "title", body: bytes.NewReader([]byte("x"))}} }, "attribute-required", "file"},
		{"two files", "", func() []part {
			return append(fileParts([]byte("a")), part{field: "b", filename: "b", body: bytes.NewReader([]byte("b"))})
		}, "invalid-attribute", "file"},
		{"empty file", "", func() []part { return fileParts(nil) }, "invalid-attribute", "file"},
	}
	for _, c := range cases {
		r := e.upload(id, c.rng, c.parts())
		if r.status != 400 || r.str("name") != c.attr || !bytes.HasSuffix([]byte(r.str("type")), []byte("/"+c.slug)) {
			t.Errorf("%s: %d %s", c.name, r.status, r.raw)
		}
	}
	if s := e.api("GET", "/videos/"+id+"/status", nil); s.body["ingest"] != nil {
		t.Errorf("refused chunks left an ingest: %s", s.raw)
	}
	// One form per upload; no regular upload while a progressive one is under way.
	expectStatus(t, e.upload(id, fmt.Sprintf("bytes 0-%d/*", firstChunk-1), full()), http.StatusCreated)
	expectError(t, e.upload(id, "part 2/2", small()), 400, "invalid-content-range", "file")
	expectError(t, e.upload(id, "", small()), 400, "invalid-content-range", "file")
	// One total per upload.
	expectStatus(t, e.upload(id, fmt.Sprintf("bytes %d-%d/%d", 2*firstChunk, 2*firstChunk+4, 2*firstChunk+5), small()), http.StatusCreated)
	expectError(t, e.upload(id, fmt.Sprintf("bytes 0-%d/%d", firstChunk-1, firstChunk+9), full()), 400, "invalid-attribute", "Content-Range")
	expectError(t, e.upload("viUnknown0000000000000000", "", small()), 404, "resource-not-found", "videoId")
	if e.emu.RequestCount("POST", "/videos/"+id+"/source") != len(cases)+5 {
		t.Errorf("requests counted: %d", e.emu.RequestCount("POST", "/videos/"+id+"/source"))
	}
}

// TestSourceUploadsClass: every multipart request counts in the uploads class, with its own
// window and headers, apart from the writes.
func TestSourceUploadsClass(t *testing.T) {
	e := newEnv(t, emulator.Options{Limits: emulator.Limits{Uploads: 2, Writes: 10}})
	id := e.createVideo(map[string]any{"title": "rate"})
	data := []byte("WEBVTT\n")
	for i := range 2 {
		r, err := e.multipartPost("/videos/"+id+"/chapters/en", nil, fileParts(data))
		if err != nil {
			t.Fatal(err)
		}
		expectStatus(t, r, http.StatusOK)
		if limit, remaining, _ := rateHeaders(t, r); limit != 2 || remaining != 1-i {
			t.Errorf("upload %d: limit %d remaining %d", i, limit, remaining)
		}
	}
	r := e.upload(id, "", fileParts([]byte("x")))
	expectStatus(t, r, http.StatusTooManyRequests)
	w := e.api("PATCH", "/videos/"+id, map[string]any{"title": "still writable"})
	expectStatus(t, w, http.StatusOK)
	if limit, remaining, _ := rateHeaders(t, w); limit != 10 || remaining != 8 {
		t.Errorf("a write after the uploads: limit %d remaining %d", limit, remaining)
	}
	if st := e.emu.RateStats(); st.Uploads.Requests != 3 || st.Uploads.TooManyRequests != 1 {
		t.Errorf("uploads class stats %+v", st.Uploads)
	}
}

// TestSourceMemoryDoesNotGrow uploads 64 MiB in 5 MiB chunks: the bytes the process allocated
// meanwhile stay far below the upload's size, so no chunk was held whole in memory.
func TestSourceMemoryDoesNotGrow(t *testing.T) {
	if testing.Short() {
		t.Skip("uploads 64 MiB")
	}
	e := newEnv(t, emulator.Options{IngestDelay: time.Hour})
	id := e.createVideo(map[string]any{"title": "memory"})
	const total = 64 * mib
	const chunk = 5 * mib
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for from := 0; from < total; from += chunk {
		to := min(from+chunk, total) - 1
		body := io.LimitReader(&patternReader{off: int64(from)}, int64(to-from+1))
		r := e.upload(id, fmt.Sprintf("bytes %d-%d/%d", from, to, total), []part{{field: "file", filename: "m.mp4", body: body}})
		expectStatus(t, r, http.StatusCreated)
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 24*mib {
		t.Errorf("uploading 64 MiB allocated %d MiB", grew/mib)
	}
	h := sha256.New()
	if _, err := io.Copy(h, io.LimitReader(&patternReader{}, total)); err != nil {
		t.Fatal(err)
	}
	if src := e.sourceOf(id); src.str("sha256") != hex.EncodeToString(h.Sum(nil)) {
		t.Errorf("source %s", src.raw)
	}
}

// patternReader yields byte i of the source as a function of i, from offset off on, so that a
// chunk can be made anywhere without holding the source.
type patternReader struct{ off int64 }

func (p *patternReader) Read(b []byte) (int, error) {
	for i := range b {
		x := p.off + int64(i)
		b[i] = byte(x*2654435761>>13) ^ byte(x>>20)
	}
	p.off += int64(len(b))
	return len(b), nil
}

// TestSourceFaults: a chunk committed then answered 500 is kept (sending it again replaces it);
// a cut connection keeps nothing of its chunk; both are counted.
func TestSourceFaults(t *testing.T) {
	e := newEnv(t, emulator.Options{IngestDelay: time.Hour})
	data := randomBytes(11, firstChunk+lastChunk)
	id := e.createVideo(map[string]any{"title": "faults"})
	e.emu.SetFaults(emulator.Faults{UploadCommitThen500Rate: 1})
	expectStatus(t, e.upload(id, "part 1/*", fileParts(data[:firstChunk])), http.StatusInternalServerError)
	s := e.api("GET", "/videos/"+id+"/status", nil)
	if fmt.Sprint(member(s.body["ingest"], "receivedParts")) != "map[parts:[1] total:<nil>]" {
		t.Errorf("the chunk answered 500 was not kept: %s", s.raw)
	}
	f := e.ctl("PUT", "/faults", map[string]any{"uploadCuts": 1, "uploadCutAfterBytes": 1000})
	expectStatus(t, f, http.StatusOK)
	before := e.emu.UploadedBytes(id)
	if _, err := e.multipartPost("/videos/"+id+"/source", map[string]string{"Content-Range": "part 2/2"}, fileParts(data[firstChunk:])); err == nil {
		t.Errorf("the cut chunk was answered")
	}
	if sent := e.emu.UploadedBytes(id) - before; sent < 1000 || sent >= lastChunk {
		t.Errorf("the cut chunk counted %d bytes", sent)
	}
	s = e.api("GET", "/videos/"+id+"/status", nil)
	if fmt.Sprint(member(member(s.body["ingest"], "receivedParts"), "parts")) != "[1]" {
		t.Errorf("the cut chunk was kept: %s", s.raw)
	}
	expectStatus(t, e.upload(id, "part 1/*", fileParts(data[:firstChunk])), http.StatusCreated)
	expectStatus(t, e.upload(id, "part 2/2", fileParts(data[firstChunk:])), http.StatusCreated)
	if src := e.sourceOf(id); src.str("sha256") != sha256Hex(data) {
		t.Errorf("source %s", src.raw)
	}
	c := e.emu.FaultCounts()
	if c.UploadCommitThen500 != 1 || c.UploadCut != 1 {
		t.Errorf("counts %+v", c)
	}
	g := e.ctl("GET", "/faults", nil)
	if member(g.body["injected"], "uploadCut") != float64(1) || member(g.body["injected"], "uploadCommitThen500") != float64(1) {
		t.Errorf("injected %s", g.raw)
	}
	stats := e.ctl("GET", "/stats", nil)
	if member(member(stats.body["uploads"], "videos"), id) != float64(e.emu.UploadedBytes(id)) {
		t.Errorf("stats uploads %s", stats.raw)
	}
}

// TestSourceConcurrentChunks sends every chunk at once, in both forms: the source is complete
// with the file's bytes in order.
func TestSourceConcurrentChunks(t *testing.T) {
	e := newEnv(t, emulator.Options{IngestDelay: time.Hour})
	const n = 4
	data := randomBytes(12, (n-1)*firstChunk+lastChunk)
	for _, form := range []string{"bytes", "part"} {
		id := e.createVideo(map[string]any{"title": form})
		var wg sync.WaitGroup
		statuses := make([]int, n)
		for i := range n {
			from, to := i*firstChunk, min((i+1)*firstChunk, len(data))-1
			rng := fmt.Sprintf("bytes %d-%d/%d", from, to, len(data))
			if form == "part" {
				rng = fmt.Sprintf("part %d/%d", i+1, n)
			}
			wg.Go(func() {
				r, err := e.multipartPost("/videos/"+id+"/source", map[string]string{"Content-Range": rng}, fileParts(data[from:to+1]))
				if err == nil {
					statuses[i] = r.status
				}
			})
		}
		wg.Wait()
		if fmt.Sprint(statuses) != "[201 201 201 201]" {
			t.Errorf("%s: statuses %v", form, statuses)
		}
		if src := e.sourceOf(id); src.str("sha256") != sha256Hex(data) {
			t.Errorf("%s: source %s", form, src.raw)
		}
	}
}

// TestSandboxDeletesUploadedVideos: the sandbox deletes a video 24 hours after its upload; a
// video still waiting for its source stays.
func TestSandboxDeletesUploadedVideos(t *testing.T) {
	e := newEnv(t, emulator.Options{IngestDelay: time.Hour})
	empty := e.createVideo(map[string]any{"title": "empty"})
	id := e.createVideo(map[string]any{"title": "uploaded"})
	expectStatus(t, e.upload(id, "", fileParts([]byte("source"))), http.StatusCreated)
	e.emu.AdvanceClock(24*time.Hour - time.Second)
	expectStatus(t, e.api("GET", "/videos/"+id, nil), http.StatusOK)
	e.emu.AdvanceClock(time.Second)
	expectError(t, e.api("GET", "/videos/"+id, nil), 404, "resource-not-found", "videoId")
	expectStatus(t, e.api("GET", "/videos/"+empty, nil), http.StatusOK)
	prod := newEnv(t, emulator.Options{Environment: emulator.EnvProduction, IngestDelay: time.Hour})
	kept := prod.createVideo(map[string]any{"title": "kept"})
	expectStatus(t, prod.upload(kept, "", fileParts([]byte("source"))), http.StatusCreated)
	prod.emu.AdvanceClock(48 * time.Hour)
	expectStatus(t, prod.api("GET", "/videos/"+kept, nil), http.StatusOK)
}
