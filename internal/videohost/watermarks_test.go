package videohost

import (
	"bytes"
	"errors"
	"net/http"
	"net/url"
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
}

const secretToken = "toXyZ9secretUpLoAdTok3n"
