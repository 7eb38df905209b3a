package framework_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/events"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// tokenRecorder wraps the service and keeps every access and refresh token it hands out, read
// from the answers of /auth/api-key and /auth/refresh.
type tokenRecorder struct {
	next http.Handler

	mu              sync.Mutex
	access, refresh []string
	refreshCalls    int
}

// recordingWriter keeps a copy of what the handler writes.
type recordingWriter struct {
	http.ResponseWriter
	body bytes.Buffer
}

func (w *recordingWriter) Write(b []byte) (int, error) {
	w.body.Write(b)
	return w.ResponseWriter.Write(b)
}

func (tr *tokenRecorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/auth/api-key" && r.URL.Path != "/auth/refresh" {
		tr.next.ServeHTTP(w, r)
		return
	}
	rw := &recordingWriter{ResponseWriter: w}
	tr.next.ServeHTTP(rw, r)
	var tok struct {
		AccessToken  string `json:"access_token"`
		RefreshToken string `json:"refresh_token"`
	}
	_ = json.Unmarshal(rw.body.Bytes(), &tok)
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if r.URL.Path == "/auth/refresh" {
		tr.refreshCalls++
	}
	if tok.AccessToken != "" {
		tr.access = append(tr.access, tok.AccessToken)
	}
	if tok.RefreshToken != "" {
		tr.refresh = append(tr.refresh, tok.RefreshToken)
	}
}

// uploadTokenRecorder wraps the service and keeps every upload token it creates, read from the
// answers of POST /upload-tokens: those of the resource and of every opening of the ephemeral
// resource.
type uploadTokenRecorder struct {
	next http.Handler

	mu     sync.Mutex
	tokens []string
}

func (ur *uploadTokenRecorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/upload-tokens" {
		ur.next.ServeHTTP(w, r)
		return
	}
	rw := &recordingWriter{ResponseWriter: w}
	ur.next.ServeHTTP(rw, r)
	var tok struct {
		Token string `json:"token"`
	}
	_ = json.Unmarshal(rw.body.Bytes(), &tok)
	if tok.Token != "" {
		ur.mu.Lock()
		ur.tokens = append(ur.tokens, tok.Token)
		ur.mu.Unlock()
	}
}

func (ur *uploadTokenRecorder) issued() []string {
	ur.mu.Lock()
	defer ur.mu.Unlock()
	return append([]string(nil), ur.tokens...)
}

func (tr *tokenRecorder) tokens() (access, refresh []string, refreshCalls int) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return append([]string(nil), tr.access...), append([]string(nil), tr.refresh...), tr.refreshCalls
}

