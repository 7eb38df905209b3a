//go:build unix

package emulator_test

import (
	"bytes"
	"errors"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// stranger is the user who plays the attacker: nobody, on most systems.
const stranger = 65534

// asStranger makes name (a link itself, not its target) belong to the stranger, or skips the
// test when this process may not give files away (only root may).
func asStranger(t *testing.T, name string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("playing another user needs root (a file is given to uid 65534 with chown); run the tests as root to check this refusal")
	}
	if err := os.Lchown(name, stranger, stranger); err != nil {
		t.Fatal(err)
	}
}

// refusedToStart checks that New refuses path, saying each of want.
func refusedToStart(t *testing.T, path string, want ...string) {
	t.Helper()
	emu, err := emulator.New(emulator.Options{StatePath: path})
	if err == nil {
		_ = emu.Close()
		t.Fatalf("New started on %s", path)
	}
	for _, w := range append(want, path, "mkdir -m 700") {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("the refusal does not say %q: %v", w, err)
		}
	}
}

// logged captures the log of the test.
func logged(t *testing.T) *bytes.Buffer {
	var b bytes.Buffer
	log.SetOutput(&b)
	t.Cleanup(func() { log.SetOutput(os.Stderr) })
	return &b
}

var stateHook = map[string]any{"url": "https://r.test/x", "events": []string{"video.summary.generated"}}

// TestStateRefusesAPlantedFile: a state file that another user put where -state points, before
// the first start, holds what she chose: an upload token of hers, which the emulator would then
// accept without the victim's key. It is refused, and so is a state file others may write. The
// same file, the user's own, loads and its token works: what the refusal prevents.
func TestStateRefusesAPlantedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	e := newEnv(t, emulator.Options{StatePath: path})
	token := e.api("POST", "/upload-tokens", map[string]any{}).str("token")
	if err := e.emu.Close(); err != nil {
		t.Fatal(err)
	}
	asStranger(t, path)
	refusedToStart(t, path, "belongs to user 65534", "upload tokens would be accepted")

	if err := os.Chown(path, os.Geteuid(), os.Getegid()); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o666); err != nil {
		t.Fatal(err)
	}
	refusedToStart(t, path, "may be written by other users (mode 0666)")

	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	e = newEnv(t, emulator.Options{StatePath: path})
	expectStatus(t, e.api("GET", "/upload-tokens/"+token, nil), http.StatusOK)
}

// TestStateRefusesASharedDirectory: a directory that another user owns, or that others may
// write without the sticky bit, lets them put a state file or a link under the name, or
// replace the user's file; the start is refused. The user's own sticky directory is taken: no
// one else may rename or remove the user's files there.
func TestStateRefusesASharedDirectory(t *testing.T) {
	base := t.TempDir()
	theirs := filepath.Join(base, "theirs")
	open := filepath.Join(base, "open")
	sticky := filepath.Join(base, "sticky")
	for d, mode := range map[string]os.FileMode{theirs: os.ModeSticky | 0o777, open: 0o777, sticky: os.ModeSticky | 0o777} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(d, mode); err != nil {
			t.Fatal(err)
		}
	}
	asStranger(t, theirs)
	refusedToStart(t, filepath.Join(theirs, "state.json"), "the directory "+theirs+" belongs to user 65534")
	refusedToStart(t, filepath.Join(open, "state.json"), "the directory "+open+" may be written by other users (mode 0777)")
	e := newEnv(t, emulator.Options{StatePath: filepath.Join(sticky, "state.json")})
	expectStatus(t, e.api("POST", "/webhooks", stateHook), http.StatusCreated)
}

// TestStateRefusesAStrangersLink: a -state that is a link of another user's (who may point it
// anywhere at any time) is refused, wherever it points.
func TestStateRefusesAStrangersLink(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "state.json")
	if err := os.Symlink("real.json", link); err != nil {
		t.Fatal(err)
	}
	asStranger(t, link)
	refusedToStart(t, link, "the symbolic link "+link+" belongs to user 65534")
}

// TestStateNeverFollowsAChangedLink: a link repointed after the start (at the user's
// ~/.bashrc, say) is not followed: the save is refused, the change answered 500 and logged, and
// neither file is written; nor is a link that became a regular file written. A restart takes
// the link as it is then.
func TestStateNeverFollowsAChangedLink(t *testing.T) {
	dir := t.TempDir()
	link, real, bashrc := filepath.Join(dir, "state.json"), filepath.Join(dir, "real.json"), filepath.Join(dir, "bashrc")
	const profile = "export PS1='$ '\n"
	if err := os.WriteFile(bashrc, []byte(profile), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real.json", link); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, emulator.Options{StatePath: link})
	log := logged(t)
	before, _ := os.ReadFile(real)
	for _, tc := range []struct {
		change func() error
		want   string
	}{
		{func() error { return errors.Join(os.Remove(link), os.Symlink(bashrc, link)) }, "points to " + bashrc},
		{func() error { return errors.Join(os.Remove(link), os.WriteFile(link, nil, 0o600)) }, "is no longer a link"},
	} {
		if err := tc.change(); err != nil {
			t.Fatal(err)
		}
		expectStatus(t, e.api("POST", "/webhooks", stateHook), http.StatusInternalServerError)
		if !strings.Contains(log.String(), tc.want) || !strings.Contains(log.String(), "was not saved") {
			t.Errorf("the refused save was not logged with %q: %s", tc.want, log.String())
		}
		if b, _ := os.ReadFile(bashrc); string(b) != profile {
			t.Fatalf("the file the link was repointed at was written: %q", b)
		}
		if b, _ := os.ReadFile(real); !bytes.Equal(b, before) {
			t.Errorf("the file of the start was written after its link changed")
		}
	}
	if err := e.emu.Close(); err == nil {
		t.Error("Close saved through a changed link")
	}
	if b, _ := os.ReadFile(link); len(b) != 0 {
		t.Errorf("the regular file in the link's place was written: %q", b)
	}
	if err := errors.Join(os.Remove(link), os.Symlink("real.json", link)); err != nil {
		t.Fatal(err)
	}
	e = newEnv(t, emulator.Options{StatePath: link})
	expectStatus(t, e.api("POST", "/webhooks", stateHook), http.StatusCreated)
	if b, _ := os.ReadFile(real); !strings.Contains(string(b), "https://r.test/x") {
		t.Error("a restart on the link did not write its target")
	}
}

// TestStateCheckedAtEachSave: a state file given to another user, or a directory opened to
// others, after the start stops the next save; the file is left as it was.
func TestStateCheckedAtEachSave(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "state.json")
	e := newEnv(t, emulator.Options{StatePath: path})
	log := logged(t)
	asStranger(t, path)
	before, _ := os.ReadFile(path)
	expectStatus(t, e.api("POST", "/webhooks", stateHook), http.StatusInternalServerError)
	if b, _ := os.ReadFile(path); !bytes.Equal(b, before) {
		t.Error("another user's file was replaced")
	}
	if !strings.Contains(log.String(), "belongs to user 65534") {
		t.Errorf("the refused save does not say why: %s", log.String())
	}
	if err := os.Chown(path, os.Geteuid(), os.Getegid()); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	expectStatus(t, e.api("POST", "/webhooks", stateHook), http.StatusInternalServerError)
	if !strings.Contains(log.String(), "may be written by other users (mode 0777)") {
		t.Errorf("the refused save does not say why: %s", log.String())
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	expectStatus(t, e.api("POST", "/webhooks", stateHook), http.StatusCreated)
}
