package emulator_test

import (
	"net/http"
	"regexp"
	"testing"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

var videoIDRe = regexp.MustCompile(`^vi[0-9A-Za-z]{22}$`)

func TestVideoCreateDefaults(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	r := e.api("POST", "/videos", map[string]any{"title": "Intro"})
	expectStatus(t, r, http.StatusCreated)
	id := r.str("videoId")
	if !videoIDRe.MatchString(id) {
		t.Errorf("videoId %q", id)
	}
	want := map[string]any{"title": "Intro", "description": "", "public": true, "panoramic": false, "mp4Support": true,
		"discarded": false, "languageOrigin": nil}
	for k, v := range want {
		if got, ok := r.body[k]; !ok || got != v {
			t.Errorf("%s = %v (present %v), want %v", k, got, ok, v)
		}
	}
	// The published document does not let language be null: an unknown language is left out.
	if got, ok := r.body["language"]; ok {
		t.Errorf("language = %v on a video whose language is unknown, want it left out", got)
	}
	if _, ok := r.body["playerId"]; ok {
		t.Errorf("playerId is present on a video without a player theme: %s", r.raw)
	}
	for _, k := range []string{"clip", "watermark", "watermarked", "transcript"} {
		if _, ok := r.body[k]; ok {
			t.Errorf("the video shows %s", k)
		}
	}
	src, _ := r.body["source"].(map[string]any)
	if src["uri"] != "/videos/"+id+"/source" {
		t.Errorf("source %v", src)
	}
	assets, _ := r.body["assets"].(map[string]any)
	if assets["mp4"] == nil || assets["hls"] == nil {
		t.Errorf("assets %v", assets)
	}
	status := e.api("GET", "/videos/"+id+"/status", nil)
	expectStatus(t, status, http.StatusOK)
	if _, ok := status.body["ingest"]; ok || len(qualities(status)) != 0 {
		t.Errorf("a video with no byte shows an ingest or qualities: %s", status.raw)
	}
	noMP4 := e.api("POST", "/videos", map[string]any{"title": "x", "mp4Support": false, "public": false})
	expectStatus(t, noMP4, http.StatusCreated)
	a, _ := noMP4.body["assets"].(map[string]any)
	if _, ok := a["mp4"]; ok {
		t.Errorf("mp4 without mp4Support: %v", a)
	}
	first := e.api("GET", "/videos/"+noMP4.str("videoId"), nil)
	second := e.api("GET", "/videos/"+noMP4.str("videoId"), nil)
	if member(first.body["assets"], "hls") == member(second.body["assets"], "hls") {
		t.Errorf("a private video's reads share their token URLs")
	}
}

func TestVideoCreateRefusals(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	cases := []struct {
		body       map[string]any
		status     int
		slug, name string
	}{
		{map[string]any{"description": "no title"}, 400, "attribute-required", "title"},
		{map[string]any{"title": "  "}, 400, "invalid-attribute", "title"},
		{map[string]any{"title": "x", "language": "xx"}, 400, "invalid-attribute", "language"},
		{map[string]any{"title": "x", "tags": "a"}, 400, "invalid-attribute", "tags"},
		{map[string]any{"title": "x", "metadata": []any{map[string]any{"value": "v"}}}, 400, "invalid-attribute", "metadata"},
		{map[string]any{"title": "x", "source": "ftp://example.com/a.mp4"}, 400, "invalid-attribute", "source"},
		{map[string]any{"title": "x", "source": "viDoesNotExist0000000000"}, 404, "resource-not-found", "source"},
		{map[string]any{"title": "x", "playerId": "ptDoesNotExist"}, 404, "resource-not-found", "playerId"},
		{map[string]any{"title": "x", "clip": map[string]any{"startTimecode": "1:00"}}, 400, "invalid-attribute", "clip"},
		{map[string]any{"title": "x", "watermark": map[string]any{"top": "10px"}}, 400, "attribute-required", "watermark[id]"},
		{map[string]any{"title": "x", "watermark": map[string]any{"id": "watermark_x"}}, 404, "resource-not-found", "watermark[id]"},
		{map[string]any{"title": "x", "colour": "red"}, 400, "invalid-attributes", "colour"},
	}
	for _, c := range cases {
		expectError(t, e.api("POST", "/videos", c.body), c.status, c.slug, c.name)
	}
	if n := len(e.api("GET", "/videos", nil).data()); n != 0 {
		t.Errorf("%d videos made by refused creates", n)
	}
	wm := e.postFile("/watermarks", tinyPNG(t, 8, 8)).str("watermarkId")
	// A video's language is one of the published document's bare tags: "fr-BE", which a caption
	// may have, is refused.
	expectError(t, e.api("POST", "/videos", map[string]any{"title": "x", "language": "fr-BE"}), http.StatusBadRequest, "invalid-attribute", "language")
	ok := e.api("POST", "/videos", map[string]any{"title": "x", "language": "fr",
		"clip":      map[string]any{"startTimecode": "00:00:01", "endTimecode": "00:00:05.5"},
		"watermark": map[string]any{"id": wm, "top": "10px", "opacity": "50%"}})
	expectStatus(t, ok, http.StatusCreated)
	if ok.str("language") != "fr" || ok.str("languageOrigin") != "api" {
		t.Errorf("language %s", ok.raw)
	}
}

func TestVideoUpdateIsPartial(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	player := e.createPlayer(map[string]any{"name": "p"}).str("playerId")
	id := e.createVideo(map[string]any{"title": "a", "description": "d", "tags": []string{"x", "y"},
		"metadata": []map[string]string{{"key": "k", "value": "v"}}, "playerId": player})
	r := e.api("PATCH", "/videos/"+id, map[string]any{"title": "b", "tags": []string{"z"}, "metadata": []any{}, "public": false})
	expectStatus(t, r, http.StatusOK)
	if r.str("title") != "b" || r.str("description") != "d" || r.str("playerId") != player || r.body["public"] != false {
		t.Errorf("partial update: %s", r.raw)
	}
	if tags, _ := r.body["tags"].([]any); len(tags) != 1 || tags[0] != "z" {
		t.Errorf("tags not replaced whole: %v", r.body["tags"])
	}
	if md, _ := r.body["metadata"].([]any); len(md) != 0 {
		t.Errorf("metadata not replaced: %v", r.body["metadata"])
	}
	r = e.api("PATCH", "/videos/"+id, map[string]any{"playerId": nil, "language": "de"})
	expectStatus(t, r, http.StatusOK)
	if _, ok := r.body["playerId"]; ok || r.str("language") != "de" || r.str("languageOrigin") != "api" {
		t.Errorf("playerId null or language: %s", r.raw)
	}
	expectError(t, e.api("PATCH", "/videos/"+id, map[string]any{"playerId": "ptNope"}), 404, "resource-not-found", "playerId")
	expectError(t, e.api("PATCH", "/videos/"+id, map[string]any{"source": "https://example.com/a.mp4"}), 400, "invalid-attributes", "source")
	expectError(t, e.api("PATCH", "/videos/"+id, map[string]any{"clip": map[string]any{}}), 400, "invalid-attributes", "clip")
	expectStatus(t, e.api("PATCH", "/videos/"+id, map[string]any{"transcriptSummary": true}), http.StatusOK)
	expectError(t, e.api("PATCH", "/videos/"+id, map[string]any{"transcriptSummary": true}), 409, "summary-already-exists", "transcriptSummary")
	// Turning the flag off does not remove the summary.
	expectStatus(t, e.api("PATCH", "/videos/"+id, map[string]any{"transcriptSummary": false}), http.StatusOK)
	expectError(t, e.api("PATCH", "/videos/"+id, map[string]any{"transcriptSummary": true}), 409, "summary-already-exists", "transcriptSummary")
	// A summary generated outside the API counts too; so does one asked for at creation.
	other := e.createVideo(map[string]any{"title": "o"})
	expectStatus(t, e.ctl("POST", "/videos/"+other+"/summary", nil), http.StatusCreated)
	expectError(t, e.api("PATCH", "/videos/"+other, map[string]any{"transcriptSummary": true}), 409, "summary-already-exists", "transcriptSummary")
	third := e.createVideo(map[string]any{"title": "t", "transcriptSummary": true})
	expectError(t, e.api("PATCH", "/videos/"+third, map[string]any{"transcriptSummary": true}), 409, "summary-already-exists", "transcriptSummary")
	expectError(t, e.api("PATCH", "/videos/viNope000000000000000000", map[string]any{"title": "x"}), 404, "resource-not-found", "videoId")
}

func TestVideoDelete(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	id := e.createVideo(map[string]any{"title": "a"})
	data := []byte("WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n")
	cr, err := e.multipartPost("/videos/"+id+"/captions/en", nil, fileParts(data))
	if err != nil {
		t.Fatal(err)
	}
	expectStatus(t, cr, http.StatusOK)
	expectStatus(t, e.api("DELETE", "/videos/"+id, nil), http.StatusNoContent)
	expectError(t, e.api("GET", "/videos/"+id, nil), 404, "resource-not-found", "videoId")
	expectError(t, e.api("GET", "/videos/"+id+"/captions/en", nil), 404, "resource-not-found", "videoId")
	expectError(t, e.api("DELETE", "/videos/"+id, nil), 404, "resource-not-found", "videoId")
	// A new video never sees the deleted one's captions.
	other := e.createVideo(map[string]any{"title": "b"})
	if l := e.api("GET", "/videos/"+other+"/captions", nil); len(l.data()) != 0 {
		t.Errorf("captions of a new video: %s", l.raw)
	}
}

func TestVideoFromURLAndCopy(t *testing.T) {
	ingest, encode := fastLimits()
	e := newEnv(t, emulator.Options{IngestDelay: ingest, EncodingDelay: encode})
	r := e.api("POST", "/videos", map[string]any{"title": "web", "source": "https://example.com/v.mp4"})
	expectStatus(t, r, http.StatusAccepted)
	id := r.str("videoId")
	if src, _ := r.body["source"].(map[string]any); src["uri"] != "https://example.com/v.mp4" {
		t.Errorf("source %v", src)
	}
	done := e.waitStatus(id, func(s response) bool { return ingestStatus(s) == "ingested" && len(qualities(s)) == 8 })
	in, _ := done.body["ingest"].(map[string]any)
	if in["filesize"] != nil {
		t.Errorf("a URL video has a filesize: %s", done.raw)
	}
	expectError(t, e.upload(id, "", fileParts([]byte("x"))), 400, "video-source-already-downloaded", "file")

	data := randomBytes(7, 1000)
	up := e.createVideo(map[string]any{"title": "up"})
	expectStatus(t, e.upload(up, "", fileParts(data)), http.StatusCreated)
	cp := e.api("POST", "/videos", map[string]any{"title": "copy", "source": up})
	expectStatus(t, cp, http.StatusAccepted)
	s := e.sourceOf(cp.str("videoId"))
	if s.str("sha256") != sha256Hex(data) || s.num("size") != len(data) {
		t.Errorf("the copy's source: %s", s.raw)
	}
	// A video without a source cannot be copied.
	empty := e.createVideo(map[string]any{"title": "empty"})
	expectError(t, e.api("POST", "/videos", map[string]any{"title": "c", "source": empty}), 404, "resource-not-found", "source")
}

// TestEncodedVideosHaveTheirSource: seeds, simulated uploads and recordings arrive encoded:
// their status says so, they take no upload, and they can be copied.
func TestEncodedVideosHaveTheirSource(t *testing.T) {
	e := newEnv(t, emulator.Options{SeedVideos: 1})
	sim, err := e.emu.UploadVideo(emulator.VideoInput{Title: "simulated"})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{emulator.SeedVideoID(1), sim} {
		s := e.api("GET", "/videos/"+id+"/status", nil)
		expectStatus(t, s, http.StatusOK)
		if ingestStatus(s) != "ingested" || member(s.body["encoding"], "playable") != true || len(qualities(s)) < 8 {
			t.Errorf("%s: status %s", id, s.raw)
		}
		expectError(t, e.upload(id, "", fileParts([]byte("x"))), 400, "video-source-already-uploaded", "file")
		expectStatus(t, e.api("POST", "/videos", map[string]any{"title": "copy", "source": id}), http.StatusAccepted)
	}
}
