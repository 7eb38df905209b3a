package videohost

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
)

var tinyPNG = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")

func pngSource() UploadSource {
	return UploadSource{Name: "logo.png", Reader: bytes.NewReader(tinyPNG), Size: int64(len(tinyPNG))}
}

func TestWatermarkCalls(t *testing.T) {
	var (
		query url.Values
		posts int
	)
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.Method + " " + r.URL.Path {
		case "POST /watermarks":
			if _, name, data, _ := filePart(t, r); name != "logo.png" || !bytes.Equal(data, tinyPNG) {
				t.Errorf("watermark part %q %q", name, data)
			}
			if posts++; posts == 1 {
				writeJSON(w, http.StatusBadGateway, map[string]any{"title": "Bad gateway.", "status": 502})
				return
			}
			writeJSON(w, http.StatusOK, map[string]any{"watermarkId": "watermark_2", "createdAt": "2024-08-08T14:12:18+00:00"})
		case "GET /watermarks":
			query = r.URL.Query()
			writeJSON(w, http.StatusOK, map[string]any{"data": []any{
				map[string]any{"watermarkId": "watermark_1", "createdAt": "2024-08-08T14:12:18+00:00"},
			}, "pagination": map[string]any{"currentPage": 1, "pagesTotal": 1, "links": []any{}}})
		case "DELETE /watermarks/watermark_1":
			w.WriteHeader(http.StatusNoContent)
		default:
			writeJSON(w, http.StatusNotFound, map[string]any{"title": "Not found.", "status": 404})
		}
	})
	c := f.client(t)
	// A watermark's upload makes a new one each time: never re-sent.
	_, err := c.CreateWatermark(t.Context(), pngSource())
	if !errors.Is(err, ErrAmbiguous) || f.count(http.MethodPost, "/watermarks") != 1 {
		t.Fatalf("CreateWatermark after a 502 = %v, sent %d times", err, f.count(http.MethodPost, "/watermarks"))
	}
	if wm, err := c.CreateWatermark(t.Context(), pngSource()); err != nil || wm.ID != "watermark_2" {
		t.Fatalf("CreateWatermark = %+v, %v", wm, err)
	}
	ws, err := c.ListWatermarks(t.Context(), WatermarkFilter{SortBy: "createdAt", SortOrder: "desc"})
	if err != nil || len(ws) != 1 || ws[0].ID != "watermark_1" || ws[0].CreatedAt == nil {
		t.Fatalf("ListWatermarks = %+v, %v", ws, err)
	}
	if query.Get("sortBy") != "createdAt" || query.Get("sortOrder") != "desc" {
		t.Fatalf("query %v", query)
	}
	if err := c.DeleteWatermark(t.Context(), "watermark_1"); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteWatermark(t.Context(), "watermark_2"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("delete of an absent watermark: %v", err)
	}
}

func TestPlayerLogoCalls(t *testing.T) {
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.Method + " " + r.URL.Path {
		case "POST /players/pl1/logo":
			_, name, data, fields := filePart(t, r)
			if name != "logo.png" || !bytes.Equal(data, tinyPNG) || fields["link"] != "https://example.org/" {
				t.Errorf("logo part %q %q, fields %v", name, data, fields)
			}
			writeJSON(w, http.StatusCreated, map[string]any{"playerId": "pl1",
				"assets": map[string]any{"logo": "https://cdn.test/logo.png", "link": fields["link"]}})
		case "DELETE /players/pl1/logo":
			w.WriteHeader(http.StatusNoContent)
		default:
			writeJSON(w, http.StatusNotFound, map[string]any{"title": "Not found.", "name": "logo", "status": 404})
		}
	})
	c := f.client(t)
	p, err := c.UploadPlayerLogo(t.Context(), "pl1", "https://example.org/", pngSource())
	if err != nil || p.Assets == nil || p.Assets.Link != "https://example.org/" {
		t.Fatalf("UploadPlayerLogo = %+v, %v", p, err)
	}
	if err := c.DeletePlayerLogo(t.Context(), "pl1"); err != nil {
		t.Fatal(err)
	}
	if err := c.DeletePlayerLogo(t.Context(), "pl2"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("delete of an absent logo: %v", err)
	}
}

const secretToken = "toXyZ9secretUpLoAdTok3n"

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
