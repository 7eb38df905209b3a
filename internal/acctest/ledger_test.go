package acctest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
)

// TestLedgerRecordsCreatesAndDeletes: the proxy's ledger records a create as it is sent (with
// the name its JSON body gives, the body passed on intact), then with the id and name of the
// service's answer and the test's name, or as not created when refused; a create answered 500
// stays as sent, unanswered; a delete and a restore by the path's id; nothing of a read. The
// file is 0600 in a 0700 directory, and is written as the requests pass, not at the end.
func TestLedgerRecordsCreatesAndDeletes(t *testing.T) {
	const body = `{"title":"tf-acc-x-clip","description":"d"}`
	svc := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, _ := io.ReadAll(r.Body)
		switch {
		case r.URL.Path == "/videos" && r.Method == http.MethodPost && r.URL.Query().Get("fail") != "":
			w.WriteHeader(http.StatusBadRequest)
		case r.URL.Path == "/webhooks":
			w.WriteHeader(http.StatusInternalServerError)
		case r.URL.Path == "/videos" && r.Method == http.MethodPost && string(got) != body:
			t.Errorf("the service got the body %q, want %q", got, body)
			w.WriteHeader(http.StatusBadRequest)
		case r.Method == http.MethodPost:
			w.WriteHeader(http.StatusCreated)
			_, _ = w.Write([]byte(`{"videoId":"vi1","title":"tf-acc-x-clip","watermarkId":"wm1"}`))
		default:
			w.WriteHeader(http.StatusNoContent)
		}
	})
	dir := filepath.Join(t.TempDir(), "ledger")
	t.Setenv(envLedger, dir)
	h := recordLedger(t, svc)
	for _, req := range []struct{ method, path, body string }{{"POST", "/videos", body}, {"POST", "/videos?fail=1", ""}, {"GET", "/videos/vi1", ""},
		{"POST", "/watermarks", ""}, {"DELETE", "/videos/vi1", ""}, {"PATCH", "/discarded/videos/vi1", ""}, {"POST", "/videos/vi1/captions/en", ""},
		{"POST", "/webhooks", `{"url":"https://x/tf-acc-hook"}`}} {
		r := httptest.NewRequest(req.method, req.path, strings.NewReader(req.body))
		if req.body != "" {
			r.Header.Set("Content-Type", "application/json")
		}
		h.ServeHTTP(httptest.NewRecorder(), r)
	}
	got, err := ReadLedger(dir)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, e := range got {
		if e.Test != t.Name() {
			t.Errorf("%+v: not recorded as the test's", e)
		}
		lines = append(lines, e.Event+" "+e.Kind+" "+e.ID+" "+e.Name)
	}
	want := "creating video  tf-acc-x-clip|created video vi1 tf-acc-x-clip|creating video  |not created video  |creating watermark  |created watermark wm1 |" +
		"deleted video vi1 |restored video vi1 |creating webhook  https://x/tf-acc-hook"
	if strings.Join(lines, "|") != want {
		t.Errorf("the ledger holds\n%s\nwant\n%s", strings.Join(lines, "|"), want)
	}
	tally := TallyLedger(got)
	if tally.Created["video"] != 1 || tally.Deleted["video"] != 1 || len(tally.Left) != 2 || tally.Left[0].Name != "tf-acc-x-clip" {
		t.Errorf("the tally is %+v: want a video created, deleted and restored (left, with its name), and a watermark left", tally)
	}
	if len(tally.Unanswered) != 1 || tally.Unanswered[0].Kind != "webhook" {
		t.Errorf("unanswered: %+v, want the webhook answered 500", tally.Unanswered)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "ledger-*.jsonl"))
	for _, p := range append(files, dir) {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if want := map[bool]os.FileMode{true: 0o700, false: 0o600}[fi.IsDir()]; fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", p, fi.Mode().Perm(), want)
		}
	}
	if len(files) != 1 {
		t.Errorf("ledger files %v, want one", files)
	}
}

