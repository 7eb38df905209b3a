package acctest

// The ledger of a run against a real endpoint: every object a test creates there passes the
// test's proxy (remote_endpoint.go), which records it (its kind, id, name where the service
// keeps one, and the test's name), and every delete. Each test binary writes its records as
// JSON into the directory VIDEOHOST_LEDGER names; scripts/ledgerreport adds them up at the end
// of the run into what it created, deleted and left, by kind. The names the tests give carry
// the run's prefix (RunName), so that `make sweep` finds what a run left.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/sweep"
)

// TestPrefix starts the name of every object the acceptance tests create where the service
// keeps a name; the sweeper deletes what carries it.
const TestPrefix = sweep.TestPrefix

// envLedger names the directory that receives each test binary's ledger; envRun the run's id,
// which testacc-remote.sh sets for all the binaries of one run.
const (
	envLedger = "VIDEOHOST_LEDGER"
	envRun    = "VIDEOHOST_TEST_RUN"
)

// LedgerEntry is one create, delete or restore that a test made on the endpoint.
type LedgerEntry struct {
	Event string    `json:"event"` // created, deleted or restored
	Kind  string    `json:"kind"`  // video, live stream, webhook, player theme, watermark, upload token, summary
	ID    string    `json:"id"`
	Name  string    `json:"name,omitempty"` // the title, name or URL the service keeps, if any
	Test  string    `json:"test"`
	At    time.Time `json:"at"`
}

var (
	runIDOnce sync.Once
	runID     string
	ledgerMu  sync.Mutex
	ledger    []LedgerEntry
)

// RunPrefix is TestPrefix and the run's id: VIDEOHOST_TEST_RUN, or a random word of this test
// binary's when it is not set.
func RunPrefix() string {
	runIDOnce.Do(func() {
		runID = os.Getenv(envRun)
		if runID == "" {
			runID = fmt.Sprintf("%x", time.Now().UnixNano()&0xffffffff)
		}
	})
	return TestPrefix + runID
}

var unsafeInName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// RunName is the name of an object of test t: the run's prefix, the test's name and what,
// in letters, digits, dots, dashes and underscores (fit for a title, a name or a URL's path),
// so that whoever finds it in the workspace knows which run and test made it.
func RunName(t *testing.T, what string) string {
	return runName(t.Name(), what)
}

func runName(test, what string) string {
	if test != "" {
		what = test + "-" + what
	}
	return RunPrefix() + "-" + unsafeInName.ReplaceAllString(what, "-")
}

// Misnamed returns the creates of entries whose name, where the service keeps one, does not
// carry TestPrefix and the name of the test that made it (its top-level test's, in RunName's
// letters): what `make sweep` could not find, or no one could trace to its test.
func Misnamed(entries []LedgerEntry) []LedgerEntry {
	var out []LedgerEntry
	for _, e := range entries {
		if e.Event != "created" || e.Name == "" {
			continue
		}
		test, _, _ := strings.Cut(e.Test, "/")
		if !strings.Contains(e.Name, TestPrefix) || !strings.Contains(e.Name, unsafeInName.ReplaceAllString(test, "-")) {
			out = append(out, e)
		}
	}
	return out
}

// ledgerKinds maps the first segment of a path to the kind of object it creates or deletes, and
// the JSON fields of its id and its name in the service's answer.
var ledgerKinds = map[string]struct{ kind, id, name string }{
	"videos":        {"video", "videoId", "title"},
	"upload":        {"video", "videoId", "title"}, // an upload with a token creates a video
	"live-streams":  {"live stream", "liveStreamId", "name"},
	"webhooks":      {"webhook", "webhookId", "url"},
	"players":       {"player theme", "playerId", "name"},
	"watermarks":    {"watermark", "watermarkId", ""},
	"upload-tokens": {"upload token", "token", ""},
	"summaries":     {"summary", "summaryId", ""},
}

// ledgerEvent says what a request that the service answered with a success did to the ledger's
// objects: the event, the kind, the id from the path (for a delete or restore, "" for a create).
func ledgerEvent(method, path string) (event, segment, id string) {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	switch {
	case method == http.MethodPost && len(parts) == 1:
		return "created", parts[0], ""
	case method == http.MethodDelete && len(parts) == 2:
		return "deleted", parts[0], parts[1]
	case method == http.MethodPatch && len(parts) == 3 && parts[0] == "discarded" && parts[1] == "videos":
		return "restored", "videos", parts[2]
	}
	return "", "", ""
}