// TestAccSecretsNeverInTraceLog runs apply, plan and destroy with the real terraform binary and
// TF_LOG=TRACE, with access tokens that live one second so that they are refreshed or fetched
// again during the runs, and checks that no log line and no output holds the API key, its Basic
// credential, an access or refresh token, a webhook's signature secret, a live stream's stream
// key or a restream's key (kept in the state, or write-only), or an upload token (of the
// resource, of the data source's list, or of the ephemeral resource opened in each run); the
// configuration also uploads a video's source, its caption and a watermark. It reads only the
// log, the output and the service's public API, so it runs against any endpoint; its objects
// carry the test's name (env.Name), by which it finds them in a workspace that others use.
func TestAccSecretsNeverInTraceLog(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: this test builds the provider and runs terraform three times")
	}
	// In-process each answer is slowed so that one run lasts longer than a token of a second:
	// the client must refresh within a run, not only fetch one token per run. A real endpoint's
	// tokens live longer, and each run's provider processes fetch their own.
	env := acctest.NewAccEnv(t, emulator.Options{TokenTTL: time.Second, Faults: emulator.Faults{Latency: 250 * time.Millisecond}})
	tfBin := acctest.TerraformCLI(t)
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	client := acctest.ServiceClient(t, env)

	// The provider reaches the service through a proxy of the test's that keeps the tokens the
	// service hands out, to look for them in the log.
	target, err := url.Parse(env.BaseURL)
	if err != nil {
		t.Fatal(err)
	}
	rec := &tokenRecorder{next: &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) { r.SetURL(target) }}}
	uploadRec := &uploadTokenRecorder{next: rec}
	srv := httptest.NewServer(uploadRec)
	t.Cleanup(srv.Close)
	key := env.APIKey
	// Against a real endpoint the key stays out of the configuration's file: terraform's
	// environment gives it to the provider (acctest.TerraformEnv).
	keyAttr := ""
	if env.Emu != nil {
		keyAttr = "api_key     = " + acctest.Hcl(key)
	}
	hookURL := "https://hooks.example.test/" + env.Name("leak") + "/"
	ours := func(w videohost.Webhook) bool { return strings.HasPrefix(w.URL, hookURL) }

	cliConfig := acctest.DevOverrideCLI(ctx, t)
	work := t.TempDir()
	acctest.WriteFile(t, filepath.Join(work, "main.tf"), fmt.Sprintf(`terraform {
  required_providers {
    videohost = { source = "videohost/videohost" }
  }
}

provider "videohost" {
  base_url    = %[1]s
  %[2]s
  auth_scheme = "bearer"
}

resource "videohost_webhook" "leak" {
  count  = 3
  url    = "%[3]s${count.index}"
  events = [%[4]q, %[5]q]
}

data "videohost_webhook" "first" {
  id = videohost_webhook.leak[0].id
}

data "videohost_webhooks" "all" {
  depends_on = [videohost_webhook.leak]
}

data "videohost_webhooks" "recorded" {
  event      = %[4]q
  depends_on = [videohost_webhook.leak]
}

output "secrets" {
  value     = [for w in data.videohost_webhooks.all.webhooks : w.signature_secret]
  sensitive = true
}

output "first_secret" {
  value     = data.videohost_webhook.first.signature_secret
  sensitive = true
}

variable "restream_key" {
  type      = string
  sensitive = true
}

variable "restream_key_wo" {
  type      = string
  sensitive = true
}

resource "videohost_player_theme" "leak" {
  name = %[6]q
}

resource "videohost_live_stream" "leak" {
  name      = %[6]q
  player_id = videohost_player_theme.leak.id
  restreams = [
    { name = "kept", server_url = "rtmp://a.example.test/live", stream_key = var.restream_key },
    { name = "wo", server_url = "rtmp://b.example.test/live", stream_key_wo = var.restream_key_wo, stream_key_wo_version = 1 },
  ]
}

data "videohost_live_stream" "leak" {
  id = videohost_live_stream.leak.id
}

data "videohost_live_streams" "all" {
  depends_on = [videohost_live_stream.leak]
}

output "ingest_key" {
  value     = videohost_live_stream.leak.stream_key
  sensitive = true
}

resource "videohost_upload_token" "leak" {
  ttl = 3600
}

data "videohost_upload_tokens" "all" {
  depends_on = [videohost_upload_token.leak]
}

output "upload_token" {
  value     = videohost_upload_token.leak.token
  sensitive = true
}

output "listed_upload_tokens" {
  value     = [for tok in data.videohost_upload_tokens.all.upload_tokens : tok.token]
  sensitive = true
}

# A video uploaded from a file with a watermark and a caption: the upload's requests (multipart,
# in the uploads class) go through the same credentials as the rest.
resource "videohost_watermark" "leak" {
  source_file = "${path.module}/mark.png"
}

resource "videohost_video" "leak" {
  title       = %[6]q
  source_file = "${path.module}/clip.mp4"
  watermark = {
    id = videohost_watermark.leak.id
  }
}

resource "videohost_video_caption" "leak" {
  video_id    = videohost_video.leak.id
  language    = "en"
  source_file = "${path.module}/en.vtt"
}

# Opened in the plan and in the apply of every run; a check block that reads it keeps it in the
# graph.
ephemeral "videohost_upload_token" "leak" {
  ttl = 600
}

check "ephemeral_upload_token" {
  assert {
    condition     = length(ephemeral.videohost_upload_token.leak.id) == 16
    error_message = "the ephemeral upload token has no fingerprint"
  }
}
`, acctest.Hcl(srv.URL), keyAttr, hookURL, events.VideoSourceRecorded, events.LiveStreamBroadcastStarted, env.Name("leak")))

	acctest.WritePNG(t, work, "mark.png", 40, 20, 7)
	acctest.WriteFile(t, filepath.Join(work, "en.vtt"), "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nleak\n")
	clip := make([]byte, 256<<10)
	if _, err := rand.Read(clip); err != nil {
		t.Fatal(err)
	}
	acctest.WriteFile(t, filepath.Join(work, "clip.mp4"), string(clip))
	clipSum := sha256.Sum256(clip)

	const restreamKey, restreamKeyWO = "restream-key-kept-Qx91", "restream-key-wo-Zr42"
	logDir := t.TempDir()
	var outputs strings.Builder
	run := func(name string, args ...string) {
		t.Helper()
		cmd := exec.CommandContext(ctx, tfBin, args...)
		cmd.Dir = work
		// The restream keys come from variables, as from a secret store.
		cmd.Env = acctest.TerraformEnv(cliConfig, "TF_LOG=TRACE", "TF_LOG_PATH="+filepath.Join(logDir, name+".log"),
			"TF_VAR_restream_key="+restreamKey, "TF_VAR_restream_key_wo="+restreamKeyWO)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		start := time.Now()
		if err := cmd.Run(); err != nil {
			t.Fatalf("terraform %s: %v\n%s", strings.Join(args, " "), err, out.String())
		}
		t.Logf("terraform %s: %s", name, time.Since(start).Round(time.Millisecond))
		outputs.WriteString(out.String())
	}

	// A run that fails half way must not leave its objects in the workspace: the destroy runs
	// when the test ends unless the test's own has.
	destroyed := false
	t.Cleanup(func() {
		if destroyed {
			return
		}
		cmd := exec.Command(tfBin, "destroy", "-no-color", "-auto-approve")
		cmd.Dir = work
		cmd.Env = acctest.TerraformEnv(cliConfig, "TF_VAR_restream_key="+restreamKey, "TF_VAR_restream_key_wo="+restreamKeyWO)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("destroying what the test left: %v\n%s", err, out)
		}
	})
	ourHooks := func() []videohost.Webhook {
		t.Helper()
		all, err := client.ListWebhooks(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		var out []videohost.Webhook
		for _, w := range all {
			if ours(w) {
				out = append(out, w)
			}
		}
		return out
	}

	run("apply", "apply", "-no-color", "-auto-approve", "-parallelism=1")
	// The secrets are read before destroy removes the webhooks.
	hooks := ourHooks()
	if len(hooks) != 3 {
		t.Fatalf("%d webhooks of the test after apply, want 3", len(hooks))
	}
	streams, err := client.ListLiveStreams(ctx, videohost.LiveStreamFilter{Name: env.Name("leak")})
	if err != nil || len(streams) != 1 || len(streams[0].Restreams) != 2 || streams[0].StreamKey == "" {
		t.Fatalf("live streams of the test after apply: %+v, %v; want one with a stream key and two restreams", streams, err)
	}
	if streams[0].Restreams[0].StreamKey != restreamKey || streams[0].Restreams[1].StreamKey != restreamKeyWO {
		t.Fatal("the restream keys did not reach the service")
	}
	if n := env.RequestCount(http.MethodPost, "/videos/"); n == 0 {
		t.Error("no request uploaded the video's source or caption: the log would prove nothing of uploads")
	}
	videos, err := client.ListVideos(ctx, videohost.VideoFilter{Title: env.Name("leak")})
	if err != nil || len(videos) != 1 {
		t.Fatalf("videos of the test after apply: %d, %v; want 1", len(videos), err)
	}
	// Only the emulator shows what it holds of a source.
	if env.Emu != nil {
		if size, sum, complete, _ := env.Emu.VideoSource(videos[0].ID); !complete || size != int64(len(clip)) || sum != hex.EncodeToString(clipSum[:]) {
			t.Fatalf("the video's source on the service: %d bytes, complete %v, SHA-256 %s; want the file's %d bytes and SHA-256",
				size, complete, sum, len(clip))
		}
	}
	run("plan", "plan", "-no-color")
	run("destroy", "destroy", "-no-color", "-auto-approve", "-parallelism=1")
	destroyed = true
	if n := len(ourHooks()); n != 0 {
		t.Errorf("%d webhooks of the test left after destroy", n)
	}

	var logs bytes.Buffer
	for _, name := range []string{"apply", "plan", "destroy"} {
		b, err := os.ReadFile(filepath.Join(logDir, name+".log"))
		if err != nil {
			t.Fatal(err)
		}
		if len(b) == 0 {
			t.Errorf("the %s log is empty", name)
		}
		logs.Write(b)
	}
	// The provider's own lines, so that the test notices when they stop reaching the log
	// (a scan of a log without them would prove nothing).
	for _, want := range []string{"videohost client configured", "videohost request", "videohost token"} {
		if n := bytes.Count(logs.Bytes(), []byte(want)); n == 0 {
			t.Errorf("the log holds no line %q from the provider", want)
		}
	}

	access, refresh, refreshCalls := rec.tokens()
	t.Logf("log: %d bytes; tokens issued: %d access, %d refresh; /auth/refresh calls: %d; API requests: %d",
		logs.Len(), len(access), len(refresh), refreshCalls, env.RequestCount("", "/webhooks"))
	if len(access) < 2 {
		t.Errorf("%d access tokens issued, want at least 2: the runs must fetch or refresh more than one", len(access))
	}

	basicCred := base64.StdEncoding.EncodeToString([]byte(key + ":"))
	secrets := map[string]string{"the API key": key, "the Basic credential": basicCred, "the Basic header": "Basic " + basicCred}
	for i, tok := range access {
		secrets[fmt.Sprintf("access token %d", i+1)] = tok
	}
	for i, tok := range refresh {
		secrets[fmt.Sprintf("refresh token %d", i+1)] = tok
	}
	for _, w := range hooks {
		if w.SignatureSecret == "" {
			t.Fatalf("webhook %s has no signature secret to look for", w.ID)
		}
		secrets["the signature secret of "+w.ID] = w.SignatureSecret
	}
	uploadTokens := uploadRec.issued()
	t.Logf("upload tokens issued: %d", len(uploadTokens))
	// One of the resource, and one per opening of the ephemeral resource (at least the plan and
	// the apply of the first run).
	if len(uploadTokens) < 3 {
		t.Errorf("%d upload tokens issued, want the resource's and the ephemeral resource's of each plan and apply", len(uploadTokens))
	}
	for i, tok := range uploadTokens {
		secrets[fmt.Sprintf("upload token %d", i+1)] = tok
	}
	for i, tok := range uploadTokens {
		if _, err := client.GetUploadToken(ctx, tok); !errors.Is(err, videohost.ErrNotFound) {
			t.Errorf("upload token %d is on the service after destroy (%v): the ephemeral ones are deleted when closed", i+1, err)
		}
	}
	// The emulator of the test's own holds no one else's tokens.
	if env.Emu != nil {
		if left, err := client.ListUploadTokens(ctx, videohost.UploadTokenFilter{}); err != nil || len(left) != 0 {
			t.Errorf("upload tokens left after destroy: %d, %v; want none (the ephemeral ones are deleted when closed)", len(left), err)
		}
	}
	secrets["the live stream's stream key"] = streams[0].StreamKey
	secrets["a restream key kept in the state"] = restreamKey
	secrets["a write-only restream key"] = restreamKeyWO
	for what, s := range secrets {
		if i := bytes.Index(logs.Bytes(), []byte(s)); i >= 0 {
			t.Errorf("the TRACE log holds %s, in: %s", what, lineAround(logs.Bytes(), i, s))
		}
		if strings.Contains(outputs.String(), s) {
			t.Errorf("terraform's output holds %s", what)
		}
	}
}

// lineAround is the log line that holds offset i, with secret masked so that a failing test
// does not print it either, cut to a readable length.
func lineAround(b []byte, i int, secret string) string {
	start := bytes.LastIndexByte(b[:i], '\n') + 1
	end := bytes.IndexByte(b[i:], '\n')
	if end < 0 {
		end = len(b) - i
	}
	line := strings.ReplaceAll(string(b[start:i+end]), secret, "[SECRET]")
	if len(line) > 400 {
		line = line[:400] + "…"
	}
	return line
}
