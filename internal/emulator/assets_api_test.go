package emulator_test

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

var tokenRe = regexp.MustCompile(`^to[0-9A-Za-z]{22}$`)

func TestUploadTokens(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	short := e.api("POST", "/upload-tokens", map[string]any{"ttl": 200})
	expectStatus(t, short, http.StatusOK)
	if !tokenRe.MatchString(short.str("token")) || short.num("ttl") != 200 {
		t.Errorf("token %s", short.raw)
	}
	created, _ := time.Parse(time.RFC3339, short.str("createdAt"))
	expires, _ := time.Parse(time.RFC3339, short.str("expiresAt"))
	if expires.Sub(created) != 200*time.Second {
		t.Errorf("expiresAt %s", short.raw)
	}
	forever := e.api("POST", "/upload-tokens", map[string]any{})
	expectStatus(t, forever, http.StatusOK)
	if _, ok := forever.body["expiresAt"]; ok || forever.num("ttl") != 0 {
		t.Errorf("a token that never expires: %s", forever.raw)
	}
	for _, bad := range []map[string]any{{"ttl": -1}, {"ttl": 2147483648}, {"ttl": "10"}, {"ttl": 10, "name": "x"}} {
		r := e.api("POST", "/upload-tokens", bad)
		if r.status != 400 {
			t.Errorf("%v: %s", bad, r.raw)
		}
	}
	expectStatus(t, e.api("POST", "/upload-tokens", map[string]any{"ttl": 2147483647}), http.StatusOK)
	got := e.api("GET", "/upload-tokens/"+short.str("token"), nil)
	expectStatus(t, got, http.StatusOK)
	if got.str("expiresAt") != short.str("expiresAt") {
		t.Errorf("get %s", got.raw)
	}
	byTTL := e.api("GET", "/upload-tokens?sortBy=ttl&sortOrder=desc", nil)
	expectStatus(t, byTTL, http.StatusOK)
	if fmt.Sprint(ids(byTTL, "ttl")) != "[2.147483647e+09 200 0]" {
		t.Errorf("sorted by ttl: %v", ids(byTTL, "ttl"))
	}
	expectStatus(t, e.api("GET", "/upload-tokens?sortBy=name", nil), http.StatusBadRequest)
	e.emu.AdvanceClock(201 * time.Second)
	expectError(t, e.api("GET", "/upload-tokens/"+short.str("token"), nil), 404, "resource-not-found", "uploadToken")
	if l := e.api("GET", "/upload-tokens", nil); len(l.data()) != 2 {
		t.Errorf("an expired token is listed: %s", l.raw)
	}
	expectStatus(t, e.api("DELETE", "/upload-tokens/"+forever.str("token"), nil), http.StatusNoContent)
	expectError(t, e.api("GET", "/upload-tokens/"+forever.str("token"), nil), 404, "resource-not-found", "uploadToken")
	expectError(t, e.api("DELETE", "/upload-tokens/"+forever.str("token"), nil), 404, "resource-not-found", "uploadToken")
}

// tokenUpload posts one chunk to /upload with the token and no credentials.
func (e *env) tokenUpload(token, contentRange string, parts []part) response {
	e.t.Helper()
	r, err := e.multipartPost("/upload?token="+token, map[string]string{"Authorization": "", "Content-Range": contentRange}, parts)
	if err != nil {
		e.t.Fatal(err)
	}
	return r
}

func TestUploadWithToken(t *testing.T) {
	e := newEnv(t, emulator.Options{Limits: emulator.Limits{Uploads: 5}, IngestDelay: time.Hour})
	token := e.api("POST", "/upload-tokens", map[string]any{"ttl": 60}).str("token")
	small := randomBytes(20, 999)
	r := e.tokenUpload(token, "", []part{{field: "intro.mp4", filename: "intro.mp4", body: bytes.NewReader(small)}})
	expectStatus(t, r, http.StatusCreated)
	if r.str("title") != "intro.mp4" || !videoIDRe.MatchString(r.str("videoId")) {
		t.Errorf("the first request's video: %s", r.raw)
	}
	if limit, remaining, _ := rateHeaders(t, r); limit != 5 || remaining != 4 {
		t.Errorf("uploads window: limit %d remaining %d", limit, remaining)
	}
	if s := e.sourceOf(r.str("videoId")); s.str("sha256") != sha256Hex(small) {
		t.Errorf("source %s", s.raw)
	}
	// Progressive: the first chunk creates the video, the last names it.
	data := randomBytes(21, firstChunk+lastChunk)
	first := e.tokenUpload(token, "part 1/*", fileParts(data[:firstChunk]))
	expectStatus(t, first, http.StatusCreated)
	id := first.str("videoId")
	last := e.tokenUpload(token, "part 2/2", append(fileParts(data[firstChunk:]), part{field: "videoId", body: bytes.NewReader([]byte(id))}))
	expectStatus(t, last, http.StatusCreated)
	if last.str("videoId") != id || e.sourceOf(id).str("sha256") != sha256Hex(data) {
		t.Errorf("the last chunk: %s", last.raw)
	}
	if e.emu.UploadedBytes(id) != int64(len(data)) {
		t.Errorf("bytes counted against the video: %d", e.emu.UploadedBytes(id))
	}
	// Credentials sent along are ignored; a bad token is 404 naming token.
	other, err := e.multipartPost("/upload?token="+token, map[string]string{"Authorization": "Basic bm9wZTo="}, fileParts(small))
	if err != nil {
		t.Fatal(err)
	}
	expectStatus(t, other, http.StatusCreated)
	expectError(t, e.tokenUpload("toNope", "", fileParts(small)), 404, "resource-not-found", "token")
	expectError(t, e.tokenUpload(token, "part 2/2", append(fileParts(small), part{field: "videoId", body: bytes.NewReader([]byte(id))})), 400, "video-source-already-uploaded", "file")
	// The token's uploads took the window of the key that made it: the five are gone (the bad
	// token's request counted against its address).
	expectStatus(t, e.upload(e.createVideo(map[string]any{"title": "x"}), "", fileParts(small)), http.StatusTooManyRequests)
	expectStatus(t, e.tokenUpload(token, "", fileParts(small)), http.StatusTooManyRequests)
	e.emu.AdvanceClock(2 * time.Minute)
	expectError(t, e.tokenUpload(token, "", fileParts(small)), 404, "resource-not-found", "token")
}

