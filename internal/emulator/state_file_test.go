package emulator_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

func TestStateSurvivesRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	opts := emulator.Options{APIKeys: []string{"k"}, StatePath: path, SeedVideos: 3}
	emu1, err := emulator.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	w1, err := emu1.CreateWebhook("https://r.test/1", []string{"video.summary.generated"})
	if err != nil {
		t.Fatal(err)
	}
	w2, _ := emu1.CreateWebhook("https://r.test/2", []string{"video.caption.generated"})
	vid, err := emu1.UploadVideo(emulator.VideoInput{Title: "kept", Duration: 5 * time.Second, Tags: []string{"t"}})
	if err != nil {
		t.Fatal(err)
	}
	ls, _ := emu1.CreateLiveStream("kept stream")
	if err := emu1.SetBroadcasting(ls, true); err != nil {
		t.Fatal(err)
	}
	emu1.DeleteWebhook(w2.WebhookID)
	// Every change is on disk at once, before Close, and the file is valid JSON.
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(b) {
		t.Fatal("state file is not JSON")
	}
	if err := emu1.Close(); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("temporary files left beside the state: %v", entries)
	}

	// Seeds are not made again when a state file exists (SeedVideos differs on purpose).
	opts.SeedVideos = 10
	e := newEnv(t, opts)
	hooks := e.emu.Webhooks()
	if len(hooks) != 1 || hooks[0].WebhookID != w1.WebhookID || hooks[0].SignatureSecret != w1.SignatureSecret || !hooks[0].CreatedAt.Equal(w1.CreatedAt) {
		t.Errorf("webhooks after restart: %+v, want %+v", hooks, w1)
	}
	expectStatus(t, e.api("GET", "/webhooks/"+w1.WebhookID, nil), http.StatusOK)
	v := e.api("GET", "/videos/"+vid, nil)
	expectStatus(t, v, http.StatusOK)
	if v.str("title") != "kept" {
		t.Errorf("video after restart: %s", v.raw)
	}
	if n := len(e.api("GET", "/videos", nil).data()); n != 4 {
		t.Errorf("%d videos after restart, want 3 seeds and 1 upload", n)
	}
	if l := e.api("GET", "/live-streams/"+ls, nil); l.body["broadcasting"] != true {
		t.Errorf("live stream after restart: %s", l.raw)
	}
}

func TestStateFileErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := emulator.New(emulator.Options{StatePath: bad}); err == nil {
		t.Error("New accepted a broken state file")
	}
	if _, err := emulator.New(emulator.Options{StatePath: filepath.Join(dir, "missing-dir", "s.json")}); err == nil {
		t.Error("New accepted a state path in a missing directory")
	}
}

// TestSourceSurvivesRestart: a complete source's size and hash, its captions and its encoding's
// progress are in the state file; a restart goes on encoding where the last run stopped.
func TestSourceSurvivesRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	opts := emulator.Options{APIKeys: []string{"k"}, StatePath: path, IngestDelay: time.Hour}
	e1 := newEnv(t, opts)
	data := randomBytes(30, 4096)
	id := e1.createVideo(map[string]any{"title": "kept"})
	expectStatus(t, e1.upload(id, "", fileParts(data)), http.StatusCreated)
	expectStatus(t, e1.postFile("/videos/"+id+"/captions/en", []byte(webVTT)), http.StatusOK)
	if err := e1.emu.Close(); err != nil {
		t.Fatal(err)
	}
	opts.IngestDelay, opts.EncodingDelay = time.Millisecond, time.Millisecond
	e2 := newEnv(t, opts)
	if size, sum, complete, ok := e2.emu.VideoSource(id); !ok || !complete || size != int64(len(data)) || sum != sha256Hex(data) {
		t.Errorf("after the restart: %d %s %v %v", size, sum, complete, ok)
	}
	expectStatus(t, e2.api("GET", "/videos/"+id+"/captions/en", nil), http.StatusOK)
	e2.waitStatus(id, func(s response) bool { return member(s.body["encoding"], "playable") == true })
}

// TestStateStaleTempsRemoved: the temporary file of a write killed before its rename (half a
// state) is removed at the next start, which loads the state file itself; files that only
// resemble it are left alone.
func TestStateStaleTempsRemoved(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	emu, err := emulator.New(emulator.Options{StatePath: path, SeedVideos: 1})
	if err != nil {
		t.Fatal(err)
	}
	_ = emu.Close()
	stale := filepath.Join(dir, ".state.json.123456.tmp")
	other := filepath.Join(dir, ".other.json.123456.tmp")
	for _, f := range []string{stale, other} {
		if err := os.WriteFile(f, []byte(`{"version":1,"vid`), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	emu, err = emulator.New(emulator.Options{StatePath: path})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = emu.Close() }()
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the temporary file of an interrupted write is still there (%v)", err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("another file was removed: %v", err)
	}
	if _, _, _, ok := emu.VideoSource(emulator.SeedVideoID(1)); !ok {
		t.Errorf("the seed video was not loaded")
	}
}
