package emulator

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
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