// tinyJPEG is a generated w×h JPEG.
func tinyJPEG(t *testing.T, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, image.NewGray(image.Rect(0, 0, w, h)), nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestWatermarks(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	a := e.postFile("/watermarks", tinyPNG(t, 8, 8))
	expectStatus(t, a, http.StatusOK)
	if !regexp.MustCompile(`^watermark_[0-9A-Za-z]{22}$`).MatchString(a.str("watermarkId")) || !atomRe.MatchString(a.str("createdAt")) || len(a.body) != 2 {
		t.Errorf("watermark %s", a.raw)
	}
	e.emu.AdvanceClock(time.Second)
	b := e.postFile("/watermarks", tinyJPEG(t, 8, 8))
	expectStatus(t, b, http.StatusOK)
	bad, err := e.multipartPost("/watermarks", nil, []part{{field: "file", filename: "logo.png", body: bytes.NewReader([]byte("<svg/>"))}})
	if err != nil {
		t.Fatal(err)
	}
	expectError(t, bad, 400, "uploaded-file-extension-invalid", "file")
	if bad.str("title") != "Only [jpeg, jpg, JPG, JPEG, png, PNG] extensions are supported." {
		t.Errorf("title %q", bad.str("title"))
	}
	l := e.api("GET", "/watermarks?sortBy=createdAt&sortOrder=desc", nil)
	if got := ids(l, "watermarkId"); len(got) != 2 || got[0] != b.str("watermarkId") {
		t.Errorf("list %v", got)
	}
	expectStatus(t, e.api("GET", "/watermarks/"+a.str("watermarkId"), nil), http.StatusMethodNotAllowed)
	expectStatus(t, e.api("DELETE", "/watermarks/"+a.str("watermarkId"), nil), http.StatusNoContent)
	expectError(t, e.api("DELETE", "/watermarks/"+a.str("watermarkId"), nil), 404, "resource-not-found", "watermarkId")
}

func TestPlayerLogo(t *testing.T) {
	e := newEnv(t, emulator.Options{Limits: emulator.Limits{Uploads: 50}})
	p := e.createPlayer(map[string]any{"name": "logo"}).str("playerId")
	logo := func(data []byte, link string) response {
		r, err := e.multipartPost("/players/"+p+"/logo", nil, []part{
			{field: "file", filename: "file", body: bytes.NewReader(data)}, {field: "link", body: bytes.NewReader([]byte(link))},
		})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	first := logo(tinyPNG(t, 200, 100), "https://example.com")
	expectStatus(t, first, http.StatusCreated)
	if member(first.body["assets"], "link") != "https://example.com" || member(first.body["assets"], "logo") == nil {
		t.Errorf("assets %s", first.raw)
	}
	if limit, _, _ := rateHeaders(t, first); limit != 50 {
		t.Errorf("a logo is not in the uploads class: limit %d", limit)
	}
	second := logo(tinyJPEG(t, 20, 10), "undefined")
	expectStatus(t, second, http.StatusCreated)
	if member(second.body["assets"], "logo") == member(first.body["assets"], "logo") || member(second.body["assets"], "link") != "undefined" {
		t.Errorf("a second logo: %s", second.raw)
	}
	expectError(t, logo(tinyPNG(t, 201, 100), ""), 400, "invalid-attribute", "file")
	expectError(t, logo(tinyPNG(t, 200, 101), ""), 400, "invalid-attribute", "file")
	expectError(t, logo(append(tinyPNG(t, 1, 1), make([]byte, 100<<10)...), ""), 400, "invalid-attribute", "file")
	expectError(t, logo([]byte("GIF89a"), ""), 400, "uploaded-file-extension-invalid", "file")
	expectStatus(t, e.api("DELETE", "/players/"+p+"/logo", nil), http.StatusNoContent)
	if g := e.api("GET", "/players/"+p, nil); g.body["assets"] != nil {
		t.Errorf("assets after the delete: %s", g.raw)
	}
	expectError(t, e.api("DELETE", "/players/"+p+"/logo", nil), 404, "resource-not-found", "logo")
	expectError(t, e.api("DELETE", "/players/ptNope/logo", nil), 404, "resource-not-found", "playerId")
}
