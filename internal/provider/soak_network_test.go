package provider_test

// The network soak: the soak's configuration (see soakConfig) applied, changed and destroyed by a
// real terraform whose provider reaches the in-process emulator through Toxiproxy, with one kind
// of network fault toggled on during each command (connections reset or cut in the middle of a
// request or of an answer, answers that never come, a slow link), on the creates (first apply),
// the updates, creates, deletes and uploads of the second apply, and the deletes of the destroy.
// Toxiproxy draws each toxic per connection (its toxicity), so a retry on a new connection
// usually gets through. A command may fail: then its errors must be clear (documented titles,
// not Terraform's generic ones), the service must hold nothing that the state lacks (no
// orphan), and the same command without faults must converge to the configuration.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/provider/uploadtoken"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// envSoakToxiproxy names Toxiproxy's server binary (github.com/Shopify/toxiproxy/v2/cmd/server);
// without it TestAccSoakNetwork skips. `make soak-network` builds it and sets it.
const envSoakToxiproxy = "VIDEOHOST_SOAK_TOXIPROXY"

// envSoakNetworkCycles sets the cycles of TestAccSoakNetwork (default: one per fault kind).
const envSoakNetworkCycles = "VIDEOHOST_SOAK_NETWORK_CYCLES"

// toxic is one of Toxiproxy's toxics, as its HTTP API takes it.
type toxic struct {
	Name       string         `json:"name"`
	Type       string         `json:"type"`
	Stream     string         `json:"stream"`
	Toxicity   float32        `json:"toxicity"`
	Attributes map[string]int `json:"attributes"`
}

// netFault is a kind of network fault: the toxics of a cycle (their sizes and delays move with
// the cycle so that the cuts fall at other points of the requests and answers).
type netFault struct {
	name   string
	toxics func(cycle int) []toxic
}

// netFaults are the kinds, one per cycle in turn.
var netFaults = []netFault{
	{"request cut mid-way (limit_data upstream)", func(c int) []toxic {
		// A third of the connections close after a few hundred bytes to a few KiB sent: in the
		// headers or the body of a request, a chunk of an upload included.
		return []toxic{{Name: "cut", Type: "limit_data", Stream: "upstream", Toxicity: 0.3,
			Attributes: map[string]int{"bytes": 400 + (c*1777)%6000}}}
	}},
	{"request reset (reset_peer upstream)", func(c int) []toxic {
		return []toxic{{Name: "reset", Type: "reset_peer", Stream: "upstream", Toxicity: 0.3,
			Attributes: map[string]int{"timeout": 5 + (c*13)%60}}}
	}},
	{"answer cut mid-way (limit_data downstream)", func(c int) []toxic {
		// The service did what was asked; the answer stops part way.
		return []toxic{{Name: "cut", Type: "limit_data", Stream: "downstream", Toxicity: 0.3,
			Attributes: map[string]int{"bytes": 150 + (c*997)%3000}}}
	}},
	{"answer reset (reset_peer downstream)", func(c int) []toxic {
		return []toxic{{Name: "reset", Type: "reset_peer", Stream: "downstream", Toxicity: 0.3,
			Attributes: map[string]int{"timeout": 5 + (c*17)%60}}}
	}},
	{"answer never comes (timeout downstream, closed after 1.5 s)", func(int) []toxic {
		return []toxic{{Name: "timeout", Type: "timeout", Stream: "downstream", Toxicity: 0.15,
			Attributes: map[string]int{"timeout": 1500}}}
	}},
	{"slow link (latency 40±20 ms, 1 MB/s each way)", func(int) []toxic {
		return []toxic{
			{Name: "latency", Type: "latency", Stream: "downstream", Toxicity: 1, Attributes: map[string]int{"latency": 40, "jitter": 20}},
			{Name: "bw-up", Type: "bandwidth", Stream: "upstream", Toxicity: 1, Attributes: map[string]int{"rate": 1000}},
			{Name: "bw-down", Type: "bandwidth", Stream: "downstream", Toxicity: 1, Attributes: map[string]int{"rate": 1000}},
		}
	}},
}

// toxiproxyProcess prepares the command of the Toxiproxy server (see soak_network_linux_test.go).
var toxiproxyProcess = func(*exec.Cmd) {}

