package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

func TestHelpDocumentsEveryFlag(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(t.Context(), []string{"-h"}, &stdout, &stderr); code != 0 {
		t.Fatalf("-h exits %d", code)
	}
	usage := stdout.String()
	if stderr.Len() != 0 {
		t.Errorf("-h wrote to stderr: %q", stderr.String())
	}
	var c config
	var k, o stringList
	var l emulator.Limits
	var f emulator.Faults
	n := 0
	flagSet(&c, &k, &o, &l, &f).VisitAll(func(fl *flag.Flag) {
		n++
		if !strings.Contains(usage, "-"+fl.Name+" ") && !strings.Contains(usage, "-"+fl.Name+"\n") {
			t.Errorf("usage does not document -%s", fl.Name)
		}
		if fl.Usage == "" {
			t.Errorf("-%s has no description", fl.Name)
		}
	})
	if n < 20 {
		t.Errorf("only %d flags", n)
	}
	// -state keeps every kind the state file holds.
	for _, want := range []string{"first line on stdout", "/_emulator/faults", "SIGTERM", "-control-token",
		"keeps webhooks, videos, live streams, player themes, upload tokens and watermarks across restarts",
		"-ingest-delay", "-encoding-delay", "-detected-language", "-fault-upload-cuts", "/_emulator/videos/{id}/source", "uploadCommitThen500Rate"} {
		if !strings.Contains(usage, want) {
			t.Errorf("usage lacks %q", want)
		}
	}
}

func TestRunRefusals(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"-listen", "0.0.0.0:0"}, 2, "-control-token"},
		{[]string{"-listen", ":0"}, 2, "-control-token"},
		{[]string{"-no-such-flag"}, 2, "no-such-flag"},
		{[]string{"extra"}, 2, "unexpected arguments"},
		{[]string{"-listen", "127.0.0.1:0", "-environment", "staging"}, 1, "staging"},
		{[]string{"-listen", "127.0.0.1:0", "-api-key", ""}, 2, "empty"},
		{[]string{"-listen", "127.0.0.1:0", "-fault-error-rate", "2"}, 1, "error rate"},
		{[]string{"-listen", "127.0.0.1:0", "-fault-read-error-rate", "-0.5"}, 1, "read error rate"},
		{[]string{"-listen", "127.0.0.1:0", "-fault-upload-commit-then-500", "1.5"}, 1, "upload commit-then-500"},
		{[]string{"-listen", "127.0.0.1:0", "-ingest-delay", "-1s"}, 1, "delays"},
		{[]string{"-listen", "127.0.0.1:0", "-detected-language", "x1"}, 1, "detected language"},
		{[]string{"-listen", "127.0.0.1:0", "-tls-cert", "cert.pem"}, 2, "-tls-cert and -tls-key go together"},
		{[]string{"-listen", "127.0.0.1:0", "-tls-cert", "none.pem", "-tls-key", "none.key"}, 2, "loading -tls-cert"},
		{[]string{"-listen", "127.0.0.1:0", "-delivery-queue", "-1"}, 1, "delivery workers and queue"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(t.Context(), tc.args, &stdout, &stderr); code != tc.code || !strings.Contains(stderr.String(), tc.msg) {
			t.Errorf("%v: exit %d (want %d), stderr %q", tc.args, code, tc.code, stderr.String())
		}
		if stdout.Len() != 0 {
			t.Errorf("%v: printed %q", tc.args, stdout.String())
		}
	}
}

func TestIsLoopback(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:8080": true, "localhost:1": true, "[::1]:0": true, "127.1.2.3:0": true,
		"0.0.0.0:80": false, ":8080": false, "192.168.1.2:80": false, "[::]:0": false, "example.com:80": false, "nonsense": false,
	} {
		if got := isLoopback(addr); got != want {
			t.Errorf("isLoopback(%q) = %v", addr, got)
		}
	}
}

// firstLines reads the first n lines of a process's stdout.
func firstLines(t *testing.T, r io.Reader, n int) []string {
	t.Helper()
	sc := bufio.NewScanner(r)
	var lines []string
	for len(lines) < n && sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if len(lines) < n {
		t.Fatalf("read %d lines, want %d (%v)", len(lines), n, sc.Err())
	}
	return lines
}

