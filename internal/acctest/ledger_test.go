package acctest

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
)

// TestLedgerRecordsCreatesAndDeletes: the proxy's ledger records a create with the id and name
// of the service's answer and the test's name, a delete and a restore by the path's id, and
// nothing of a failed create or of a read.
func TestLedgerRecordsCreatesAndDeletes(t *testing.T) {
	svc := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/videos" && r.Method == http.MethodPost && r.URL.Query().Get("fail") != "":
			w.WriteHeader(http.StatusBadRequest)
		case r.Method == http.MethodPost:
			w.WriteHeader(http.StatusCreated)
			_, _ = w.Write([]byte(`{"videoId":"vi1","title":"tf-acc-x-clip","watermarkId":"wm1"}`))
		default:
			w.WriteHeader(http.StatusNoContent)
		}
	})
	ledgerMu.Lock()
	before := len(ledger)
	ledgerMu.Unlock()
	h := recordLedger(t, svc)
	for _, req := range []struct{ method, path string }{{"POST", "/videos"}, {"POST", "/videos?fail=1"}, {"GET", "/videos/vi1"},
		{"POST", "/watermarks"}, {"DELETE", "/videos/vi1"}, {"PATCH", "/discarded/videos/vi1"}, {"POST", "/videos/vi1/captions/en"}} {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(req.method, req.path, nil))
	}
	ledgerMu.Lock()
	got := append([]LedgerEntry(nil), ledger[before:]...)
	ledgerMu.Unlock()
	var lines []string
	for _, e := range got {
		if e.Test != t.Name() {
			t.Errorf("%+v: not recorded as the test's", e)
		}
		lines = append(lines, e.Event+" "+e.Kind+" "+e.ID+" "+e.Name)
	}
	want := "created video vi1 tf-acc-x-clip|created watermark wm1 |deleted video vi1 |restored video vi1 "
	if strings.Join(lines, "|") != want {
		t.Errorf("the ledger holds\n%s\nwant\n%s", strings.Join(lines, "|"), want)
	}
	tally := TallyLedger(got)
	if tally.Created["video"] != 1 || tally.Deleted["video"] != 1 || len(tally.Left) != 2 || tally.Left[0].Name != "tf-acc-x-clip" {
		t.Errorf("the tally is %+v: want a video created, deleted and restored (left, with its name), and a watermark left", tally)
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
// one NewAccEnv and NewTrackEnv build there) carry the run's prefix and the test's name, as the
// ledger's check wants.
func TestRemoteEnvNamesCarryTheTest(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(srv.Close)
	t.Setenv(framework.EnvAPIKey, "k")
	t.Setenv(framework.EnvBaseURL, srv.URL)
	env := remoteAccEnv(t, nil)
	name := env.Name("clip")
	if len(Misnamed([]LedgerEntry{{Event: "created", Kind: "video", ID: "v", Name: name, Test: t.Name()}})) != 0 {
		t.Errorf("env.Name(%q) = %q: want the prefix %s and the test's name %s", "clip", name, RunPrefix(), t.Name())
	}
}
