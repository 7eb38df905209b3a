package emulator_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// nodeClientDirEnv names a directory where the service's official Node client was installed
// (npm install @api.video/nodejs-client, outside this repository): its node_modules holds the
// stranger that TestNodeClientStranger drives the emulator with.
const nodeClientDirEnv = "VIDEOHOST_NODE_CLIENT_DIR"

// TestNodeClientStranger runs testdata/nodeclient/stranger.js, which creates, reads, lists,
// updates and deletes live streams, player themes and videos through @api.video/nodejs-client,
// uploads sources (in 5 MiB chunks, and in a progressive session), thumbnails, captions and
// chapters, makes upload tokens and uploads with them, watermarks and player logos, live stream
// thumbnails, summaries (created, listed, their sources read and written, deleted) and lists
// tags, and checks
// that the client understands every answer. It needs node and the package, which
// `make test` does not download, so it is skipped without them.
func TestNodeClientStranger(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH; the check against the service's Node client is skipped")
	}
	dir := os.Getenv(nodeClientDirEnv)
	modules := filepath.Join(dir, "node_modules")
	if _, err := os.Stat(filepath.Join(modules, "@api.video", "nodejs-client", "package.json")); dir == "" || err != nil {
		t.Skipf("set %s to a directory outside the repository where `npm install @api.video/nodejs-client` ran, "+
			"to check the emulator against the service's Node client", nodeClientDirEnv)
	}
	script, err := filepath.Abs(filepath.Join("testdata", "nodeclient", "stranger.js"))
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, emulator.Options{APIKeys: []string{"stranger-key"}, Limits: emulator.Limits{Uploads: 1000, Writes: 1000, Reads: 1000}})
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, script, e.srv.URL, "stranger-key")
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
	cmd.Dir = t.TempDir()
	out, err := cmd.CombinedOutput()
	t.Logf("node client: %s", out)
	if err != nil {
		t.Fatalf("the Node client found the emulator at fault (%v): %s", err, out)
	}
	if n := e.emu.RequestCount("", "/live-streams") + e.emu.RequestCount("", "/players"); n < 20 {
		t.Errorf("only %d requests reached the emulator", n)
	}
	// Three chunks of videos.upload and three parts of the progressive session, at least 21 MiB.
	if n := e.emu.RateStats().Uploads.Requests; n < 6 {
		t.Errorf("only %d uploads reached the emulator", n)
	}
	if b := e.emu.UploadedBytes(""); b < 21<<20 {
		t.Errorf("only %d bytes of sources reached the emulator", b)
	}
}

// TestNodeClientRestoreAndAnalytics runs testdata/nodeclient/restore_and_analytics.js against
// an emulator with the Video Restore feature on: a video discarded, read, listed and restored,
// and recorded plays read as a metric, a breakdown and a time series, with filters, through
// @api.video/nodejs-client. Skipped as TestNodeClientStranger is.
func TestNodeClientRestoreAndAnalytics(t *testing.T) {
	node, modules := nodeClient(t)
	script, err := filepath.Abs(filepath.Join("testdata", "nodeclient", "restore_and_analytics.js"))
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, emulator.Options{APIKeys: []string{"stranger-key"}, VideoRestore: true, Environment: emulator.EnvProduction})
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, script, e.srv.URL, "stranger-key")
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
	cmd.Dir = t.TempDir()
	out, err := cmd.CombinedOutput()
	t.Logf("node client: %s", out)
	if err != nil {
		t.Fatalf("the Node client found the emulator at fault (%v): %s", err, out)
	}
	if n := e.emu.RequestCount("", "/data/") + e.emu.RequestCount("", "/discarded/"); n < 10 {
		t.Errorf("only %d requests reached the discarded videos and the analytics", n)
	}
}

// nodeClient is node and the node_modules of the service's Node client, or skips the test.
func nodeClient(t *testing.T) (string, string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH; the check against the service's Node client is skipped")
	}
	dir := os.Getenv(nodeClientDirEnv)
	modules := filepath.Join(dir, "node_modules")
	if _, err := os.Stat(filepath.Join(modules, "@api.video", "nodejs-client", "package.json")); dir == "" || err != nil {
		t.Skipf("set %s to a directory outside the repository where `npm install @api.video/nodejs-client` ran, "+
			"to check the emulator against the service's Node client", nodeClientDirEnv)
	}
	return node, modules
}
