package videohost

// The upload token calls: what is sent, and that the token is never shown.

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
)

func TestUploadTokenCallsNeverShowTheToken(t *testing.T) {
	tokenJSON := map[string]any{"token": secretToken, "ttl": 60, "createdAt": "2024-08-08T14:12:18+00:00",
		"expiresAt": "2024-08-08T14:13:18+00:00"}
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.Method + " " + r.URL.Path {
		case "POST /upload-tokens":
			writeJSON(w, http.StatusOK, tokenJSON)
		case "GET /upload-tokens":
			writeJSON(w, http.StatusOK, map[string]any{"data": []any{tokenJSON},
				"pagination": map[string]any{"currentPage": 1, "pagesTotal": 1, "links": []any{}}})
		case "GET /upload-tokens/" + secretToken, "DELETE /upload-tokens/" + secretToken:
			// The service echoes the token in its words.
			writeJSON(w, http.StatusNotFound, map[string]any{"title": "Upload token " + secretToken + " not found.",
				"detail": "No token " + secretToken, "name": "token", "status": 404, "token": secretToken})
		}
	})
	log := &captureLogger{}
	c := f.client(t, func(cfg *Config) { cfg.Logger = log })
	tok, err := c.CreateUploadToken(t.Context(), 60)
	if err != nil || tok.Token != secretToken || tok.TTL != 60 || tok.ExpiresAt == nil {
		t.Fatalf("CreateUploadToken = %+v, %v", tok, err)
	}
	if b := f.requests()[len(f.requests())-1].body; strings.TrimSpace(b) != `{"ttl":60}` {
		t.Fatalf("create body %s", b)
	}
	list, err := c.ListUploadTokens(t.Context(), UploadTokenFilter{SortBy: "ttl"})
	if err != nil || len(list) != 1 || list[0].Token != secretToken {
		t.Fatalf("ListUploadTokens = %v, %v", list, err)
	}
	_, getErr := c.GetUploadToken(t.Context(), secretToken)
	delErr := c.DeleteUploadToken(t.Context(), secretToken)
	for _, err := range []error{getErr, delErr} {
		if !errors.Is(err, ErrNotFound) {
			t.Fatalf("err = %v, want ErrNotFound", err)
		}
		wantError(t, err, "REDACTED")
		if strings.Contains(err.Error(), secretToken) || strings.Contains(fmt.Sprintf("%+v", mustAPIError(t, err)), secretToken) {
			t.Fatalf("the error shows the token: %v", err)
		}
	}
	for _, shown := range []string{log.text(), fmt.Sprint(tok), fmt.Sprintf("%+v %#v", tok, list)} {
		if strings.Contains(shown, secretToken) {
			t.Fatalf("the token is shown: %s", shown)
		}
	}
	if !strings.Contains(log.text(), "/upload-tokens/REDACTED") {
		t.Fatalf("the get and delete were not logged with the token redacted:\n%s", log.text())
	}
}

func TestUploadWithToken(t *testing.T) {
	var (
		mu     sync.Mutex
		seen   []string
		stored = map[string][]byte{}
	)
	srv := newDiscardlessService(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" || r.URL.Path == "/auth/api-key" {
			t.Errorf("%s %s carried credentials", r.Method, r.URL.Path)
		}
		if r.URL.Path != "/upload" || r.URL.Query().Get("token") != secretToken {
			writeJSON(w, http.StatusNotFound, map[string]any{"title": "Unknown token " + r.URL.Query().Get("token"), "name": "token", "status": 404})
			return
		}
		_, _, data, fields := filePart(t, r)
		mu.Lock()
		defer mu.Unlock()
		id := fields["videoId"]
		if id == "" {
			id = fmt.Sprintf("vi%d", len(stored)+1)
		}
		seen = append(seen, id+" "+r.Header.Get("Content-Range"))
		stored[id] = append(stored[id], data...) // in order: one chunk in flight
		rateHeadersOf(w, 100, 100-len(seen), 60)
		writeJSON(w, http.StatusCreated, videoJSON(id, "clip.mp4"))
	})
	log := &captureLogger{}
	c, err := New(Config{BaseURL: srv.URL, APIKey: testKey, HTTPClient: srv.Client(), Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	data, src := randomFile(t, 11*mib)
	v, err := c.UploadWithToken(t.Context(), secretToken, src, fiveMiB)
	if err != nil || v.ID != "vi1" {
		t.Fatalf("UploadWithToken = %+v, %v", v, err)
	}
	want := []string{"vi1 bytes 0-5242879/11534336", "vi1 bytes 5242880-10485759/11534336", "vi1 bytes 10485760-11534335/11534336"}
	if fmt.Sprint(seen) != fmt.Sprint(want) || !bytes.Equal(stored["vi1"], data) {
		t.Fatalf("the service saw %q", seen)
	}
	if c.limiters[ClassUploads].learnedLimit() != 100 {
		t.Fatal("the token's uploads were not paced by the uploads limiter")
	}
	_, err = c.UploadWithToken(t.Context(), "toWrongTokenSecret42", src, fiveMiB)
	if !errors.Is(err, ErrNotFound) || strings.Contains(err.Error(), "toWrongTokenSecret42") {
		t.Fatalf("a bad token: %v", err)
	}
	if text := log.text(); strings.Contains(text, secretToken) || strings.Contains(text, "toWrongTokenSecret42") {
		t.Fatalf("a token reached the log:\n%s", text)
	}
}
