package videohost

import (
	"bytes"
	"net/http"
	"testing"
)

func TestLiveStreamThumbnailCalls(t *testing.T) {
	var uploads int
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.Method + " " + r.URL.Path {
		case "POST /live-streams/li1/thumbnail":
			if _, name, data, _ := filePart(t, r); name != "logo.png" || !bytes.Equal(data, tinyPNG) {
				t.Errorf("thumbnail part %q %q", name, data)
			}
			// An upload replaces the thumbnail: a 502 is retried.
			if uploads++; uploads == 1 {
				writeJSON(w, http.StatusBadGateway, map[string]any{"title": "Bad gateway.", "status": 502})
				return
			}
			writeJSON(w, http.StatusCreated, map[string]any{"liveStreamId": "li1", "assets": map[string]any{"thumbnail": "https://x/t.jpg?v=1"}})
		case "DELETE /live-streams/li1/thumbnail":
			writeJSON(w, http.StatusOK, map[string]any{"liveStreamId": "li1", "assets": map[string]any{"thumbnail": "https://x/t.jpg"}})
		default:
			writeJSON(w, http.StatusNotFound, map[string]any{"title": "Not found.", "status": 404})
		}
	})
	c := f.client(t)
	l, err := c.UploadLiveStreamThumbnail(t.Context(), "li1", pngSource())
	if err != nil || l.Assets == nil || l.Assets.Thumbnail != "https://x/t.jpg?v=1" || uploads != 2 {
		t.Fatalf("UploadLiveStreamThumbnail = %+v, %v after %d uploads", l, err, uploads)
	}
	if l, err = c.DeleteLiveStreamThumbnail(t.Context(), "li1"); err != nil || l.Assets.Thumbnail != "https://x/t.jpg" {
		t.Fatalf("DeleteLiveStreamThumbnail = %+v, %v", l, err)
	}
	if _, err := c.DeleteLiveStreamThumbnail(t.Context(), ""); err == nil {
		t.Fatal("an empty id must be refused")
	}
}
