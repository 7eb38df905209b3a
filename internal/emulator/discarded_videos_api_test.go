package emulator_test

import (
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// TestVideoRestoreDiscardsAndRestores deletes a video with the Video Restore feature on: it
// leaves /videos, is listed and read under /discarded/videos with its dates 90 days apart, and a
// restore brings it back as it was; a second restore is a 404.
func TestVideoRestoreDiscardsAndRestores(t *testing.T) {
	e := newEnv(t, emulator.Options{VideoRestore: true, Environment: emulator.EnvProduction})
	v := e.api("POST", "/videos", map[string]any{"title": "kept", "tags": []string{"a"}})
	expectStatus(t, v, http.StatusCreated)
	id := v.str("videoId")
	if v.body["discardedAt"] != nil || v.body["deletesAt"] != nil {
		t.Errorf("a video that was never discarded has discardedAt %v, deletesAt %v; want null", v.body["discardedAt"], v.body["deletesAt"])
	}
	expectStatus(t, e.api("DELETE", "/videos/"+id, nil), http.StatusNoContent)
	expectStatus(t, e.api("GET", "/videos/"+id, nil), http.StatusNotFound)

	got := e.api("GET", "/discarded/videos/"+id, nil)
	expectStatus(t, got, http.StatusOK)
	if got.body["discarded"] != true || got.str("title") != "kept" {
		t.Errorf("discarded video = %s; want discarded true, title kept", got.raw)
	}
	at, err1 := time.Parse(time.RFC3339, got.str("discardedAt"))
	deletes, err2 := time.Parse(time.RFC3339, got.str("deletesAt"))
	if err1 != nil || err2 != nil || deletes.Sub(at) != emulator.DiscardRetention {
		t.Errorf("discardedAt %q, deletesAt %q: want two date-times %s apart", got.str("discardedAt"), got.str("deletesAt"), emulator.DiscardRetention)
	}
	list := e.api("GET", "/discarded/videos?title=kep&tags[]=a", nil)
	expectStatus(t, list, http.StatusOK)
	if d := list.data(); len(d) != 1 || d[0]["videoId"] != id {
		t.Errorf("filtered list = %s; want the one discarded video", list.raw)
	}
	if d := e.api("GET", "/discarded/videos?tags[]=b", nil).data(); len(d) != 0 {
		t.Errorf("a list filtered on another tag holds %d videos", len(d))
	}

	refused := e.api("PATCH", "/discarded/videos/"+id, map[string]any{"discarded": true})
	expectStatus(t, refused, http.StatusBadRequest)
	if refused.str("name") != "discarded" || refused.str("detail") != "Value must be false." {
		t.Errorf("restore with discarded true = %s", refused.raw)
	}
	expectStatus(t, e.api("PATCH", "/discarded/videos/"+id, map[string]any{}), http.StatusBadRequest)
	restored := e.api("PATCH", "/discarded/videos/"+id, map[string]any{"discarded": false})
	expectStatus(t, restored, http.StatusOK)
	if restored.body["discarded"] != false || restored.body["discardedAt"] != nil {
		t.Errorf("restored video = %s; want discarded false, discardedAt null", restored.raw)
	}
	expectStatus(t, e.api("GET", "/videos/"+id, nil), http.StatusOK)
	expectStatus(t, e.api("PATCH", "/discarded/videos/"+id, map[string]any{"discarded": false}), http.StatusNotFound)
	expectStatus(t, e.api("GET", "/discarded/videos/"+id, nil), http.StatusNotFound)
}

// TestVideoRestoreRetentionEnds deletes a discarded video for good once its 90 days have
// passed.
func TestVideoRestoreRetentionEnds(t *testing.T) {
	e := newEnv(t, emulator.Options{VideoRestore: true, Environment: emulator.EnvProduction})
	v := e.api("POST", "/videos", map[string]any{"title": "brief"})
	id := v.str("videoId")
	expectStatus(t, e.api("DELETE", "/videos/"+id, nil), http.StatusNoContent)
	e.emu.AdvanceClock(emulator.DiscardRetention - time.Second)
	expectStatus(t, e.api("GET", "/discarded/videos/"+id, nil), http.StatusOK)
	e.emu.AdvanceClock(time.Second)
	expectStatus(t, e.api("GET", "/discarded/videos/"+id, nil), http.StatusNotFound)
	if ids := e.emu.DiscardedVideoIDs(); len(ids) != 0 {
		t.Errorf("discarded videos after their retention: %v", ids)
	}
}

// TestWithoutVideoRestoreDeleteIsFinal is an account without the feature: a delete is final,
// the list of discarded videos is empty and a restore is a 404.
func TestWithoutVideoRestoreDeleteIsFinal(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	id := e.api("POST", "/videos", map[string]any{"title": "gone"}).str("videoId")
	expectStatus(t, e.api("DELETE", "/videos/"+id, nil), http.StatusNoContent)
	list := e.api("GET", "/discarded/videos", nil)
	expectStatus(t, list, http.StatusOK)
	if len(list.data()) != 0 {
		t.Errorf("discarded videos without the feature: %s", list.raw)
	}
	expectStatus(t, e.api("GET", "/discarded/videos/"+id, nil), http.StatusNotFound)
	expectStatus(t, e.api("PATCH", "/discarded/videos/"+id, map[string]any{"discarded": false}), http.StatusNotFound)
	expectStatus(t, e.api("DELETE", "/discarded/videos/"+id, nil), http.StatusMethodNotAllowed)
}

// TestDiscardedAndPlaysSurviveRestart: the discarded videos and the recorded plays are part of
// the state file.
func TestDiscardedAndPlaysSurviveRestart(t *testing.T) {
	opts := emulator.Options{APIKeys: []string{"k"}, StatePath: filepath.Join(t.TempDir(), "state.json"), VideoRestore: true}
	emu1, err := emulator.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	gone, err := emu1.UploadVideo(emulator.VideoInput{Title: "discarded"})
	if err != nil {
		t.Fatal(err)
	}
	watched, _ := emu1.UploadVideo(emulator.VideoInput{Title: "watched"})
	if _, err := emu1.RecordPlays(emulator.PlayInput{MediaID: watched, Count: 2}); err != nil {
		t.Fatal(err)
	}
	if !emu1.DeleteVideo(gone) {
		t.Fatal("DeleteVideo found no video")
	}
	if err := emu1.Close(); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, opts)
	expectStatus(t, e.api("GET", "/discarded/videos/"+gone, nil), http.StatusOK)
	if r := e.api("GET", "/data/metrics/play/count", nil); r.body["data"] != 2.0 {
		t.Errorf("plays after restart: %s", r.raw)
	}
}
