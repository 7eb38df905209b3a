package acctest

// The ledger of a run against a real endpoint: every object a test creates there passes the
// test's proxy (remote_endpoint.go), which records it (its kind, id, name where the service
// keeps one, and the test's name), and every delete. Each test binary appends its records, one
// JSON line each, to a file of its own in the directory VIDEOHOST_LEDGER names, as the requests
// pass (a create before it is sent), so that the ledger holds what a binary made even when it
// dies: a panic, a test's deadline, go test's -timeout, a Ctrl-C. scripts/ledgerreport adds the
// files up at the end of the run (or after it was stopped) into what it created, deleted and
// left, by kind, and `make sweep SWEEP_FLAGS="-ledger DIR"` deletes what they hold. The names the
// tests give carry the run's prefix (RunName), so that `make sweep` finds what a run left.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
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

// The events of a ledger. A create is recorded twice: "creating" before the request is sent
// (so that a test binary killed while it waits still leaves a trace of it, with the name the
// request gives), then "created" with the id of the service's answer, or "not created" when the
// service refused it; a "creating" left alone is a create whose outcome no one saw.
const (
	EventCreating   = "creating"
	EventCreated    = "created"
	EventNotCreated = "not created"
	EventDeleted    = "deleted"
	EventRestored   = "restored"
)

// LedgerEntry is one create, delete or restore that a test made on the endpoint.
type LedgerEntry struct {
	Event string    `json:"event"` // one of the Event constants
	Kind  string    `json:"kind"`  // video, live stream, webhook, player theme, watermark, upload token, summary
	ID    string    `json:"id,omitempty"`
	Name  string    `json:"name,omitempty"` // the title, name or URL the service keeps, if any
	Test  string    `json:"test"`
	At    time.Time `json:"at"`
	// Req pairs a create's "creating" with its outcome: the ledger file's name and a count.
	Req string `json:"req,omitempty"`
}

var (
	runIDOnce sync.Once
	runID     string
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
		if e.Event != EventCreated || e.Name == "" {
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
		return EventCreated, parts[0], ""
	case method == http.MethodDelete && len(parts) == 2:
		return EventDeleted, parts[0], parts[1]
	case method == http.MethodPatch && len(parts) == 3 && parts[0] == "discarded" && parts[1] == "videos":
		return EventRestored, "videos", parts[2]
	}
	return "", "", ""
}

// recordLedger wraps next so that test t's creates, deletes and restores go into the ledger of
// the directory VIDEOHOST_LEDGER names (none when it names none): each create as it is sent and
// again as it is answered, each delete and restore once it succeeded.
func recordLedger(t *testing.T, next http.Handler) http.Handler {
	dir := os.Getenv(envLedger)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		event, segment, id := ledgerEvent(r.Method, r.URL.Path)
		k, known := ledgerKinds[segment]
		if event == "" || !known || dir == "" {
			next.ServeHTTP(w, r)
			return
		}
		l, err := ledgerOf(dir)
		if err != nil {
			t.Errorf("ledger: %v", err)
			next.ServeHTTP(w, r)
			return
		}
		record := func(e LedgerEntry) {
			e.Kind, e.Test, e.At = k.kind, t.Name(), time.Now().UTC()
			if err := l.append(e); err != nil {
				t.Errorf("ledger: %v", err)
			}
		}
		var req string
		if event == EventCreated {
			req = l.nextReq()
			record(LedgerEntry{Event: EventCreating, Name: nameInRequest(r, k.name), Req: req})
		}
		rec := &teeWriter{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(rec, r)
		switch {
		case event == EventCreated && rec.status >= 500:
			// Sent, and perhaps stored (an answer that never came, a 500 after the store): the
			// "creating" stays alone, and the summary says that the create may have left an object.
			return
		case event == EventCreated && (rec.status < 200 || rec.status > 299):
			record(LedgerEntry{Event: EventNotCreated, Req: req})
			return
		case rec.status < 200 || rec.status > 299:
			return
		}
		e := LedgerEntry{Event: event, ID: id, Req: req}
		if event == EventCreated {
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
		record(e)
	})
}

// nameInRequest is the member field of a create's JSON body (the title, name or URL the object
// will carry), or "" when the body is not JSON or has no such member. The body is read whole
// only up to 1 MiB, and given back to the request as it was.
func nameInRequest(r *http.Request, field string) string {
	if field == "" || r.Body == nil || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		return ""
	}
	head, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	r.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), r.Body), r.Body}
	if err != nil {
		return ""
	}
	var body map[string]any
	if json.Unmarshal(head, &body) != nil {
		return ""
	}
	name, _ := body[field].(string)
	return name
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

// ledgerWriter is this test binary's ledger file in one directory: one JSON line per event,
// only ever appended, each written whole and synced to the disk before the request it records
// goes on, so that the file holds every event even when the binary dies the next instant
// (a panic, its deadline, go test's -timeout, a Ctrl-C, SIGKILL).
type ledgerWriter struct {
	mu   sync.Mutex
	f    *os.File
	name string
	seq  int
	err  error // the first write that failed
}

