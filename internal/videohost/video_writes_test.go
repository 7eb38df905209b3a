package videohost

import (
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
)

// videoJSON is a video as the specification writes it, with the language detected.
func videoJSON(id, title string) map[string]any {
	return map[string]any{
		"videoId": id, "title": title, "language": "en", "languageOrigin": "auto", "public": true,
		"mp4Support": true, "tags": []string{}, "metadata": []any{},
		"createdAt": "2024-08-08T14:12:18+00:00", "updatedAt": "2024-08-08T14:12:18+00:00",
		"source": map[string]any{"uri": "/videos/" + id + "/source"},
	}
}

func decodeBody(t *testing.T, body string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatalf("body %q: %v", body, err)
	}
	return m
}

func TestCreateVideoSendsOnlyWhatIsSet(t *testing.T) {
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusAccepted, videoJSON("vi1", "Intro"))
	})
	c := f.client(t)
	no := false
	v, err := c.CreateVideo(t.Context(), VideoCreate{
		Title: "Intro", Public: &no, Tags: []string{"a"}, Metadata: []Metadata{{Key: "k", Value: "v"}},
		Source: "https://example.org/v.mp4", Clip: &VideoClip{StartTimecode: "00:00:01", EndTimecode: "00:00:05"},
		Watermark: &VideoWatermark{ID: "watermark_1", Top: "10px", Opacity: "50%"},
	})
	if err != nil || v.ID != "vi1" || v.LanguageOrigin != "auto" {
		t.Fatalf("CreateVideo = %+v, %v", v, err)
	}
	reqs := f.requests()
	got := decodeBody(t, reqs[len(reqs)-1].body)
	want := map[string]any{
		"title": "Intro", "public": false, "tags": []any{"a"}, "metadata": []any{map[string]any{"key": "k", "value": "v"}},
		"source": "https://example.org/v.mp4", "clip": map[string]any{"startTimecode": "00:00:01", "endTimecode": "00:00:05"},
		"watermark": map[string]any{"id": "watermark_1", "top": "10px", "opacity": "50%"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("body = %v\nwant %v", got, want)
	}
	if _, err := c.CreateVideo(t.Context(), VideoCreate{Title: "Bare"}); err != nil {
		t.Fatal(err)
	}
	reqs = f.requests()
	if b := reqs[len(reqs)-1].body; strings.TrimSpace(b) != `{"title":"Bare"}` {
		t.Fatalf("a bare create sent %s", b)
	}
}

func TestCreateVideoIsNeverResentAfterAServerError(t *testing.T) {
	var posts atomic.Int32
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		posts.Add(1)
		writeJSON(w, http.StatusBadGateway, map[string]any{"title": "Bad gateway.", "status": 502})
	})
	_, err := f.client(t).CreateVideo(t.Context(), VideoCreate{Title: "x"})
	var amb *AmbiguousError
	if !errors.As(err, &amb) || !errors.Is(err, ErrAmbiguous) || !errors.Is(err, ErrServer) {
		t.Fatalf("err = %v, want an *AmbiguousError of a server error", err)
	}
	if n := posts.Load(); n != 1 {
		t.Fatalf("the create was sent %d times, want once", n)
	}
}

func TestUpdateVideoSendsPresentFieldsAndRetries(t *testing.T) {
	var calls atomic.Int32
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			writeJSON(w, http.StatusServiceUnavailable, map[string]any{"title": "Busy.", "status": 503})
			return
		}
		writeJSON(w, http.StatusOK, videoJSON("vi1", "New"))
	})
	c := f.client(t)
	in := VideoUpdate{Title: Value("New"), PlayerID: Null[string](), Tags: Value[[]string](nil), Public: Value(false)}
	if in.IsEmpty() || !(VideoUpdate{}).IsEmpty() {
		t.Fatal("IsEmpty is wrong")
	}
	v, err := c.UpdateVideo(t.Context(), "vi1", in)
	if err != nil || v.Title != "New" {
		t.Fatalf("UpdateVideo = %+v, %v", v, err)
	}
	if n := f.count(http.MethodPatch, "/videos/vi1"); n != 2 {
		t.Fatalf("%d PATCHes, want 2 (one retry after the 503)", n)
	}
	reqs := f.requests()
	got := decodeBody(t, reqs[len(reqs)-1].body)
	want := map[string]any{"title": "New", "playerId": nil, "tags": []any{}, "public": false}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("body = %v\nwant %v", got, want)
	}
	if _, err := c.UpdateVideo(t.Context(), "", in); !errors.Is(err, ErrInvalidID) {
		t.Fatalf("empty id: %v", err)
	}
}

func TestDeleteVideoAndThumbnailTimecode(t *testing.T) {
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodDelete && r.URL.Path == "/videos/vi1":
			w.WriteHeader(http.StatusNoContent)
		case r.Method == http.MethodPatch && r.URL.Path == "/videos/vi1/thumbnail":
			writeJSON(w, http.StatusOK, videoJSON("vi1", "t"))
		default:
			writeJSON(w, http.StatusNotFound, map[string]any{"title": "Not found.", "status": 404})
		}
	})
	c := f.client(t)
	if err := c.DeleteVideo(t.Context(), "vi1"); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteVideo(t.Context(), "vi2"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("delete of an absent video: %v", err)
	}
	if _, err := c.SetVideoThumbnailTimecode(t.Context(), "vi1", "00:00:02.5"); err != nil {
		t.Fatal(err)
	}
	reqs := f.requests()
	if got := decodeBody(t, reqs[len(reqs)-1].body); !reflect.DeepEqual(got, map[string]any{"timecode": "00:00:02.5"}) {
		t.Fatalf("thumbnail body = %v", got)
	}
}

