package emulator_test

import (
	"bytes"
	"image"
	"image/png"
	"net/http"
	"testing"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

const webVTT = "WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n"

// postFile posts one file part (named as the Node client names a Buffer: file, no extension).
func (e *env) postFile(path string, data []byte) response {
	e.t.Helper()
	r, err := e.multipartPost(path, nil, []part{{field: "file", filename: "file", body: bytes.NewReader(data)}})
	if err != nil {
		e.t.Fatal(err)
	}
	return r
}

func TestCaptions(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	id := e.createVideo(map[string]any{"title": "c"})
	base := "/videos/" + id + "/captions/"
	r := e.postFile(base+"fr", []byte(webVTT))
	expectStatus(t, r, http.StatusOK)
	want := map[string]any{"uri": base + "fr", "srclang": "fr", "languageName": "Français", "default": false}
	for k, v := range want {
		if r.body[k] != v {
			t.Errorf("%s = %v, want %v", k, r.body[k], v)
		}
	}
	firstSrc := r.str("src")
	expectStatus(t, e.postFile(base+"en-GB", []byte("\uFEFFWEBVTT\n")), http.StatusOK)
	d := e.api("PATCH", base+"fr", map[string]any{"default": true})
	expectStatus(t, d, http.StatusOK)
	if d.body["default"] != true {
		t.Errorf("default not set: %s", d.raw)
	}
	// A second upload replaces the file and keeps the default.
	again := e.postFile(base+"fr", []byte(webVTT+"\n"))
	expectStatus(t, again, http.StatusOK)
	if again.body["default"] != true || again.str("src") == firstSrc {
		t.Errorf("a second upload: %s (first src %s)", again.raw, firstSrc)
	}
	// One default per video.
	expectStatus(t, e.api("PATCH", base+"en-GB", map[string]any{"default": true}), http.StatusOK)
	if fr := e.api("GET", base+"fr", nil); fr.body["default"] != false {
		t.Errorf("two defaults: %s", fr.raw)
	}
	list := e.api("GET", "/videos/"+id+"/captions", nil)
	expectStatus(t, list, http.StatusOK)
	if got := ids(list, "srclang"); len(got) != 2 || got[0] != "fr" || got[1] != "en-GB" {
		t.Errorf("list %v", got)
	}
	expectStatus(t, e.api("DELETE", base+"fr", nil), http.StatusNoContent)
	expectError(t, e.api("GET", base+"fr", nil), 404, "resource-not-found", "language")
	expectError(t, e.api("DELETE", base+"fr", nil), 404, "resource-not-found", "language")
	expectError(t, e.api("PATCH", base+"fr", map[string]any{"default": true}), 404, "resource-not-found", "language")

	bad := e.postFile(base+"fr_BE", []byte(webVTT))
	expectError(t, bad, 400, "invalid-attribute", "language")
	if bad.str("detail") != `The "language" attribute must contain only letters and dashes (for example "fr", "fr-BE").` {
		t.Errorf("detail %q", bad.str("detail"))
	}
	unknown := e.postFile(base+"xx", []byte(webVTT))
	expectError(t, unknown, 400, "invalid-attribute", "language")
	if unknown.str("detail") != `The "language" attribute is not valid.` {
		t.Errorf("detail %q", unknown.str("detail"))
	}
	expectError(t, e.api("GET", base+"fr1", nil), 400, "invalid-attribute", "language")
	expectError(t, e.postFile(base+"de", []byte("1\n00:00:00,000 --> 00:00:01,000\nSRT\n")), 400, "invalid-attribute", "file")
	expectError(t, e.postFile("/videos/viNope0000000000000000000/captions/en", []byte(webVTT)), 404, "resource-not-found", "videoId")
}

func TestChapters(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	id := e.createVideo(map[string]any{"title": "c"})
	base := "/videos/" + id + "/chapters/"
	r := e.postFile(base+"en", []byte(webVTT))
	expectStatus(t, r, http.StatusOK)
	if r.str("uri") != base+"en" || r.str("language") != "en" || r.str("src") == "" {
		t.Errorf("chapter %s", r.raw)
	}
	expectStatus(t, e.api("GET", base+"en", nil), http.StatusOK)
	if l := e.api("GET", "/videos/"+id+"/chapters", nil); len(l.data()) != 1 {
		t.Errorf("list %s", l.raw)
	}
	expectError(t, e.api("GET", base+"en_US", nil), 404, "resource-not-found", "language")
	expectError(t, e.postFile(base+"en_US", []byte(webVTT)), 400, "invalid-attribute", "language")
	expectError(t, e.postFile(base+"de", []byte("not vtt")), 400, "invalid-attribute", "file")
	expectStatus(t, e.api("DELETE", base+"en", nil), http.StatusNoContent)
	expectError(t, e.api("GET", base+"en", nil), 404, "resource-not-found", "language")
}

// tinyPNG is a generated w×h PNG.
func tinyPNG(t *testing.T, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestThumbnails(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	id := e.createVideo(map[string]any{"title": "t"})
	thumb := func(r response) any { return member(r.body["assets"], "thumbnail") }
	before := e.api("GET", "/videos/"+id, nil)
	picked := e.api("PATCH", "/videos/"+id+"/thumbnail", map[string]any{"timecode": "00:00:02.500"})
	expectStatus(t, picked, http.StatusOK)
	if thumb(picked) == thumb(before) {
		t.Errorf("the thumbnail did not change: %s", picked.raw)
	}
	for _, tc := range []any{"2s", "00:61:00", 12, nil} {
		expectError(t, e.api("PATCH", "/videos/"+id+"/thumbnail", map[string]any{"timecode": tc}), 400, "invalid-attribute", "timecode")
	}
	expectError(t, e.api("PATCH", "/videos/"+id+"/thumbnail", map[string]any{}), 400, "attribute-required", "timecode")
	up := e.postFile("/videos/"+id+"/thumbnail", tinyPNG(t, 4, 3))
	expectStatus(t, up, http.StatusOK)
	if thumb(up) == thumb(picked) {
		t.Errorf("the uploaded thumbnail did not change the address: %s", up.raw)
	}
	r, err := e.multipartPost("/videos/"+id+"/thumbnail", nil, []part{{field: "file", filename: "fake.png", body: bytes.NewReader([]byte("GIF89a not a png"))}})
	if err != nil {
		t.Fatal(err)
	}
	expectError(t, r, 400, "uploaded-file-extension-invalid", "file")
	if r.str("title") != "Only [jpeg, jpg, JPG, JPEG, png, PNG] extensions are supported." {
		t.Errorf("title %q", r.str("title"))
	}
	big := append(tinyPNG(t, 1, 1), make([]byte, 8<<20)...)
	expectError(t, e.postFile("/videos/"+id+"/thumbnail", big), 400, "invalid-attribute", "file")
	expectError(t, e.postFile("/videos/viNope0000000000000000000/thumbnail", tinyPNG(t, 1, 1)), 404, "resource-not-found", "videoId")
}