// toxiproxy is a Toxiproxy server started by the test, on loopback, with one proxy.
type toxiproxy struct {
	t      *testing.T
	api    string // http://127.0.0.1:PORT
	listen string // the proxy's address
	active []string
}

// startToxiproxy starts bin on a free loopback port with one proxy to upstream (host:port); it
// is stopped when the test ends.
func startToxiproxy(t *testing.T, bin, upstream string) *toxiproxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr, ok := l.Addr().(*net.TCPAddr)
	_ = l.Close()
	if !ok {
		t.Fatalf("a TCP listener has the address %v", l.Addr())
	}
	port := addr.Port
	var out bytes.Buffer
	cmd := exec.Command(bin, "-host", "127.0.0.1", "-port", strconv.Itoa(port))
	cmd.Stdout, cmd.Stderr = &out, &out
	toxiproxyProcess(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting Toxiproxy (%s=%s): %v", envSoakToxiproxy, bin, err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	x := &toxiproxy{t: t, api: fmt.Sprintf("http://127.0.0.1:%d", port)}
	for i := 0; ; i++ {
		if _, err := x.call(http.MethodGet, "/version", nil); err == nil {
			break
		} else if i == 100 {
			t.Fatalf("Toxiproxy did not answer on %s: %v\n%s", x.api, err, out.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	raw, err := x.call(http.MethodPost, "/proxies", map[string]any{"name": "soak", "listen": "127.0.0.1:0", "upstream": upstream, "enabled": true})
	if err != nil {
		t.Fatal(err)
	}
	var p struct{ Listen string }
	if err := json.Unmarshal(raw, &p); err != nil || !strings.HasPrefix(p.Listen, "127.0.0.1:") {
		t.Fatalf("Toxiproxy's proxy: %s (%v)", raw, err)
	}
	x.listen = p.Listen
	return x
}

func (x *toxiproxy) call(method, path string, body any) ([]byte, error) {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(x.t.Context(), method, x.api+path, r)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode/100 != 2 {
		err = fmt.Errorf("Toxiproxy: %s %s: %s: %s", method, path, resp.Status, raw)
	}
	return raw, err
}

// set replaces the proxy's toxics with toxics (none: a clean link).
func (x *toxiproxy) set(toxics []toxic) {
	x.t.Helper()
	for _, name := range x.active {
		if _, err := x.call(http.MethodDelete, "/proxies/soak/toxics/"+name, nil); err != nil {
			x.t.Fatal(err)
		}
	}
	x.active = nil
	for _, tx := range toxics {
		if _, err := x.call(http.MethodPost, "/proxies/soak/toxics", tx); err != nil {
			x.t.Fatal(err)
		}
		x.active = append(x.active, tx.Name)
	}
}

// netOutcome is what the commands of one fault kind and phase led to.
type netOutcome struct {
	runs, ok, clear, unclear int
	met                      map[string]int // what the provider met: retries by cause, creates of unknown outcome, adoptions
	titles                   map[string]int // the error titles of the failed commands
}

// netTally is the network soak's record.
type netTally struct {
	outcomes     map[string]*netOutcome // by fault kind and phase
	orphans      int
	divergences  int
	unclearLines []string
}

func (n *netTally) outcome(fault, phase string) *netOutcome {
	k := fault + "\x00" + phase
	o := n.outcomes[k]
	if o == nil {
		o = &netOutcome{met: map[string]int{}, titles: map[string]int{}}
		n.outcomes[k] = o
	}
	return o
}

// logRetry finds the provider's retries in its log ("videohost retrying" and their reason),
// its creates of unknown outcome and its adoptions.
var (
	logRetry     = regexp.MustCompile(`videohost retrying:.*?reason="((?:[^"\\]|\\.)*)"`)
	logUnknown   = regexp.MustCompile(`looking for the [a-z ]+ of a create whose outcome is unknown`)
	logAdopted   = regexp.MustCompile(`adopted the [a-z ]+ stored by a create whose outcome was unknown`)
	errorTitleRE = regexp.MustCompile(`(?m)^[│ ]*Error: (.+?)\s*$`)
)

// uploadPaths are the paths of the requests that send a file.
var uploadPaths = regexp.MustCompile(`/source\b|/captions/|/chapters/|/thumbnail\b|/logo\b|POST /watermarks`)

// retryCause names the cause of a retry from its reason, and whether it was an upload's.
func retryCause(reason string) string {
	what := "retry"
	if uploadPaths.MatchString(reason) {
		what = "upload retry"
	}
	switch r := strings.ToLower(reason); {
	case strings.Contains(r, "reset by peer"):
		return what + ": connection reset"
	case strings.Contains(r, "broken pipe"):
		return what + ": broken pipe"
	case strings.Contains(r, "eof"):
		return what + ": connection closed (EOF)"
	case strings.Contains(r, "timeout"), strings.Contains(r, "deadline"):
		return what + ": timeout"
	case strings.HasPrefix(r, "status "):
		return what + ": " + r
	}
	return what + ": other (" + reason + ")"
}

// readFaultsMet adds what the provider's log at logPath says it met to o.
func readFaultsMet(t *testing.T, logPath string, o *netOutcome) {
	raw, err := os.ReadFile(logPath)
	if errors.Is(err, os.ErrNotExist) {
		return
	} else if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	for _, m := range logRetry.FindAllStringSubmatch(text, -1) {
		o.met[retryCause(m[1])]++
	}
	if n := len(logUnknown.FindAllString(text, -1)); n > 0 {
		o.met["lookup after a create of unknown outcome"] += n
	}
	if n := len(logAdopted.FindAllString(text, -1)); n > 0 {
		o.met["adopted what such a create stored"] += n
	}
}

// genericTitles are Terraform's own words for a provider that failed without saying why.
var genericTitles = []string{"Plugin did not respond", "Request cancelled", "Provider produced inconsistent result",
	"Provider produced invalid plan", "Provider returned invalid result object after apply"}

// saysWhatToDo finds the advice of a clear error's detail.
var saysWhatToDo = regexp.MustCompile(`(?i)\b(re-run|run|apply|import|check|set|retry|wait|remove|delete|try)\b`)

// documented reports whether docs explain title: word for word, or as a family whose words
// before or after an ellipsis are the title's ("Unable to Create …", "… Create Interrupted").
func documented(docs, title string) bool {
	if strings.Contains(docs, title) {
		return true
	}
	words := strings.Fields(title)
	for k := 1; k < len(words); k++ {
		if strings.Contains(docs, strings.Join(words[:k], " ")+" …") || strings.Contains(docs, "… "+strings.Join(words[k:], " ")) {
			return true
		}
	}
	return false
}

// clearError reports whether every error of out is clear: a title the docs explain (the
// troubleshooting guide or a kind's page; not one of Terraform's generic ones) and a detail that
// says what to do; and no panic. It returns the titles.
func clearError(out, docs string) ([]string, bool) {
	var titles []string
	clear := !strings.Contains(out, "panic:")
	blocks := errorTitleRE.FindAllStringSubmatchIndex(out, -1)
	for i, m := range blocks {
		title := out[m[2]:m[3]]
		end := len(out)
		if i+1 < len(blocks) {
			end = blocks[i+1][0]
		}
		titles = append(titles, title)
		if slices.Contains(genericTitles, title) || !documented(docs, title) || !saysWhatToDo.MatchString(out[m[1]:end]) {
			clear = false
		}
	}
	return titles, clear && len(titles) > 0
}

// netSoak is one run of the network soak.
type netSoak struct {
	t     *testing.T
	env   *soakEnv
	proxy *toxiproxy
	w     *acctest.CliWorkdir
	docs  string
	tally *netTally
	soak  *soakTally
	logs  string
	seq   int
}

// run runs terraform with args under the toxics given (nil: a clean link) and returns its
// output and whether it succeeded; with toxics, the outcome is recorded under fault and phase.
func (s *netSoak) run(toxics []toxic, fault, phase string, args ...string) (string, bool) {
	s.t.Helper()
	s.seq++
	logPath := filepath.Join(s.logs, fmt.Sprintf("%04d.log", s.seq))
	cmd := exec.CommandContext(s.w.Ctx, s.w.Bin, args...)
	cmd.Dir = s.w.Dir
	cmd.Env = append(slices.Clone(s.w.Env), "TF_LOG_PROVIDER=INFO", "TF_LOG_PATH="+logPath)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	s.proxy.set(toxics)
	err := cmd.Run()
	s.proxy.set(nil)
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		s.t.Fatalf("terraform %v: %v", args, err)
	}
	if toxics != nil {
		o := s.tally.outcome(fault, phase)
		o.runs++
		readFaultsMet(s.t, logPath, o)
		if err == nil {
			o.ok++
		} else if titles, clear := clearError(out.String(), s.docs); clear {
			o.clear++
			for _, title := range titles {
				o.titles[title]++
			}
		} else {
			o.unclear++
			for _, title := range titles {
				o.titles[title+" (unclear)"]++
			}
			s.tally.unclearLines = append(s.tally.unclearLines, fmt.Sprintf("%s, %s: %s", fault, phase, out.String()))
			s.t.Logf("UNCLEAR FAILURE (%s, %s):\n%s", fault, phase, out.String())
		}
	}
	_ = os.Remove(logPath)
	return out.String(), err == nil
}

// state is the directory's state (terraform show -json) on a clean link.
func (s *netSoak) state() *tfjson.State {
	s.t.Helper()
	st := s.w.State()
	if st.Values == nil {
		st.Values = &tfjson.StateValues{RootModule: &tfjson.StateModule{}}
	}
	return st
}

// noOrphans compares the ids on the service with the state's, kind by kind: an object on the
// service that the state lacks is an orphan (counted); one in the state that the service lacks
// is counted as a divergence when strict (after a command that succeeded; after a failed one,
// the next refresh finds it gone).
func (s *netSoak) noOrphans(when string, strict bool) {
	s.t.Helper()
	st := s.state()
	for _, p := range serviceAndState(s.t, s.env, st) {
		if strings.Contains(p, "orphan") {
			s.tally.orphans++
			s.t.Logf("ORPHAN %s: %s", when, p)
		} else if strict {
			s.tally.divergences++
			s.t.Logf("DIVERGENCE %s: %s", when, p)
		}
	}
}

// serviceAndState lists the objects on the service and not in the state ("… (an orphan)") and
// in the state and not on the service, for every kind of the soak's configuration.
func serviceAndState(t *testing.T, env *soakEnv, st *tfjson.State) []string {
	ctx := t.Context()
	onService := map[string][]string{} // resource type to ids
	for _, w := range env.Emu.Webhooks() {
		onService["videohost_webhook"] = append(onService["videohost_webhook"], w.WebhookID)
	}
	var problems []string
	add := func(typ string, ids []string, err error) {
		if err != nil {
			problems = append(problems, fmt.Sprintf("listing %s: %v", typ, err))
		}
		onService[typ] = append(onService[typ], ids...)
	}
	streams, err := env.check.ListLiveStreams(ctx, videohost.LiveStreamFilter{})
	add("videohost_live_stream", idsOf(streams, func(l videohost.LiveStream) string { return l.ID }), err)
	themes, err := env.check.ListPlayerThemes(ctx, videohost.PlayerThemeFilter{})
	add("videohost_player_theme", idsOf(themes, func(p videohost.PlayerTheme) string { return p.ID }), err)
	videos, err := env.check.ListVideos(ctx, videohost.VideoFilter{})
	add("videohost_video", idsOf(videos, func(v videohost.Video) string { return v.ID }), err)
	marks, err := env.check.ListWatermarks(ctx, videohost.WatermarkFilter{})
	add("videohost_watermark", idsOf(marks, func(m videohost.Watermark) string { return m.ID }), err)
	tokens, err := env.check.ListUploadTokens(ctx, videohost.UploadTokenFilter{})
	add("videohost_upload_token", idsOf(tokens, func(tok videohost.UploadToken) string { return uploadtoken.UploadTokenFingerprint(tok.Token) }), err)
	for _, v := range videos {
		captions, err := env.check.ListCaptions(ctx, v.ID)
		add("videohost_video_caption", idsOf(captions, func(c videohost.Caption) string { return v.ID + "/" + c.SrcLang }), err)
		chapters, err := env.check.ListChapters(ctx, v.ID)
		add("videohost_video_chapter", idsOf(chapters, func(c videohost.Chapter) string { return v.ID + "/" + c.Language }), err)
	}
	for typ, ids := range onService {
		inState := map[string]bool{}
		for _, r := range acctest.StateResourcesOf(st, typ) {
			inState[stateKey(r)] = true
		}
		for _, id := range ids {
			if !inState[id] {
				problems = append(problems, fmt.Sprintf("%s %s is on the service but not in the state (an orphan)", typ, id))
			}
			delete(inState, id)
		}
		for id := range inState {
			problems = append(problems, fmt.Sprintf("%s %s is in the state but not on the service", typ, id))
		}
	}
	return problems
}

// stateKey is how serviceAndState names a resource of the state: its id, or video/language
// for captions and chapters.
func stateKey(r *tfjson.StateResource) string {
	switch r.Type {
	case "videohost_video_caption", "videohost_video_chapter":
		return acctest.AttrString(r, "video_id") + "/" + acctest.AttrString(r, "language")
	}
	return acctest.AttrString(r, "id")
}

func idsOf[T any](items []T, id func(T) string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = id(it)
	}
	return out
}

// apply applies step of cycle under toxics and, after a failure, checks that nothing is
// orphaned and applies again on a clean link; then the service must match the configuration
// and a plan must be empty.
func (s *netSoak) apply(cycle, step int, toxics []toxic, fault, phase string) {
	s.t.Helper()
	s.w.Write("main.tf", "terraform {\n  required_providers {\n    videohost = { source = \"videohost/videohost\" }\n  }\n}\n"+soakConfig(s.env, cycle, step))
	if _, ok := s.run(toxics, fault, phase, "apply", "-auto-approve", "-no-color", "-input=false"); !ok {
		s.noOrphans(fmt.Sprintf("cycle %d %s (failed)", cycle, phase), false)
		if out, ok := s.run(nil, "", "", "apply", "-auto-approve", "-no-color", "-input=false"); !ok {
			s.tally.divergences++
			s.t.Errorf("cycle %d %s: the apply on a clean link after the failure failed too:\n%s", cycle, phase, out)
			return
		}
	}
	var resp statecheck.CheckStateResponse
	checkServerMatchesState(s.t, s.env, s.soak, cycle, step).CheckState(s.t.Context(), statecheck.CheckStateRequest{State: s.state()}, &resp)
	if out, ok := s.run(nil, "", "", "plan", "-detailed-exitcode", "-no-color", "-input=false"); !ok {
		s.tally.divergences++
		s.t.Logf("DIVERGENCE cycle %d %s: the plan after it is not empty:\n%s", cycle, phase, out)
	}
}

// destroy destroys under toxics and, after a failure, checks that nothing is orphaned and
// destroys again on a clean link; then the service must hold nothing.
func (s *netSoak) destroy(cycle int, toxics []toxic, fault string) {
	s.t.Helper()
	if _, ok := s.run(toxics, fault, "destroy", "destroy", "-auto-approve", "-no-color", "-input=false"); !ok {
		s.noOrphans(fmt.Sprintf("cycle %d destroy (failed)", cycle), false)
		if out, ok := s.run(nil, "", "", "destroy", "-auto-approve", "-no-color", "-input=false"); !ok {
			s.t.Errorf("cycle %d: the destroy on a clean link after the failure failed too:\n%s", cycle, out)
		}
	}
	left := removeLiveObjects(s.t, s.env)
	for _, w := range s.env.Emu.Webhooks() {
		s.env.Emu.DeleteWebhook(w.WebhookID)
		left = append(left, w.WebhookID)
	}
	if len(left) > 0 {
		s.tally.orphans += len(left)
		s.t.Logf("ORPHAN cycle %d: left after the destroy: %v", cycle, left)
	}
}

// TestAccSoakNetwork runs the soak's cycles (apply, apply, destroy) through Toxiproxy, one
// network fault kind per cycle (netFaults) on during each of the three commands; see the top of
// the file. It prints a table of the faults the provider met (from its log) and what each
// command led to, and fails on an orphan, a divergence or an unclear failure.
func TestAccSoakNetwork(t *testing.T) {
	bin := os.Getenv(envSoakToxiproxy)
	if bin == "" {
		t.Skipf("%s names Toxiproxy's server binary (make soak-network builds it)", envSoakToxiproxy)
	}
	cycles := len(netFaults)
	if v := os.Getenv(envSoakNetworkCycles); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("%s=%q: want a whole number of cycles, at least 1", envSoakNetworkCycles, v)
		}
		cycles = n
	}
	env := newSoakEnv(t, emulator.Options{RateWindow: time.Second, MaxWebhooks: 50})
	u, err := url.Parse(env.BaseURL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := startToxiproxy(t, bin, u.Host)
	env.BaseURL = "http://" + proxy.listen
	s := &netSoak{t: t, env: env, proxy: proxy, w: acctest.NewCLIWorkdir(t.Context(), t, "1.10.0"),
		tally: &netTally{outcomes: map[string]*netOutcome{}}, soak: &soakTally{}, logs: t.TempDir()}
	s.docs = docsText(t)
	start := time.Now()
	for cycle := range cycles {
		f := netFaults[cycle%len(netFaults)]
		tx := f.toxics(cycle)
		// Every other cycle, turn by turn for each fault kind, the provider retries once instead
		// of max_retries' default 5, so that some commands fail: their errors, and what they
		// leave, are what the soak checks then.
		env.providerExtra = ""
		if (cycle+cycle/len(netFaults))%2 == 1 {
			env.providerExtra = "max_retries = 1"
		}
		s.apply(cycle, 0, tx, f.name, "create")
		s.apply(cycle, 1, tx, f.name, "update")
		s.destroy(cycle, tx, f.name)
		t.Logf("cycle %d (%s) done after %s", cycle, f.name, time.Since(start).Round(time.Second))
	}
	summary := s.summary(cycles, time.Since(start))
	t.Log(summary)
	fmt.Println(summary)
	if d := s.tally.divergences + s.soak.divergences(); d > 0 || s.tally.orphans > 0 || len(s.tally.unclearLines) > 0 {
		t.Errorf("%d orphans, %d divergences, %d unclear failures (see the ORPHAN, DIVERGENCE and UNCLEAR lines)",
			s.tally.orphans, d, len(s.tally.unclearLines))
	}
}