func TestGetVideoStatusDecodesTheSpecificationSample(t *testing.T) {
	const sample = `{"ingest": {"status": "uploading", "filesize": 273579401,
	  "receivedBytes": [{"from": 0, "to": 134217727, "total": 273579401}],
	  "receivedParts": {"parts": [1, 2], "total": 3}},
	 "encoding": {"playable": true,
	  "qualities": [{"type": "hls", "quality": "720p", "status": "encoding"}],
	  "metadata": {"width": 1280, "height": 720}}}`
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/videos/vi1/status" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(sample))
	})
	s, err := f.client(t).GetVideoStatus(t.Context(), "vi1")
	if err != nil {
		t.Fatal(err)
	}
	three := 3
	size := int64(273579401)
	want := VideoStatus{
		Ingest: &IngestStatus{Status: IngestUploading, Filesize: &size,
			ReceivedBytes: []ByteRange{{0, 134217727, size}}, ReceivedParts: &ReceivedParts{Parts: []int{1, 2}, Total: &three}},
		Encoding: EncodingStatus{Playable: true, Qualities: []Quality{{"hls", "720p", QualityEncoding}}},
	}
	if !reflect.DeepEqual(s, want) {
		t.Fatalf("status = %+v\nwant %+v", s, want)
	}
	if s.Complete() || s.Received(size) != 134217728 {
		t.Fatalf("complete %v, received %d", s.Complete(), s.Received(size))
	}
}

func TestVideoStatusMissing(t *testing.T) {
	st := func(status string, rs ...ByteRange) VideoStatus {
		return VideoStatus{Ingest: &IngestStatus{Status: status, ReceivedBytes: rs}}
	}
	tests := []struct {
		name string
		s    VideoStatus
		size int64
		want []ByteRange
	}{
		{"nothing arrived", VideoStatus{}, 100, []ByteRange{{0, 99, 100}}},
		{"complete", st(IngestIngested), 100, nil},
		{"head received", st(IngestUploading, ByteRange{0, 39, 100}), 100, []ByteRange{{40, 99, 100}}},
		{"tail received", st(IngestUploading, ByteRange{60, 99, 100}), 100, []ByteRange{{0, 59, 100}}},
		{"holes, unsorted", st(IngestUploading, ByteRange{50, 59, 100}, ByteRange{10, 19, 100}), 100,
			[]ByteRange{{0, 9, 100}, {20, 49, 100}, {60, 99, 100}}},
		{"overlapping", st(IngestUploading, ByteRange{0, 49, 100}, ByteRange{30, 69, 100}), 100, []ByteRange{{70, 99, 100}}},
		{"all ranges", st(IngestUploading, ByteRange{0, 49, 100}, ByteRange{50, 99, 100}), 100, nil},
		{"beyond the size", st(IngestUploading, ByteRange{0, 9, 200}, ByteRange{150, 199, 200}), 100, []ByteRange{{10, 99, 100}}},
		{"empty file", VideoStatus{}, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.s.Missing(tt.size); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Missing = %v, want %v", got, tt.want)
			}
		})
	}
}

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

func TestUploadSettings(t *testing.T) {
	c, err := New(Config{APIKey: "k"})
	if err != nil || c.cfg.UploadChunkSize != DefaultUploadChunkSize || c.cfg.UploadChunksInFlight != DefaultUploadChunksInFlight {
		t.Fatalf("defaults: %+v, %v", c.cfg, err)
	}
	if c.limiters[ClassUploads] == nil || c.limiters[ClassUploads] == c.limiters[ClassWrites] {
		t.Fatal("the uploads class has no limiter of its own")
	}
	c, err = New(Config{APIKey: "k", UploadChunkSize: MinUploadChunkSize, UploadChunksInFlight: MaxUploadChunksInFlight})
	if err != nil || c.cfg.UploadChunkSize != MinUploadChunkSize || c.cfg.UploadChunksInFlight != MaxUploadChunksInFlight {
		t.Fatalf("bounds refused: %+v, %v", c.cfg, err)
	}
	for _, bad := range []Config{
		{APIKey: "k", UploadChunkSize: MinUploadChunkSize - 1},
		{APIKey: "k", UploadChunkSize: MaxUploadChunkSize + 1},
		{APIKey: "k", UploadChunkSize: -1},
		{APIKey: "k", UploadChunksInFlight: -1},
		{APIKey: "k", UploadChunksInFlight: MaxUploadChunksInFlight + 1},
	} {
		_, err := New(bad)
		var ce *ConfigError
		if !errors.As(err, &ce) || !strings.Contains(ce.Field, "Upload") || !strings.Contains(ce.Problem, "use") {
			t.Errorf("New(%+v) = %v, want a *ConfigError on an upload setting", bad, err)
		}
	}
}
