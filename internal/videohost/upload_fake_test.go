package videohost

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"testing"
)

// sourceStore serves POST /videos/{id}/source and GET /videos/{id}/status of one video as the
// specification gives them, written independently of the client: it parses the multipart body,
// checks the Content-Range and the chunk rules, keeps the bytes that arrived, and refuses every
// upload once the source is complete. fault, when set, runs before a source request is handled
// and may answer it itself (returning true), after or without committing the chunk.
type sourceStore struct {
	t       *testing.T
	videoID string

	mu       sync.Mutex
	total    int64
	data     []byte
	got      [][2]int64 // the ranges received, merged, in order
	complete bool
	posts    []string // the Content-Range of every source request, "" for a regular one
	fault    func(n int, w http.ResponseWriter, r *http.Request, commit func()) bool
	rate     func(w http.ResponseWriter)
}

var contentRange = regexp.MustCompile(`^bytes (\d+)-(\d+)/(\d+|\*)$`)

func newSourceStore(t *testing.T) *sourceStore {
	return &sourceStore{t: t, videoID: vid}
}

// preset makes the store hold the bytes [from, to] of data already, as an earlier run left them.
func (s *sourceStore) preset(data []byte, from, to int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.data == nil {
		s.total, s.data = int64(len(data)), make([]byte, len(data))
	}
	copy(s.data[from:to+1], data[from:to+1])
	s.receive(from, to)
}

func (s *sourceStore) serve(w http.ResponseWriter, r *http.Request) {
	switch r.Method + " " + r.URL.Path {
	case "POST /videos/" + s.videoID + "/source":
		s.upload(w, r)
	case "GET /videos/" + s.videoID + "/status":
		writeJSON(w, http.StatusOK, s.status())
	case "GET /videos/" + s.videoID:
		writeJSON(w, http.StatusOK, videoJSON(s.videoID, "fetched"))
	default:
		writeJSON(w, http.StatusNotFound, map[string]any{"title": "Not found.", "status": 404})
	}
}

func bad(w http.ResponseWriter, slug, detail string) {
	writeJSON(w, http.StatusBadRequest, map[string]any{
		"type": docs + "/" + slug, "title": "Bad upload.", "detail": detail, "name": "file", "status": 400,
	})
}

func (s *sourceStore) upload(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.posts = append(s.posts, r.Header.Get("Content-Range"))
	n, fault := len(s.posts), s.fault
	s.mu.Unlock()
	if s.rate != nil {
		s.rate(w)
	}
	from, to, file, problem := s.parse(r)
	if problem != "" {
		bad(w, "invalid-attribute", problem)
		return
	}
	commit := func() { s.commit(from, to, file) }
	if fault != nil && fault(n, w, r, commit) {
		return
	}
	s.mu.Lock()
	done := s.complete
	s.mu.Unlock()
	if done {
		bad(w, slugAlreadyUploaded, "The source of the video is already uploaded.")
		return
	}
	commit()
	writeJSON(w, http.StatusCreated, videoJSON(s.videoID, "uploaded"))
}

// parse reads the one file part and checks it against the Content-Range and the chunk rules.
func (s *sourceStore) parse(r *http.Request) (from, to int64, file []byte, problem string) {
	media, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || media != "multipart/form-data" {
		return 0, 0, nil, "not multipart: " + r.Header.Get("Content-Type")
	}
	body, _ := io.ReadAll(r.Body)
	if r.ContentLength != int64(len(body)) {
		return 0, 0, nil, fmt.Sprintf("Content-Length %d, body %d", r.ContentLength, len(body))
	}
	mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	parts := 0
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, 0, nil, "multipart: " + err.Error()
		}
		if p.FileName() == "" {
			continue
		}
		parts++
		if p.FormName() != "file" || p.FileName() != "clip.mp4" {
			return 0, 0, nil, fmt.Sprintf("part %q named %q", p.FormName(), p.FileName())
		}
		file, _ = io.ReadAll(p)
	}
	if parts != 1 {
		return 0, 0, nil, fmt.Sprintf("%d file parts", parts)
	}
	return s.checkRange(r.Header.Get("Content-Range"), file)
}

func (s *sourceStore) checkRange(cr string, file []byte) (from, to int64, _ []byte, problem string) {
	if cr == "" {
		return 0, int64(len(file)) - 1, file, ""
	}
	m := contentRange.FindStringSubmatch(cr)
	if m == nil {
		return 0, 0, nil, "bad Content-Range " + cr
	}
	from, _ = strconv.ParseInt(m[1], 10, 64)
	to, _ = strconv.ParseInt(m[2], 10, 64)
	total, _ := strconv.ParseInt(m[3], 10, 64)
	switch {
	case to-from+1 != int64(len(file)):
		return 0, 0, nil, fmt.Sprintf("range %s for %d bytes", cr, len(file))
	case to != total-1 && len(file) < MinUploadChunkSize:
		return 0, 0, nil, fmt.Sprintf("chunk %s under 5 MiB and not the last", cr)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.data == nil {
		s.total, s.data = total, make([]byte, total)
	}
	if total != s.total {
		return 0, 0, nil, fmt.Sprintf("total %d, was %d", total, s.total)
	}
	return from, to, file, ""
}

func (s *sourceStore) commit(from, to int64, file []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.complete {
		return
	}
	if s.data == nil {
		s.total, s.data = int64(len(file)), make([]byte, len(file))
	}
	copy(s.data[from:], file)
	s.receive(from, to)
	s.complete = len(s.got) == 1 && s.got[0] == [2]int64{0, s.total - 1}
}

// receive adds [from, to] to the ranges received, merging those that touch.
func (s *sourceStore) receive(from, to int64) {
	rs := append(s.got, [2]int64{from, to})
	slices.SortFunc(rs, func(a, b [2]int64) int { return int(a[0] - b[0]) })
	merged := rs[:1]
	for _, r := range rs[1:] {
		if last := &merged[len(merged)-1]; r[0] <= last[1]+1 {
			last[1] = max(last[1], r[1])
			continue
		}
		merged = append(merged, r)
	}
	s.got = merged
}

// status renders the received ranges, merged, as the specification writes them.
func (s *sourceStore) status() map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.data == nil {
		return map[string]any{"encoding": map[string]any{"playable": false, "qualities": []any{}}}
	}
	ranges := []map[string]any{}
	for _, r := range s.got {
		ranges = append(ranges, map[string]any{"from": r[0], "to": r[1], "total": s.total})
	}
	state := IngestUploading
	if s.complete {
		state = IngestUploaded
	}
	return map[string]any{
		"ingest":   map[string]any{"status": state, "filesize": s.total, "receivedBytes": ranges},
		"encoding": map[string]any{"playable": false, "qualities": []any{}},
	}
}

// sent returns the Content-Range of every source request so far.
func (s *sourceStore) sent() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.posts)
}

func (s *sourceStore) holds(data []byte) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.complete && bytes.Equal(s.data, data)
}

// randomFile is n random bytes, as a source and its content.
func randomFile(t testing.TB, n int) ([]byte, UploadSource) {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return b, UploadSource{Name: "/tmp/some/dir/clip.mp4", Reader: bytes.NewReader(b), Size: int64(n)}
}

const mib = 1 << 20