// recordLedger wraps next so that the successes of test t's creates, deletes and restores go
// into the ledger.
func recordLedger(t *testing.T, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		event, segment, id := ledgerEvent(r.Method, r.URL.Path)
		k, known := ledgerKinds[segment]
		if event == "" || !known {
			next.ServeHTTP(w, r)
			return
		}
		rec := &teeWriter{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(rec, r)
		if rec.status < 200 || rec.status > 299 {
			return
		}
		e := LedgerEntry{Event: event, Kind: k.kind, ID: id, Test: t.Name(), At: time.Now().UTC()}
		if event == "created" {
			var body map[string]any
			_ = json.Unmarshal(rec.body.Bytes(), &body)
			e.ID, _ = body[k.id].(string)
			if k.name != "" {
				e.Name, _ = body[k.name].(string)
			}
		}
		if e.ID == "" {
			t.Errorf("ledger: the answer to %s %s holds no %s: the object it made cannot be accounted for", r.Method, r.URL.Path, k.id)
			return
		}
		ledgerMu.Lock()
		ledger = append(ledger, e)
		ledgerMu.Unlock()
	})
}

// teeWriter keeps the status and a copy of the body of an answer (the small answer to a create).
type teeWriter struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (w *teeWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

func (w *teeWriter) Write(b []byte) (int, error) {
	if w.body.Len() < 1<<20 {
		w.body.Write(b)
	}
	return w.ResponseWriter.Write(b)
}

func (w *teeWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// writeLedger writes this test binary's ledger into the directory VIDEOHOST_LEDGER names, when
// it names one and the binary recorded something; it returns false when it could not.
func writeLedger(w *os.File) bool {
	dir := os.Getenv(envLedger)
	ledgerMu.Lock()
	defer ledgerMu.Unlock()
	if dir == "" || len(ledger) == 0 {
		return true
	}
	err := os.MkdirAll(dir, 0o700)
	var f *os.File
	if err == nil {
		f, err = os.CreateTemp(dir, "ledger-*.json")
	}
	if err == nil {
		err = joinClose(json.NewEncoder(f).Encode(ledger), f)
	}
	if err != nil {
		fmt.Fprintf(w, "ledger: writing into %s: %v\n", dir, err)
		return false
	}
	return true
}

// ReadLedger reads every test binary's ledger from dir (VIDEOHOST_LEDGER of a run), oldest event
// first.
func ReadLedger(dir string) ([]LedgerEntry, error) {
	names, err := filepath.Glob(filepath.Join(dir, "ledger-*.json"))
	if err != nil {
		return nil, err
	}
	var all []LedgerEntry
	for _, name := range names {
		raw, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		var part []LedgerEntry
		if err := json.Unmarshal(raw, &part); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		all = append(all, part...)
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].At.Before(all[j].At) })
	return all, nil
}

// LedgerTally is a run's ledger added up: how many objects of each kind it created and deleted,
// the objects it left (created, or restored, and not deleted after) and the videos it deleted.
type LedgerTally struct {
	Created, Deleted map[string]int
	Left             []LedgerEntry
	DeletedVideos    []LedgerEntry
}

// TallyLedger adds up entries, in the order they happened.
func TallyLedger(entries []LedgerEntry) LedgerTally {
	t := LedgerTally{Created: map[string]int{}, Deleted: map[string]int{}}
	live, seen, names := map[string]LedgerEntry{}, map[string]bool{}, map[string]string{}
	var order []string
	for _, e := range entries {
		key := e.Kind + " " + e.ID
		switch e.Event {
		case "created", "restored":
			if e.Event == "created" {
				t.Created[e.Kind]++
			}
			if e.Name == "" {
				e.Name = names[key]
			}
			names[key] = e.Name
			if !seen[key] {
				seen[key] = true
				order = append(order, key)
			}
			live[key] = e
		case "deleted":
			t.Deleted[e.Kind]++
			e.Name = names[key]
			if e.Kind == "video" {
				t.DeletedVideos = append(t.DeletedVideos, e)
			}
			delete(live, key)
		}
	}
	for _, key := range order {
		if e, ok := live[key]; ok {
			t.Left = append(t.Left, e)
		}
	}
	return t
}