var (
	ledgersMu sync.Mutex
	ledgers   = map[string]*ledgerWriter{}
)

// openLedger opens this binary's ledger in the directory VIDEOHOST_LEDGER names, if it names
// one and it is not open yet: a test against a real endpoint does not start without it.
func openLedger() error {
	if dir := os.Getenv(envLedger); dir != "" {
		_, err := ledgerOf(dir)
		return err
	}
	return nil
}

// ledgerOf is this binary's ledger in dir, created on first use: a file of its own (0600) in
// dir (made 0700 if missing).
func ledgerOf(dir string) (*ledgerWriter, error) {
	ledgersMu.Lock()
	defer ledgersMu.Unlock()
	if l, ok := ledgers[dir]; ok {
		return l, nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("creating %s: %w", dir, err)
	}
	f, err := os.CreateTemp(dir, "ledger-*.jsonl")
	if err != nil {
		return nil, fmt.Errorf("creating a ledger file in %s: %w", dir, err)
	}
	l := &ledgerWriter{f: f, name: filepath.Base(f.Name())}
	ledgers[dir] = l
	return l, nil
}

// nextReq is a new id of a create, unique in the run: the file's name and a count.
func (l *ledgerWriter) nextReq() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seq++
	return fmt.Sprintf("%s:%d", l.name, l.seq)
}

// append writes e as one line at the end of the file, in one write, and syncs it.
func (l *ledgerWriter) append(e LedgerEntry) error {
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, err = l.f.Write(append(line, '\n')); err == nil {
		err = l.f.Sync()
	}
	if err != nil {
		err = fmt.Errorf("writing into %s: %w", l.f.Name(), err)
		if l.err == nil {
			l.err = err
		}
	}
	return err
}

// closeLedgers closes this binary's ledger files, writing to w what failed; it returns false
// when a write or the close failed (the ledger may miss something).
func closeLedgers(w io.Writer) bool {
	ledgersMu.Lock()
	defer ledgersMu.Unlock()
	ok := true
	for dir, l := range ledgers {
		l.mu.Lock()
		err := l.err
		if cerr := l.f.Close(); err == nil {
			err = cerr
		}
		l.mu.Unlock()
		if err != nil {
			fmt.Fprintf(w, "ledger: %v\n", err)
			ok = false
		}
		delete(ledgers, dir)
	}
	return ok
}

// ReadLedger reads every test binary's ledger from dir (VIDEOHOST_LEDGER of a run), oldest event
// first. A last line cut short (a binary killed while writing it) is left out.
func ReadLedger(dir string) ([]LedgerEntry, error) {
	names, err := filepath.Glob(filepath.Join(dir, "ledger-*.jsonl"))
	if err != nil {
		return nil, err
	}
	var all []LedgerEntry
	for _, name := range names {
		raw, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		lines := strings.SplitAfter(string(raw), "\n")
		for i, line := range lines {
			if strings.TrimSpace(line) == "" {
				continue
			}
			var e LedgerEntry
			if err := json.Unmarshal([]byte(line), &e); err != nil {
				if i == len(lines)-1 && !strings.HasSuffix(line, "\n") {
					break
				}
				return nil, fmt.Errorf("%s, line %d: %w", name, i+1, err)
			}
			all = append(all, e)
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].At.Before(all[j].At) })
	return all, nil
}

// LedgerIDs are the objects that a ledger's entries made or restored, as kind and id (the
// sweeper's -ledger): the only way to find those of the kinds without a name.
func LedgerIDs(entries []LedgerEntry) map[string]bool {
	ids := map[string]bool{}
	for _, e := range entries {
		if e.ID != "" && (e.Event == EventCreated || e.Event == EventRestored) {
			ids[e.Kind+" "+e.ID] = true
		}
	}
	return ids
}

// LedgerTally is a run's ledger added up: how many objects of each kind it created and deleted,
// the objects it left (created, or restored, and not deleted after), the creates whose outcome
// no one saw (each may have left an object, of which the ledger knows no id), and the videos
// it deleted.
type LedgerTally struct {
	Created, Deleted map[string]int
	Left             []LedgerEntry
	Unanswered       []LedgerEntry
	DeletedVideos    []LedgerEntry
}

// TallyLedger adds up entries, in the order they happened.
func TallyLedger(entries []LedgerEntry) LedgerTally {
	t := LedgerTally{Created: map[string]int{}, Deleted: map[string]int{}}
	live, seen, names := map[string]LedgerEntry{}, map[string]bool{}, map[string]string{}
	settled := map[string]bool{}
	for _, e := range entries {
		if e.Req != "" && (e.Event == EventCreated || e.Event == EventNotCreated) {
			settled[e.Req] = true
		}
	}
	var order []string
	for _, e := range entries {
		key := e.Kind + " " + e.ID
		switch e.Event {
		case EventCreating:
			if !settled[e.Req] {
				t.Unanswered = append(t.Unanswered, e)
			}
		case EventCreated, EventRestored:
			if e.Event == EventCreated {
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
		case EventDeleted:
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