// buildBinary builds the command into dir and returns its path.
func buildBinary(ctx context.Context, t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "videohost-emulator")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// startBinary starts the built command with args and returns it with its first two lines of
// output (the address and the first key) and its standard error, which fills as it runs.
func startBinary(ctx context.Context, t *testing.T, bin string, args ...string) (*exec.Cmd, []string, *bytes.Buffer) {
	t.Helper()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.WaitDelay = 10 * time.Second
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := firstLines(t, stdout, 2)
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	return cmd, lines, &stderr
}

func get(t *testing.T, url, key string) int {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), "GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(key+":")))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	return resp.StatusCode
}

func TestRunInProcess(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		var stderr bytes.Buffer
		done <- run(ctx, []string{"-listen", "127.0.0.1:0", "-seed-videos", "2"}, pw, &stderr)
		_ = pw.Close()
	}()
	lines := firstLines(t, pr, 2)
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	if !strings.HasPrefix(lines[0], "http://127.0.0.1:") {
		t.Fatalf("first line %q", lines[0])
	}
	key, ok := strings.CutPrefix(lines[1], "api-key: ")
	if !ok || len(key) < 20 {
		t.Fatalf("second line %q", lines[1])
	}
	if s := get(t, lines[0]+"/videos", key); s != http.StatusOK {
		t.Errorf("GET /videos: %d", s)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d", code)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("run did not stop")
	}
}

// TestBinarySignals builds the command, runs it, and stops it with SIGTERM and then SIGINT:
// each time the first stdout line is the address, the API answers, the exit status is 0 and
// the state file holds what was created.
func TestBinarySignals(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: this test builds the command and runs it as a process")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	dir := t.TempDir()
	bin := buildBinary(ctx, t, dir)
	state := filepath.Join(dir, "state.json")
	for _, sig := range []os.Signal{syscall.SIGTERM, syscall.SIGINT} {
		cmd, lines, stderr := startBinary(ctx, t, bin, "-listen", "127.0.0.1:0", "-api-key", "cli-key", "-state", state)
		if !strings.HasPrefix(lines[0], "http://127.0.0.1:") || lines[1] != "api-key: cli-key" {
			t.Fatalf("output %q", lines)
		}
		if s := get(t, lines[0]+"/webhooks", "cli-key"); s != http.StatusOK {
			t.Errorf("GET /webhooks: %d", s)
		}
		body := strings.NewReader(`{"url":"https://r.test","events":["video.summary.generated"]}`)
		req, err := http.NewRequestWithContext(ctx, "POST", lines[0]+"/_emulator/webhooks", body)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		if err := cmd.Wait(); err != nil {
			t.Errorf("%v: exit %v; stderr %s", sig, err, stderr.String())
		}
	}
	emu, err := emulator.New(emulator.Options{StatePath: state})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = emu.Close() }()
	if n := len(emu.Webhooks()); n != 2 {
		t.Errorf("%d webhooks in the state file, want 2 (one per run)", n)
	}
}

