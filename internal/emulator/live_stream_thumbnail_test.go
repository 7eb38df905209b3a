package emulator_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

func TestLiveStreamThumbnail(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	ls := e.createLiveStream(map[string]any{"name": "show"})
	id := ls.str("liveStreamId")
	thumb := func(r response) string { s, _ := member(r.body["assets"], "thumbnail").(string); return s }
	own := thumb(ls)

	first := e.postFile("/live-streams/"+id+"/thumbnail", tinyPNG(t, 4, 3))
	expectStatus(t, first, http.StatusCreated)
	second := e.postFile("/live-streams/"+id+"/thumbnail", tinyJPEG(t, 4, 3))
	expectStatus(t, second, http.StatusCreated)
	if thumb(first) == own || thumb(second) == thumb(first) {
		t.Errorf("every upload must give the thumbnail an address of its own: %q, %q, %q", own, thumb(first), thumb(second))
	}
	if got := thumb(e.api("GET", "/live-streams/"+id, nil)); got != thumb(second) {
		t.Errorf("read %q, uploaded %q", got, thumb(second))
	}
	if r := e.postFile("/live-streams/"+id+"/thumbnail", []byte("GIF89a not an image")); r.status != http.StatusBadRequest {
		t.Errorf("a GIF: %d %s", r.status, r.raw)
	}

	deleted := e.api("DELETE", "/live-streams/"+id+"/thumbnail", nil)
	expectStatus(t, deleted, http.StatusOK)
	if thumb(deleted) != own || !strings.HasSuffix(own, "/thumbnail.jpg") {
		t.Errorf("after the delete the thumbnail is %q, want the service's own %q", thumb(deleted), own)
	}
	expectStatus(t, e.api("DELETE", "/live-streams/"+id+"/thumbnail", nil), http.StatusOK)
	expectError(t, e.postFile("/live-streams/liNope/thumbnail", tinyPNG(t, 1, 1)), http.StatusNotFound, "resource-not-found", "liveStreamId")
	expectError(t, e.api("DELETE", "/live-streams/liNope/thumbnail", nil), http.StatusNotFound, "resource-not-found", "liveStreamId")
}