// docsText is every page of docs/, where a clear error's title is explained.
func docsText(t *testing.T) string {
	var b strings.Builder
	err := filepath.WalkDir(filepath.Join("..", "..", "docs"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			b.WriteString(acctest.ReadText(t, p))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// summary is the table of the faults met and the outcomes, kind by kind and phase by phase.
func (s *netSoak) summary(cycles int, took time.Duration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "soak-network: %d cycles in %s through Toxiproxy; orphans: %d; divergences: %d; unclear failures: %d\n",
		cycles, took.Round(time.Second), s.tally.orphans, s.tally.divergences+s.soak.divergences(), len(s.tally.unclearLines))
	b.WriteString("| Fault | Phase | Commands | Succeeded | Failed, clear | Failed, unclear | Met by the provider | Error titles |\n|---|---|---|---|---|---|---|---|\n")
	for _, f := range netFaults {
		for _, phase := range []string{"create", "update", "destroy"} {
			o, ok := s.tally.outcomes[f.name+"\x00"+phase]
			if !ok {
				continue
			}
			fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %d | %s | %s |\n", f.name, phase, o.runs, o.ok, o.clear, o.unclear,
				countsInWords(o.met), countsInWords(o.titles))
		}
	}
	return b.String()
}

// countsInWords is "a 3, b 1", sorted; "none" when empty.
func countsInWords(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

// TestSoakNetworkClassifiesErrors: the network soak's judgement of a failed command's output.
func TestSoakNetworkClassifiesErrors(t *testing.T) {
	docs := "Unable to Create …, Video Upload Incomplete, … Create Interrupted"
	for _, c := range []struct {
		out   string
		clear bool
	}{
		{"Error: Unable to Create Webhook\n\n  with videohost_webhook.soak[1],\n\nThe service could not be reached. Check base_url and the network, then re-run.", true},
		{"│ Error: Video Upload Incomplete\n│\n│ 3 bytes are missing; the next apply resumes it.\n\nError: Webhook Create Interrupted\n\nApply again.", true},
		{"Error: Unable to Create Webhook\n\nPOST /webhooks: EOF", false},                          // no advice
		{"Error: Something Else\n\nRun it again.", false},                                          // not documented
		{"Error: Plugin did not respond\n\nThe plugin encountered an error. Run it again.", false}, // Terraform's generic words
		{"panic: runtime error\nError: Unable to Create Webhook\n\nRe-run.", false},
		{"no error at all", false},
	} {
		if _, got := clearError(c.out, docs); got != c.clear {
			t.Errorf("clearError(%q) = %t, want %t", c.out, got, c.clear)
		}
	}
}
