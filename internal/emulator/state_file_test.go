package emulator_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"strings"
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

// TestStateRefusesAPathItCannotWrite: a state file whose directory is a regular file cannot be
// saved, whoever runs the emulator (root included), so New refuses it and says where and why.
func TestStateRefusesAPathItCannotWrite(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := emulator.New(emulator.Options{StatePath: filepath.Join(file, "state.json")})
	if err == nil || !strings.Contains(err.Error(), "in "+file) || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("New of a state file under a regular file: %v; want a refusal naming the directory and the reason", err)
	}
}

// TestStateWritesThroughASymlink: a -state that is a symbolic link stays one; its target gets
// every save, including a target that does not exist yet.
func TestStateWritesThroughASymlink(t *testing.T) {
	dir := t.TempDir()
	for _, exists := range []bool{true, false} {
		target := filepath.Join(dir, fmt.Sprintf("real-%v.json", exists))
		if exists {
			e := newEnv(t, emulator.Options{StatePath: target})
			expectStatus(t, e.api("POST", "/webhooks", map[string]any{"url": "https://r.test/old", "events": []string{"video.summary.generated"}}), http.StatusCreated)
		}
		link := filepath.Join(dir, fmt.Sprintf("link-%v.json", exists))
		if err := os.Symlink(filepath.Base(target), link); err != nil {
			t.Fatal(err)
		}
		e := newEnv(t, emulator.Options{StatePath: link})
		expectStatus(t, e.api("POST", "/webhooks", map[string]any{"url": "https://r.test/new", "events": []string{"video.summary.generated"}}), http.StatusCreated)
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("target existed %v: the link was replaced (%v)", exists, err)
		}
		raw, err := os.ReadFile(target)
		if err != nil || !strings.Contains(string(raw), "https://r.test/new") {
			t.Errorf("target existed %v: the target does not hold the new webhook (%v)", exists, err)
		}
	}
}

// TestStateWriteThatFailsIsA500: once the state file cannot be written, a change is answered
// 500 (it is in memory only) and logged; reads go on; a later write that succeeds answers as
// before.
func TestStateWriteThatFailsIsA500(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, emulator.Options{StatePath: filepath.Join(dir, "s.json")})
	var logged bytes.Buffer
	log.SetOutput(&logged)
	t.Cleanup(func() { log.SetOutput(os.Stderr) })
	// The directory becomes a regular file: no file can be made in it, root or not.
	if err := os.Rename(dir, dir+".away"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	hook := map[string]any{"url": "https://r.test/x", "events": []string{"video.summary.generated"}}
	r := e.api("POST", "/webhooks", hook)
	expectStatus(t, r, http.StatusInternalServerError)
	if !strings.Contains(string(r.raw), "state file") {
		t.Errorf("the 500 does not say why: %s", r.raw)
	}
	if !strings.Contains(logged.String(), "ERROR") || !strings.Contains(logged.String(), "not a directory") {
		t.Errorf("the failed write was not logged as an error: %q", logged.String())
	}
	expectStatus(t, e.api("GET", "/webhooks", nil), http.StatusOK)
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(dir+".away", dir); err != nil {
		t.Fatal(err)
	}
	expectStatus(t, e.api("POST", "/webhooks", hook), http.StatusCreated)
}