// TestReadLedgerSkipsATornLastLine: a binary killed while writing a line leaves it cut short;
// the lines before it are read, and a bad line elsewhere is an error.
func TestReadLedgerSkipsATornLastLine(t *testing.T) {
	dir := t.TempDir()
	line := `{"event":"created","kind":"webhook","id":"w1","test":"T","at":"2026-01-01T00:00:00Z"}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "ledger-1.jsonl"), []byte(line+`{"event":"crea`), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := ReadLedger(dir)
	if err != nil || len(got) != 1 || got[0].ID != "w1" {
		t.Errorf("ReadLedger = %+v, %v: want the one whole line", got, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ledger-2.jsonl"), []byte("{bad\n"+line), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadLedger(dir); err == nil || !strings.Contains(err.Error(), "ledger-2.jsonl, line 1") {
		t.Errorf("ReadLedger of a bad first line = %v, want an error naming it", err)
	}
}

// TestTallyLedgerLeavesNothingDeleted: an object created then deleted is not left; the deleted
// videos are listed, with the names they had.
func TestTallyLedgerLeavesNothingDeleted(t *testing.T) {
	at := time.Now()
	tally := TallyLedger([]LedgerEntry{
		{Event: "created", Kind: "video", ID: "v1", Name: "tf-acc-a", At: at},
		{Event: "created", Kind: "webhook", ID: "w1", Name: "https://x/tf-acc-a", At: at},
		{Event: "deleted", Kind: "webhook", ID: "w1", At: at},
		{Event: "deleted", Kind: "video", ID: "v1", At: at},
	})
	if len(tally.Left) != 0 || len(tally.DeletedVideos) != 1 || tally.DeletedVideos[0].Name != "tf-acc-a" {
		t.Errorf("tally %+v: want nothing left and the video v1 deleted, named tf-acc-a", tally)
	}
}

// TestMisnamed: a create whose name lacks the prefix or its test's name is misnamed; one named
// by RunName, a subtest's included, is not; nor a create of a kind without a name, nor a delete.
func TestMisnamed(t *testing.T) {
	at := time.Now()
	good := RunName(t, "clip")
	got := Misnamed([]LedgerEntry{
		{Event: "created", Kind: "video", ID: "v1", Name: good, Test: t.Name(), At: at},
		{Event: "created", Kind: "video", ID: "v2", Name: TestPrefix + "x-" + t.Name() + "-clip", Test: t.Name() + "/caption", At: at},
		{Event: "created", Kind: "live stream", ID: "l1", Name: "studio", Test: t.Name(), At: at},
		{Event: "created", Kind: "webhook", ID: "w1", Name: "https://x/" + TestPrefix + "y-TestOther-hook", Test: t.Name(), At: at},
		{Event: "created", Kind: "watermark", ID: "wm1", Test: t.Name(), At: at},
		{Event: "deleted", Kind: "video", ID: "v1", Test: t.Name(), At: at},
	})
	var ids []string
	for _, e := range got {
		ids = append(ids, e.ID)
	}
	if strings.Join(ids, " ") != "l1 w1" {
		t.Errorf("misnamed: %v, want l1 (no prefix) and w1 (another test's name)", ids)
	}
}

// TestRemoteEnvNamesCarryTheTest: the names of an environment against a real endpoint (the
// one NewAccEnv and NewTrackEnv build there, here against an emulator on loopback, which the
// guard takes) carry the run's prefix and the test's name, as the ledger's check wants.
func TestRemoteEnvNamesCarryTheTest(t *testing.T) {
	url, key := emulatorAt(t, "127.0.0.1:0", emulator.Options{})
	t.Setenv(framework.EnvAPIKey, key)
	t.Setenv(framework.EnvBaseURL, url)
	env := remoteAccEnv(t, nil)
	name := env.Name("clip")
	if len(Misnamed([]LedgerEntry{{Event: "created", Kind: "video", ID: "v", Name: name, Test: t.Name()}})) != 0 {
		t.Errorf("env.Name(%q) = %q: want the prefix %s and the test's name %s", "clip", name, RunPrefix(), t.Name())
	}
}
