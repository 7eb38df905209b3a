package videohost

// Tests of the caption and chapter calls.

import (
	"errors"
	"net/http"
	"strings"
	"testing"
)

func TestCaptionAndChapterCalls(t *testing.T) {
	caption := map[string]any{"uri": "/videos/vi1/captions/fr-BE", "src": "https://cdn.test/c.vtt", "srclang": "fr-BE",
		"languageName": "Français", "default": true}
	chapter := map[string]any{"uri": "/videos/vi1/chapters/en", "src": "https://cdn.test/ch.vtt", "language": "en"}
	page := func(items ...any) map[string]any {
		return map[string]any{"data": items, "pagination": map[string]any{"currentPage": 1, "pagesTotal": 1, "links": []any{}}}
	}
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.Method + " " + r.URL.Path {
		case "GET /videos/vi1/captions/fr-BE", "PATCH /videos/vi1/captions/fr-BE":
			writeJSON(w, http.StatusOK, caption)
		case "GET /videos/vi1/captions":
			writeJSON(w, http.StatusOK, page(caption))
		case "GET /videos/vi1/chapters/en":
			writeJSON(w, http.StatusOK, chapter)
		case "GET /videos/vi1/chapters":
			writeJSON(w, http.StatusOK, page(chapter, chapter))
		case "DELETE /videos/vi1/captions/fr-BE", "DELETE /videos/vi1/chapters/en":
			w.WriteHeader(http.StatusNoContent)
		default:
			writeJSON(w, http.StatusNotFound, map[string]any{"title": "Not found.", "status": 404})
		}
	})
	c := f.client(t)
	wantCaption := Caption{URI: "/videos/vi1/captions/fr-BE", Src: "https://cdn.test/c.vtt", SrcLang: "fr-BE", LanguageName: "Français", Default: true}
	if got, err := c.GetCaption(t.Context(), "vi1", "fr-BE"); err != nil || got != wantCaption {
		t.Fatalf("GetCaption = %+v, %v", got, err)
	}
	if got, err := c.SetCaptionDefault(t.Context(), "vi1", "fr-BE", true); err != nil || got != wantCaption {
		t.Fatalf("SetCaptionDefault = %+v, %v", got, err)
	}
	reqs := f.requests()
	if b := strings.TrimSpace(reqs[len(reqs)-1].body); b != `{"default":true}` {
		t.Fatalf("default body = %s", b)
	}
	if got, err := c.ListCaptions(t.Context(), "vi1"); err != nil || len(got) != 1 || got[0] != wantCaption {
		t.Fatalf("ListCaptions = %+v, %v", got, err)
	}
	wantChapter := Chapter{URI: "/videos/vi1/chapters/en", Src: "https://cdn.test/ch.vtt", Language: "en"}
	if got, err := c.GetChapter(t.Context(), "vi1", "en"); err != nil || got != wantChapter {
		t.Fatalf("GetChapter = %+v, %v", got, err)
	}
	if got, err := c.ListChapters(t.Context(), "vi1"); err != nil || len(got) != 2 {
		t.Fatalf("ListChapters = %+v, %v", got, err)
	}
	if err := c.DeleteCaption(t.Context(), "vi1", "fr-BE"); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteChapter(t.Context(), "vi1", "en"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetCaption(t.Context(), "vi1", "de"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("absent caption: %v", err)
	}
	if _, err := c.GetChapter(t.Context(), "vi1", ""); !errors.Is(err, ErrInvalidID) {
		t.Fatalf("empty language: %v", err)
	}
	if _, err := c.ListCaptions(t.Context(), ""); !errors.Is(err, ErrInvalidID) {
		t.Fatalf("empty video id: %v", err)
	}
	var walked []Chapter
	for ch, err := range c.WalkChapters(t.Context(), "vi1") {
		if err != nil {
			t.Fatal(err)
		}
		walked = append(walked, ch)
	}
	if len(walked) != 2 || walked[0] != wantChapter {
		t.Fatalf("WalkChapters = %+v", walked)
	}
	for cp, err := range c.WalkCaptions(t.Context(), "vi1") {
		if err != nil || cp != wantCaption {
			t.Fatalf("WalkCaptions = %+v, %v", cp, err)
		}
	}
	n := 0
	for _, err := range c.WalkCaptions(t.Context(), "") {
		n++
		if !errors.Is(err, ErrInvalidID) {
			t.Fatalf("walk of an empty video id: %v", err)
		}
	}
	if n != 1 {
		t.Fatalf("the walk of an empty video id yielded %d times, want once", n)
	}
}