// TestHelpAndREADMEAgreeOnQualities: -h and the README give the same qualities: an uploaded
// source is encoded in hls at four heights from 360p, and in mp4 too with mp4Support (4 or 8),
// while a video made through the control API arrives with 10 (hls and mp4 from 240p).
func TestHelpAndREADMEAgreeOnQualities(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(t.Context(), []string{"-h"}, &stdout, &stderr); code != 0 {
		t.Fatalf("-h exits %d", code)
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	usage, doc := flat(stdout.String()), flat(string(readme))
	for _, want := range []string{"hls at 360p, 480p, 720p", "4 or 8 qualities", "240p, 360p, 480p, 720p"} {
		if !strings.Contains(usage, want) {
			t.Errorf("-h does not say %q", want)
		}
		if !strings.Contains(doc, want) {
			t.Errorf("the README does not say %q", want)
		}
	}
}

// TestBinarySIGKILLMidWrite builds the command and runs it with -state over a state of 1,500
// videos (about a megabyte, so that every write takes a while), drives webhook creations from
// four clients without pause, and SIGKILLs it 30 times: at a random moment, or as soon as a
// write's temporary file appears. After every kill the state file must load, hold every webhook
// whose creation was answered before the kill, and the next start must serve it. Some kills
// must have landed during a write (a temporary file was left beside the state), or the test
// proved nothing.
func TestBinarySIGKILLMidWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: this test builds the command and runs it as a process")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	dir := t.TempDir()
	bin := buildBinary(ctx, t, dir)
	state := filepath.Join(dir, "state.json")
	seed := time.Now().UnixNano()
	rng := rand.New(rand.NewPCG(uint64(seed), 0))
	t.Logf("random seed %d", seed)
	const kills = 30
	acked, midWrite := 0, 0
	for i := range kills {
		args := []string{"-listen", "127.0.0.1:0", "-api-key", "k", "-state", state, "-max-webhooks", "1000000"}
		if i == 0 {
			args = append(args, "-seed-videos", "1500")
		}
		cmd, lines, _ := startBinary(ctx, t, bin, args...)
		stop := make(chan struct{})
		var wg sync.WaitGroup
		var mu sync.Mutex
		for range 4 {
			wg.Go(func() {
				for n := 0; ; n++ {
					select {
					case <-stop:
						return
					default:
					}
					if createWebhook(ctx, lines[0], n) {
						mu.Lock()
						acked++
						mu.Unlock()
					}
				}
			})
		}
		// Every other kill lands at a random moment; the others as soon as a write's temporary
		// file is seen, so that some surely land inside a write however fast the machine.
		if i%2 == 0 {
			time.Sleep(time.Duration(20+rng.IntN(200)) * time.Millisecond)
		} else {
			waitForTemp(ctx, dir)
		}
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
		close(stop)
		wg.Wait()
		if left, _ := filepath.Glob(filepath.Join(dir, ".state.json.*.tmp")); len(left) > 0 {
			midWrite++
		}
		if n := loadedWebhooks(t, state); n < acked {
			t.Fatalf("kill %d: the state holds %d webhooks; %d creations were answered before the kill", i+1, n, acked)
		}
	}
	t.Logf("%d kills, %d during a write; %d webhook creations answered and kept", kills, midWrite, acked)
	if midWrite == 0 {
		t.Errorf("no kill landed during a write of the state file")
	}
	cmd, lines, stderr := startBinary(ctx, t, bin, "-listen", "127.0.0.1:0", "-api-key", "k", "-state", state)
	if s := get(t, lines[0]+"/webhooks", "k"); s != http.StatusOK {
		t.Errorf("GET /webhooks after the kills: %d", s)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".state.json.*.tmp")); len(left) > 0 {
		t.Errorf("temporary files left after a start: %v", left)
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Errorf("exit %v; stderr %s", err, stderr.String())
	}
}

// waitForTemp returns once a temporary file of a state write is in dir, or after 5 s. It looks
// without pausing: a write's temporary file lives for a few milliseconds, and the kill must land
// while it does.
func waitForTemp(ctx context.Context, dir string) {
	deadline := time.Now().Add(5 * time.Second)
	for ctx.Err() == nil && time.Now().Before(deadline) {
		if left, _ := filepath.Glob(filepath.Join(dir, ".state.json.*.tmp")); len(left) > 0 {
			return
		}
	}
}

