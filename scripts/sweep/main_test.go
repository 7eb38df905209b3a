package main

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// env is a getenv of the variables given.
func env(vars map[string]string) func(string) string {
	return func(name string) string { return vars[name] }
}

// TestSweepRefusesBeforeAnyRequest: in every mode (the sweep, -ledger, -inventory, -compare,
// -check-endpoint), the program pointed at a server on 127.1.2.3 that is not an emulator (where
// a tunnel to production would listen) fails before any request with the key: the server gets
// the guard's probe alone. http://sandbox.api.video and ::ffff:127.0.0.1 are refused too, even
// with -allow-production for the first.
func TestSweepRefusesBeforeAnyRequest(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.Path+" auth="+r.Header.Get("Authorization"))
		mu.Unlock()
		http.NotFound(w, r)
	}))
	ln, err := net.Listen("tcp", "127.1.2.3:0")
	if err != nil {
		t.Fatal(err)
	}
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	file := filepath.Join(dir, "inventory.json")
	if err := os.WriteFile(file, []byte("[]"), 0o600); err != nil {
		t.Fatal(err)
	}
	modes := [][]string{nil, {"-ledger", dir}, {"-inventory", file}, {"-compare", file}, {"-check-endpoint"}}
	for _, args := range modes {
		var out, usage strings.Builder
		err := run(t.Context(), args, env(map[string]string{"VIDEOHOST_BASE_URL": srv.URL, "VIDEOHOST_API_KEY": "the-key"}), &out, &usage)
		if err == nil || !strings.Contains(err.Error(), "does not answer as the videohost emulator") || !strings.Contains(err.Error(), "-allow-production") {
			t.Errorf("sweep %v = %v, want a refusal of the server that says how to allow it", args, err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != len(modes) {
		t.Errorf("the server was sent %q, want the guard's probe alone for each of the %d modes", seen, len(modes))
	}
	for _, r := range seen {
		if r != "GET /_emulator/ auth=" {
			t.Errorf("the server was sent %q, want only the probe, without a key", r)
		}
	}
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	for _, tc := range []struct {
		base string
		args []string
	}{{"http://sandbox.api.video", []string{"-allow-production"}}, {"http://[::ffff:127.0.0.1]:" + port, nil}, {"https://ws.api.video", nil}} {
		if err := run(t.Context(), tc.args, env(map[string]string{"VIDEOHOST_BASE_URL": tc.base, "VIDEOHOST_API_KEY": "the-key"}), &strings.Builder{}, &strings.Builder{}); err == nil {
			t.Errorf("sweep %v at %s: no refusal", tc.args, tc.base)
		}
	}
}

// TestSweepTakesALedger: against an emulator on loopback, the sweep with -ledger deletes the
// upload token whose id the ledger's file holds (a token has no name to find it by) and leaves
// the other; a directory without a ledger file is refused, saying so.
func TestSweepTakesALedger(t *testing.T) {
	emu, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(emu)
	t.Cleanup(func() { srv.Close(); _ = emu.Close() })
	key := emu.APIKeys()[0]
	c, err := videohost.New(videohost.Config{BaseURL: srv.URL, APIKey: key, AuthScheme: videohost.AuthBasic, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	mine, err := c.CreateUploadToken(t.Context(), 0)
	if err != nil {
		t.Fatal(err)
	}
	other, err := c.CreateUploadToken(t.Context(), 0)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var lines []byte
	for _, e := range []acctest.LedgerEntry{
		{Event: acctest.EventCreating, Kind: "upload token", Test: "TestX", At: time.Now(), Req: "f:1"},
		{Event: acctest.EventCreated, Kind: "upload token", ID: mine.Token, Test: "TestX", At: time.Now(), Req: "f:1"},
	} {
		line, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(append(lines, line...), '\n')
	}
	vars := env(map[string]string{"VIDEOHOST_BASE_URL": srv.URL, "VIDEOHOST_API_KEY": key})
	if err := run(t.Context(), []string{"-ledger", dir}, vars, &strings.Builder{}, &strings.Builder{}); err == nil || !strings.Contains(err.Error(), "holds no ledger file") {
		t.Errorf("sweep -ledger of an empty directory = %v, want a refusal that says it holds no ledger", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ledger-1.jsonl"), lines, 0o600); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := run(t.Context(), []string{"-ledger", dir}, vars, &out, &strings.Builder{}); err != nil {
		t.Fatalf("sweep -ledger: %v\n%s", err, out.String())
	}
	left, err := c.ListUploadTokens(t.Context(), videohost.UploadTokenFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 1 || left[0].Token != other.Token {
		t.Errorf("after the sweep the workspace holds %d tokens, want the one the ledger does not name:\n%s", len(left), out.String())
	}
}
