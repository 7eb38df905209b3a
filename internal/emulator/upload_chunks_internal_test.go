package emulator

import (
	"bytes"
	"log"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUploadDirectoryRemovedOnClose: an unfinished upload's chunk waits on disk in the
// emulator's own directory, which Close removes with it.
func TestUploadDirectoryRemovedOnClose(t *testing.T) {
	e, err := New(Options{APIKeys: []string{"k"}})
	if err != nil {
		t.Fatal(err)
	}
	v := e.newVideo()
	id := v.ID
	e.st.Videos = append(e.st.Videos, v)
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", "a.mp4")
	_, _ = fw.Write(make([]byte, minChunkBytes))
	_ = mw.Close()
	req := httptest.NewRequestWithContext(t.Context(), http.MethodPost, "/videos/"+id+"/source", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Content-Range", "part 1/*")
	req.SetBasicAuth("k", "")
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	if rec.Code != http.StatusCreated {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	dir := e.uploads.dir
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 1 {
		t.Fatalf("the chunk is not on disk in %q: %v %v", dir, entries, err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the upload directory outlived Close: %v", err)
	}
}

// TestChunkOfADeletedVideoSaysNothing: a chunk's hash that fails because its video was deleted
// meanwhile (its chunks' files went with it) logs nothing; the same failure on an upload still
// under way is logged.
func TestChunkOfADeletedVideoSaysNothing(t *testing.T) {
	e, err := New(Options{APIKeys: []string{"k"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	var logged bytes.Buffer
	log.SetOutput(&logged)
	t.Cleanup(func() { log.SetOutput(os.Stderr) })
	for _, deleted := range []bool{false, true} {
		v := e.newVideo()
		e.st.Videos = append(e.st.Videos, v)
		p := &uploadProgress{form: formBytes, total: -1, hash: newSourceHash(formBytes),
			chunks: map[int64]storedChunk{0: {path: filepath.Join(t.TempDir(), "gone"), size: 10}}}
		e.uploads.mu.Lock()
		e.uploads.progressLocked(v.ID)
		e.uploads.byVideo[v.ID] = p
		e.uploads.mu.Unlock()
		if deleted {
			e.uploads.drop(v.ID)
		}
		logged.Reset()
		if _, refused := e.afterChunk(v.ID, p, nil); refused != nil {
			t.Fatalf("deleted %v: %+v", deleted, refused)
		}
		if said := strings.Contains(logged.String(), "reading a chunk"); said == deleted {
			t.Errorf("deleted %v: the log says %q", deleted, logged.String())
		}
	}
}