// createWebhook creates a webhook through the control API; true when it was answered 201.
func createWebhook(ctx context.Context, base string, n int) bool {
	body := strings.NewReader(fmt.Sprintf(`{"url":"https://r.test/%d","events":["video.summary.generated"]}`, n))
	req, err := http.NewRequestWithContext(ctx, "POST", base+"/_emulator/webhooks", body)
	if err != nil {
		return false
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false // The process was killed during the request.
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	return resp.StatusCode == http.StatusCreated
}

// loadedWebhooks loads a copy of the state file into an emulator, failing the test when it does
// not load, and returns the number of webhooks it holds. The copy keeps the emulator from
// touching the file and the temporary files beside it.
func loadedWebhooks(t *testing.T, state string) int {
	t.Helper()
	b, err := os.ReadFile(state)
	if err != nil {
		t.Fatalf("reading the state after a kill: %v", err)
	}
	cp := filepath.Join(t.TempDir(), "state.json")
	if err := os.WriteFile(cp, b, 0o600); err != nil {
		t.Fatal(err)
	}
	emu, err := emulator.New(emulator.Options{StatePath: cp})
	if err != nil {
		t.Fatalf("the state does not load after a SIGKILL: %v", err)
	}
	defer func() { _ = emu.Close() }()
	return len(emu.Webhooks())
}

// TestRunTLS runs the command with -tls: the first line is an https address; the certificate
// file it prints is what a client trusts to reach it (no verification turned off), the SPKI
// hash it prints is the served key's; a browser path answers CORS over it; the generated files
// are gone once it stops. Then the same with -tls-cert and -tls-key naming those files.
func TestRunTLS(t *testing.T) {
	start := func(args ...string) (lines []string, stop func()) {
		ctx, cancel := context.WithCancel(t.Context())
		pr, pw := io.Pipe()
		done := make(chan int, 1)
		go func() {
			var stderr bytes.Buffer
			code := run(ctx, append([]string{"-listen", "127.0.0.1:0", "-api-key", "tls-key"}, args...), pw, &stderr)
			if code != 0 {
				t.Errorf("exit %d: %s", code, stderr.String())
			}
			done <- code
			_ = pw.Close()
		}()
		lines = firstLines(t, pr, 6)
		go func() { _, _ = io.Copy(io.Discard, pr) }()
		return lines, func() { cancel(); <-done }
	}
	lines, stop := start("-tls")
	certPath, ok1 := strings.CutPrefix(lines[4], "tls-cert: ")
	spki, ok2 := strings.CutPrefix(lines[5], "tls-spki-sha256: ")
	if !strings.HasPrefix(lines[0], "https://127.0.0.1:") || !ok1 || !ok2 {
		t.Fatalf("output %q", lines)
	}
	pem, err := os.ReadFile(certPath)
	if err != nil {
		t.Fatal(err)
	}
	checkTLS(t, lines[0], pem, spki)
	// The key of the generated certificate is never printed; it is only in memory, so a run
	// with -tls-cert needs a pair of files of its own.
	dir := t.TempDir()
	certPEM, keyPEM, err := generateCert("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	cf, kf := filepath.Join(dir, "c.pem"), filepath.Join(dir, "k.pem")
	if err := os.WriteFile(cf, certPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(kf, keyPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	stop()
	if _, err := os.Stat(certPath); !os.IsNotExist(err) {
		t.Errorf("the generated certificate is still there after the stop: %v", err)
	}
	lines, stop = start("-tls-cert", cf, "-tls-key", kf)
	defer stop()
	if lines[4] != "tls-cert: "+cf {
		t.Errorf("output %q", lines)
	}
	checkTLS(t, lines[0], certPEM, strings.TrimPrefix(lines[5], "tls-spki-sha256: "))
}

// checkTLS calls base trusting only certPEM, and checks that the served key has the SPKI hash
// spki and that a preflight of /upload is answered.
func checkTLS(t *testing.T, base string, certPEM []byte, spki string) {
	t.Helper()
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(certPEM) {
		t.Fatal("the certificate file holds no certificate")
	}
	cl := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}}
	defer cl.CloseIdleConnections()
	req, _ := http.NewRequestWithContext(t.Context(), "OPTIONS", base+"/upload?token=x", nil)
	req.Header.Set("Origin", "http://127.0.0.1:9")
	req.Header.Set("Access-Control-Request-Method", "POST")
	resp, err := cl.Do(req)
	if err != nil {
		t.Fatalf("HTTPS with the printed certificate: %v", err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("preflight over HTTPS: %d %v", resp.StatusCode, resp.Header)
	}
	sum := sha256.Sum256(resp.TLS.PeerCertificates[0].RawSubjectPublicKeyInfo)
	if got := base64.StdEncoding.EncodeToString(sum[:]); got != spki {
		t.Errorf("SPKI hash printed %s, served %s", spki, got)
	}
	req, _ = http.NewRequestWithContext(t.Context(), "GET", base+"/videos", nil)
	req.SetBasicAuth("tls-key", "")
	if resp, err = cl.Do(req); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("GET /videos over HTTPS: %v %v", resp, err)
	} else {
		_ = resp.Body.Close()
	}
}
