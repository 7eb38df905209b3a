package video_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/localfile"
	"github.com/videohost/terraform-provider-videohost/internal/provider/video"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// newWrappedAccEnv is newAccEnv with the emulator behind the handler that wrap builds, for a
// test that steers the requests (a fault at the second chunk, a file rewritten during its
// upload).
func newWrappedAccEnv(t *testing.T, wrap func(*emulator.Emulator) http.Handler) *acctest.AccEnv {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance tests run only with TF_ACC=1")
	}
	acctest.Parallel(t)
	emu, baseURL := acctest.ServeEmulator(t, emulator.Options{}, wrap)
	return &acctest.AccEnv{BaseURL: baseURL, APIKey: emu.APIKeys()[0], Emu: emu}
}

// onSourceChunk calls fn before the emulator serves the n-th source chunk (from 1) while armed
// is set.
func onSourceChunk(n int64, armed *atomic.Bool, fn func(*emulator.Emulator)) func(*emulator.Emulator) http.Handler {
	return func(emu *emulator.Emulator) http.Handler {
		var seen atomic.Int64
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/source") && armed.Load() {
				if seen.Add(1) == n {
					fn(emu)
				}
			}
			emu.ServeHTTP(w, r)
		})
	}
}

// videoConfigWith is videoConfig with more provider attributes.
func videoConfigWith(env *acctest.AccEnv, providerExtra string, attrs ...string) string {
	return env.ProviderConfig("upload_chunk_size_mib = 5\n"+providerExtra) +
		"resource \"videohost_video\" \"clip\" {\n" + acctest.HclAttrs(attrs...) + "}\n"
}

// cutFromSecondChunk is an emulator whose source chunks are cut from the second one on (its
// retries included) while armed: a network failure that outlasts the retries.
func cutFromSecondChunk(t *testing.T) (*acctest.AccEnv, *atomic.Bool) {
	armed := &atomic.Bool{}
	armed.Store(true)
	env := newWrappedAccEnv(t, onSourceChunk(2, armed, func(emu *emulator.Emulator) {
		emu.SetFaults(emulator.Faults{UploadCuts: 100})
	}))
	return env, armed
}

// incompleteStep applies a video whose upload fails at its second chunk: the apply succeeds
// with the video recorded and 7 of its 12 MiB missing, and the plan after it resumes.
func incompleteStep(env *acctest.AccEnv, config string, id *string) resource.TestStep {
	return resource.TestStep{
		Config:             config,
		ExpectNonEmptyPlan: true,
		ConfigStateChecks: []statecheck.StateCheck{
			acctest.IdOf(testVideoAddr, id),
			statecheck.ExpectKnownValue(testVideoAddr, tfjsonpath.New("source_bytes_missing"), knownvalue.Int64Exact(videoFileSize-5<<20)),
			acctest.ServiceCheckFunc(func(context.Context) error {
				if _, _, complete, ok := env.Emu.VideoSource(*id); !ok || complete {
					return fmt.Errorf("video %s: on the emulator %t, complete %t; want an incomplete source", *id, ok, complete)
				}
				return nil
			}),
		},
	}
}

// TestAccVideoUploadResumesAfterNetworkFailure: a network failure that outlasts the retries
// leaves the video recorded with what is missing and no error; the next plan is an in-place
// update that resumes, and its apply sends only the missing bytes.
func TestAccVideoUploadResumesAfterNetworkFailure(t *testing.T) {
	env, armed := cutFromSecondChunk(t)
	file, sum := acctest.WriteRandomFile(t, t.TempDir(), "clip.mp4", videoFileSize)
	config := videoConfigWith(env, "max_retries = 1\nupload_chunks_in_flight = 1",
		"title", acctest.Hcl("Resumed"), "source_file", acctest.Hcl(file), "thumbnail_timecode", acctest.Hcl("00:00:02"), "wait_for", acctest.Hcl("playable"))
	var id string
	var before int64
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			incompleteStep(env, config, &id),
			{
				PreConfig: func() {
					armed.Store(false)
					env.Emu.SetFaults(emulator.Faults{})
					before = env.Emu.UploadedBytes(id)
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testVideoAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectUnknownValue(testVideoAddr, tfjsonpath.New("source_bytes_missing")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testVideoAddr, tfjsonpath.New("id"), knownvalue.StringFunc(func(v string) error {
						if v != id {
							return fmt.Errorf("id %s, want %s: the video was replaced", v, id)
						}
						return nil
					})),
					statecheck.ExpectKnownValue(testVideoAddr, tfjsonpath.New("source_bytes_missing"), knownvalue.Int64Exact(0)),
					statecheck.ExpectKnownValue(testVideoAddr, tfjsonpath.New("playable"), knownvalue.Bool(true)),
					sourceOnService(env, &id, &sum),
					acctest.ServiceCheckFunc(func(context.Context) error {
						if sent := env.Emu.UploadedBytes(id) - before; sent != videoFileSize-5<<20 {
							return fmt.Errorf("the resumed upload sent %d bytes, want the %d missing", sent, videoFileSize-5<<20)
						}
						return nil
					}),
				},
			},
		},
	})
}

// TestAccVideoUploadIncompleteThenFileChanged: when the file changed after an incomplete
// upload, the plan replaces the video instead of resuming it.
func TestAccVideoUploadIncompleteThenFileChanged(t *testing.T) {
	env, armed := cutFromSecondChunk(t)
	dir := t.TempDir()
	file, sum := acctest.WriteRandomFile(t, dir, "clip.mp4", videoFileSize)
	config := videoConfigWith(env, "max_retries = 1\nupload_chunks_in_flight = 1", "title", acctest.Hcl("Changed"), "source_file", acctest.Hcl(file))
	var id, first string
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			incompleteStep(env, config, &id),
			{
				PreConfig: func() {
					armed.Store(false)
					env.Emu.SetFaults(emulator.Faults{})
					first = id
					_, sum = acctest.WriteRandomFile(t, dir, "clip.mp4", videoFileSize)
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testVideoAddr, plancheck.ResourceActionDestroyBeforeCreate),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					acctest.IdOf(testVideoAddr, &id),
					sourceOnService(env, &id, &sum),
					acctest.ServiceCheckFunc(func(context.Context) error {
						if _, _, _, ok := env.Emu.VideoSource(first); ok {
							return fmt.Errorf("the incomplete video %s is still there", first)
						}
						return nil
					}),
				},
			},
		},
	})
}

// TestAccVideoFileChangedBetweenPlanAndApply: a file rewritten after Terraform's last plan
// (the final plan it makes during the apply) and before the provider's Create is refused by the
// provider's own check, with its own words and hashes, before any video is made. The file is
// rewritten by the provider server itself, as the create reaches it: rewritten any earlier,
// Terraform's final plan would see the new hash and refuse the apply with its own "inconsistent
// final plan" on source_sha256, a message this test must not accept.
func TestAccVideoFileChangedBetweenPlanAndApply(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	dir := t.TempDir()
	file, planned := acctest.WriteRandomFile(t, dir, "clip.mp4", 1<<20)
	next, now := acctest.WriteRandomFile(t, dir, "next.mp4", 1<<20)
	armed := &atomic.Bool{}
	armed.Store(true)
	factories := beforeApply(func(req *tfprotov6.ApplyResourceChangeRequest) {
		if req.TypeName == "videohost_video" && armed.CompareAndSwap(true, false) {
			if err := os.Rename(next, file); err != nil {
				t.Errorf("rewriting the source before the create: %v", err)
			}
		}
	})
	config := videoConfig(env, "title", acctest.Hcl(env.Name("changed-before-apply")), "source_file", acctest.Hcl(file))
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		Steps: []resource.TestStep{
			{
				Config: config,
				ExpectError: acctest.OnAttribute("Source File Changed", testVideoAddr, "source_file", fmt.Sprintf(
					"No video was created: the file %q changed between the plan and the apply: its SHA-256 was %s "+
						"when the plan was made and is %s now. Nothing of it was sent.", file, planned, now)),
			},
			{
				PreConfig:          acctest.NoRequestsTo(t, env, "/videos", "the changed file was refused before the create"),
				Config:             config,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
		},
	})
	if armed.Load() {
		t.Error("no create of the video reached the provider: the file was never rewritten")
	}
}

// beforeApply is the provider's factories with fn called on every ApplyResourceChange before
// the provider serves it: a test's way to act after Terraform's final plan.
func beforeApply(fn func(*tfprotov6.ApplyResourceChangeRequest)) map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		"videohost": func() (tfprotov6.ProviderServer, error) {
			srv, err := acctest.TestAccProtoV6ProviderFactories["videohost"]()
			return applyHook{ProviderServer: srv, before: fn}, err
		},
	}
}

// applyHook is a provider server that calls before ahead of each ApplyResourceChange.
type applyHook struct {
	tfprotov6.ProviderServer
	before func(*tfprotov6.ApplyResourceChangeRequest)
}

func (s applyHook) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	s.before(req)
	return s.ProviderServer.ApplyResourceChange(ctx, req)
}

// TestAccVideoFileChangedDuringUpload: a file rewritten while it is uploaded is an error that
// says so, and the video (which may hold bytes of both versions) is replaced by the next apply.
// The rewrite starts when the second chunk reaches the service: the client, still reading that
// chunk, may find the file shorter (its own check stops the upload) or the same size with other
// bytes (the hash after the upload tells); both say the same to the user. A rewrite to half the
// size is always the first case.
func TestAccVideoFileChangedDuringUpload(t *testing.T) {
	for _, tc := range []struct {
		name    string
		newSize int
	}{
		{"same size", videoFileSize},
		{"shorter", videoFileSize / 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			armed := &atomic.Bool{}
			armed.Store(true)
			var file, sum string
			env := newWrappedAccEnv(t, onSourceChunk(2, armed, func(*emulator.Emulator) {
				_, sum = acctest.WriteRandomFile(t, dir, "clip.mp4", tc.newSize)
			}))
			file, _ = acctest.WriteRandomFile(t, dir, "clip.mp4", videoFileSize)
			config := videoConfigWith(env, "upload_chunks_in_flight = 1", "title", acctest.Hcl("Changed during upload"), "source_file", acctest.Hcl(file))
			var id string
			acctest.AccTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{
					{
						Config:      config,
						ExpectError: regexp.MustCompile(`(?s)Source File Changed During Upload.*changed\s+while\s+it\s+was\s+uploaded`),
					},
					{
						PreConfig: func() { armed.Store(false) },
						Config:    config,
						ConfigPlanChecks: resource.ConfigPlanChecks{
							PreApply: []plancheck.PlanCheck{
								plancheck.ExpectResourceAction(testVideoAddr, plancheck.ResourceActionDestroyBeforeCreate),
							},
							PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
						},
						ConfigStateChecks: []statecheck.StateCheck{acctest.IdOf(testVideoAddr, &id), sourceOnService(env, &id, &sum)},
					},
				},
			})
		})
	}
}

// TestAccVideoUploadInterrupted presses Ctrl-C on a real terraform apply while the second of
// three chunks of a video's source is in flight: that chunk finishes, the third is never sent,
// the apply records the video with the bytes still missing and a warning (no error for the
// video), and the next apply sends only those bytes and completes it.
func TestAccVideoUploadInterrupted(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance tests run only with TF_ACC=1")
	}
	acctest.Parallel(t)
	tfBin := acctest.TerraformCLI(t)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	cliConfig := acctest.DevOverrideCLI(ctx, t)

	// The second chunk is held for a while, so that Ctrl-C lands while it is in flight.
	arrived := make(chan struct{}, 1)
	var hold atomic.Bool
	hold.Store(true)
	emu, baseURL := acctest.ServeEmulator(t, emulator.Options{}, onSourceChunk(2, &hold, func(*emulator.Emulator) {
		arrived <- struct{}{}
		time.Sleep(acctest.InterruptHold)
	}))
	work := t.TempDir()
	file, sum := acctest.WriteRandomFile(t, work, "clip.mp4", videoFileSize)
	acctest.WriteFile(t, filepath.Join(work, "main.tf"), fmt.Sprintf(`terraform {
  required_providers {
    videohost = { source = "videohost/videohost" }
  }
}

provider "videohost" {
  base_url                = %s
  api_key                 = %s
  auth_scheme             = "basic"
  upload_chunk_size_mib   = 5
  upload_chunks_in_flight = 1
}

resource "videohost_video" "clip" {
  title       = "Interrupted"
  source_file = %s
}
`, acctest.Hcl(baseURL), acctest.Hcl(emu.APIKeys()[0]), acctest.Hcl(file)))

	run := func(args ...string) (*exec.Cmd, *bytes.Buffer, chan error) {
		cmd := exec.Command(tfBin, args...)
		cmd.Dir = work
		cmd.Env = acctest.TerraformEnv(cliConfig)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatalf("starting terraform: %v", err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
		return cmd, &out, done
	}
	apply := []string{"apply", "-auto-approve", "-no-color", "-input=false"}

	cmd, out, done := run(apply...)
	select {
	case <-arrived:
	case err := <-done:
		t.Fatalf("terraform ended before the second chunk was sent (%v):\n%s", err, out)
	case <-time.After(2 * time.Minute):
		t.Fatalf("the second chunk was not sent within 2 minutes:\n%s", out)
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGINT); err != nil {
		t.Fatalf("sending SIGINT: %v", err)
	}
	select {
	case err := <-done:
		// Terraform exits non-zero after an interrupt, whatever the provider reported.
		t.Logf("terraform exited after SIGINT: %v", err)
	case <-time.After(time.Minute):
		t.Fatalf("terraform did not exit within a minute of SIGINT:\n%s", out)
	}
	text := out.String()
	if !strings.Contains(text, "Video Upload Incomplete") || !strings.Contains(text, "interrupted") {
		t.Errorf("the interrupted apply does not warn that the upload is incomplete:\n%s", text)
	}
	if strings.Contains(text, "Error: Unable to") {
		t.Errorf("the interrupted apply reports an error for the video:\n%s", text)
	}
	if n := emu.RequestCount(http.MethodPost, "/videos/"); n != 2 {
		t.Errorf("%d source chunks reached the service, want 2: a chunk started after Ctrl-C", n)
	}
	id, missing := videoInStateFile(t, work)
	if want := int64(videoFileSize - 10<<20); missing != want {
		t.Errorf("source_bytes_missing = %d after the interrupt, want %d (the third chunk)", missing, want)
	}
	if _, _, complete, ok := emu.VideoSource(id); !ok || complete {
		t.Fatalf("video %s of the state: on the emulator %t, complete %t; want an incomplete source", id, ok, complete)
	}

	hold.Store(false)
	before := emu.UploadedBytes(id)
	_, out, done = run(apply...)
	if err := <-done; err != nil {
		t.Fatalf("the second apply: %v\n%s", err, out)
	}
	requireCompletedResume(t, out.String())
	if got, missing := videoInStateFile(t, work); got != id || missing != 0 {
		t.Errorf("after the second apply the state holds video %s with %d bytes missing, want %s with none", got, missing, id)
	}
	if sent := emu.UploadedBytes(id) - before; sent != videoFileSize-10<<20 {
		t.Errorf("the second apply sent %d bytes, want the %d missing", sent, videoFileSize-10<<20)
	}
	if size, got, complete, _ := emu.VideoSource(id); !complete || got != sum {
		t.Errorf("the service holds %d bytes with SHA-256 %s (complete %t), want the file's %s", size, got, complete, sum)
	}
}

// requireCompletedResume fails unless out, the output of an apply that resumed an upload and
// completed it, reads as a completed update in a CI log: one change and no warning, none of it
// saying the upload is incomplete. (A plan's warnings are printed again at the end of the
// apply that carries it out.)
func requireCompletedResume(t *testing.T, out string) {
	t.Helper()
	if !strings.Contains(out, "0 added, 1 changed, 0 destroyed") {
		t.Errorf("the apply that resumed the upload is not one in-place update:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		// The tests' own CLI configuration overrides the provider's address: Terraform warns of it.
		warns := strings.HasPrefix(line, "Warning: ") && line != "Warning: Provider development overrides are in effect"
		if warns || strings.Contains(strings.ToLower(line), "incomplete") {
			t.Errorf("the apply that resumed and completed the upload says %q:\n%s", line, out)
		}
	}
}

// videoInStateFile reads videohost_video.clip's id and source_bytes_missing from the state
// file in dir.
func videoInStateFile(t *testing.T, dir string) (string, int64) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Resources []struct {
			Type      string `json:"type"`
			Instances []struct {
				Attributes struct {
					ID                 string `json:"id"`
					SourceBytesMissing *int64 `json:"source_bytes_missing"`
				} `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatal(err)
	}
	for _, r := range st.Resources {
		if r.Type == "videohost_video" && len(r.Instances) == 1 {
			a := r.Instances[0].Attributes
			if a.SourceBytesMissing == nil {
				t.Fatalf("video %s has no source_bytes_missing in the state", a.ID)
			}
			return a.ID, *a.SourceBytesMissing
		}
	}
	t.Fatalf("no videohost_video in the state:\n%s", raw)
	return "", 0
}

// TestAccVideoCreateOutcomeUnknown: a create that the service stores but answers 500 is not
// sent again blindly: the video it stored is adopted, its source uploaded, and the service
// holds one video.
func TestAccVideoCreateOutcomeUnknown(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{Faults: emulator.Faults{CommitThen500Rate: 1}})
	env.RequireEmulator(t)
	file, sum := acctest.WriteRandomFile(t, t.TempDir(), "clip.mp4", 1<<20)
	var id string
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: videoConfig(env, "title", acctest.Hcl("Stored, then 500"), "source_file", acctest.Hcl(file), "tags", acctest.HclList("x")),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.IdOf(testVideoAddr, &id),
				sourceOnService(env, &id, &sum),
				acctest.ServiceCheckFunc(func(ctx context.Context) error {
					vs, err := acctest.ServiceClient(t, env).ListVideos(ctx, videohost.VideoFilter{})
					if err != nil {
						return err
					}
					if len(vs) != 1 || vs[0].ID != id {
						return fmt.Errorf("the service holds %d videos, want only %s", len(vs), id)
					}
					if n := env.Emu.FaultCounts().CommitThen500; n == 0 {
						return fmt.Errorf("no create was stored and answered 500: the test did not test adoption")
					}
					return nil
				}),
			},
		}},
	})
}

// failedEncoding answers every status read with a source that is in and an encoding whose hls
// 720p failed, as the service does for a source it cannot encode (the emulator, which cannot
// read media, never fails one).
func failedEncoding(emu *emulator.Emulator) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/status") {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"ingest": {"status": "ingested", "filesize": 1024, "receivedBytes": [{"from": 0, "to": 1023, "total": 1024}]},
 "encoding": {"playable": true, "qualities": [
   {"type": "hls", "quality": "360p", "status": "encoded"},
   {"type": "hls", "quality": "720p", "status": "failed"}]}}`))
			return
		}
		emu.ServeHTTP(w, r)
	})
}

// TestAccVideoWaitForFailedQuality: a quality that fails while the apply waits for encoded is
// an error that names it, and the video is replaced by the next apply.
func TestAccVideoWaitForFailedQuality(t *testing.T) {
	env := newWrappedAccEnv(t, failedEncoding)
	config := videoConfig(env, "title", acctest.Hcl("Fails"), "source_url", acctest.Hcl("https://media.example.test/a.mp4"), "wait_for", acctest.Hcl("encoded"))
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config, ExpectError: regexp.MustCompile(`(?s)failed\s+to\s+encode\s+hls\s+720p`)},
			{
				Config:   config,
				PlanOnly: true,
				// Tainted: the video that failed is replaced.
				ExpectNonEmptyPlan: true,
			},
		},
	})
}

// TestAccVideoWaitTimesOut: a wait that outlasts the timeouts block is an error on wait_for
// that names the limit set (not the default) and the way to keep the video: terraform untaint,
// since it is in the state; an import would be refused, the video being managed already.
func TestAccVideoWaitTimesOut(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{EncodingDelay: time.Hour})
	env.RequireEmulator(t)
	config := videoConfig(env, "title", acctest.Hcl("Slow"), "source_url", acctest.Hcl("https://media.example.test/a.mp4"),
		"wait_for", acctest.Hcl("playable")) + ""
	config = strings.Replace(config, "wait_for = \"playable\"\n", "wait_for = \"playable\"\n  timeouts {\n    create = \"2s\"\n  }\n", 1)
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config, ExpectError: regexp.MustCompile(`(?s)Timed Out Waiting for Video.*did\s+not\s+become\s+playable\s+within\s+the\s+2s\s+that\s+timeouts.create\s+sets.*` +
				`recorded\s+in\s+the\s+state,\s+marked\s+tainted.*run\s+terraform\s+untaint\s+with\s+its\s+address(?:[^i]|i[^m]|im[^p])*\z`)},
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(testVideoAddr, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				PlanOnly:    false,
				ExpectError: regexp.MustCompile(`Timed Out Waiting for Video`),
			},
		},
	})
}

// goneAfterChunk is the emulator as a client sees it when the service goes away right after
// the n-th source chunk was stored and answered (it was killed, and is restarted later with its
// state): from then on, while down is set, every connection is closed before an answer.
func goneAfterChunk(n int64, down *atomic.Bool) func(*emulator.Emulator) http.Handler {
	return func(emu *emulator.Emulator) http.Handler {
		var chunks atomic.Int64
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if down.Load() {
				if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
					_ = conn.Close()
				}
				return
			}
			emu.ServeHTTP(w, r)
			if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/source") && chunks.Add(1) == n {
				down.Store(true)
			}
		})
	}
}

// videoCLI is a directory where the real terraform applies videohost_video.clip of title, with
// a new file of videoFileSize bytes as its source, in chunks of 5 MiB sent one at a time and
// retried once. It returns the directory and the file's SHA-256.
func videoCLI(t *testing.T, env *acctest.AccEnv, title string) (*acctest.CliWorkdir, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	t.Cleanup(cancel)
	cli := acctest.NewCLIWorkdir(ctx, t, "1.0.0")
	file, sum := acctest.WriteRandomFile(t, cli.Dir, "clip.mp4", videoFileSize)
	cli.WriteConfig(env, "upload_chunk_size_mib = 5\nmax_retries = 1\nupload_chunks_in_flight = 1",
		"resource \"videohost_video\" \"clip\" {\n"+acctest.HclAttrs("title", acctest.Hcl(title), "source_file", acctest.Hcl(file))+"}\n")
	return cli, sum
}

// TestAccVideoCreateUnconfirmedAfterLastChunk: the service goes away right after the last chunk
// of a new video's source arrived, so the status that would confirm the upload and the read of
// the video both fail. The apply records the video with warnings and no error, so it is not
// marked for replacement, and claims no count of missing bytes that the service did not give
// (neither "0 bytes are missing… the next apply resumes" nor all of them). Once the service is
// back, the plan reads the status and has nothing to do: the video is neither resumed nor
// replaced, and no byte is sent again.
func TestAccVideoCreateUnconfirmedAfterLastChunk(t *testing.T) {
	var down atomic.Bool
	env := newWrappedAccEnv(t, goneAfterChunk(3, &down))
	cli, sum := videoCLI(t, env, "Unconfirmed")

	out := cli.Run("apply", "-auto-approve", "-no-color")
	if !down.Load() {
		t.Fatalf("the service never went away: the third chunk did not arrive:\n%s", out)
	}
	if !strings.Contains(out, "Warning: Video Upload Not Confirmed") {
		t.Errorf("the apply does not warn that the upload could not be confirmed:\n%s", out)
	}
	for _, claim := range []string{"0 bytes", "of its 12582912 bytes"} {
		if strings.Contains(out, claim) {
			t.Errorf("the apply claims %q although it never read what the service holds:\n%s", claim, out)
		}
	}
	id, missing := videoStateOf(t, cli)
	if missing != nil {
		t.Errorf("source_bytes_missing = %d in the state, want null: the service's status was never read", *missing)
	}
	if tainted := strings.Contains(cli.Run("show", "-no-color"), "tainted"); tainted {
		t.Errorf("the video is marked for replacement after a read failed")
	}

	down.Store(false)
	before := env.Emu.UploadedBytes(id)
	cli.Run("plan", "-detailed-exitcode", "-no-color") // fails the test unless nothing is to change
	out = cli.Run("apply", "-auto-approve", "-no-color")
	if !strings.Contains(out, "0 added, 0 changed, 0 destroyed") {
		t.Errorf("the apply after the service came back changed something:\n%s", out)
	}
	if got, missing := videoStateOf(t, cli); got != id || missing == nil || *missing != 0 {
		t.Errorf("the state holds video %s with %v bytes missing, want %s with 0", got, missing, id)
	}
	if sent := env.Emu.UploadedBytes(id) - before; sent != 0 {
		t.Errorf("%d bytes were uploaded again for a source the service held whole", sent)
	}
	if _, got, complete, _ := env.Emu.VideoSource(id); !complete || got != sum {
		t.Errorf("the service holds SHA-256 %s (complete %t), want the file's %s", got, complete, sum)
	}
}

// videoStateOf reads videohost_video.clip's id and source_bytes_missing (nil when null) from
// the state of cli's directory.
func videoStateOf(t *testing.T, cli *acctest.CliWorkdir) (string, *int64) {
	t.Helper()
	var st struct {
		Values struct {
			Root struct {
				Resources []struct {
					Address string `json:"address"`
					Values  struct {
						ID                 string `json:"id"`
						SourceBytesMissing *int64 `json:"source_bytes_missing"`
					} `json:"values"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal([]byte(cli.Run("show", "-json")), &st); err != nil {
		t.Fatalf("reading terraform show -json: %v", err)
	}
	for _, r := range st.Values.Root.Resources {
		if r.Address == testVideoAddr {
			return r.Values.ID, r.Values.SourceBytesMissing
		}
	}
	t.Fatalf("no %s in the state", testVideoAddr)
	return "", nil
}

// TestAccVideoCompletedOutsideRefreshes: an upload left incomplete is completed outside
// Terraform (another run, or a chunk that the service stored although it answered a failure)
// and the video becomes playable. The refresh takes what is missing from the service's status:
// the state never holds playable = true with bytes missing, and the plan resumes nothing.
func TestAccVideoCompletedOutsideRefreshes(t *testing.T) {
	env, armed := cutFromSecondChunk(t)
	file, sum := acctest.WriteRandomFile(t, t.TempDir(), "clip.mp4", videoFileSize)
	config := videoConfigWith(env, "max_retries = 1\nupload_chunks_in_flight = 1", "title", acctest.Hcl("Completed outside"), "source_file", acctest.Hcl(file))
	var id string
	var before int64
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			incompleteStep(env, config, &id),
			{
				PreConfig: func() {
					armed.Store(false)
					env.Emu.SetFaults(emulator.Faults{})
					completeOutside(t, env, id, file)
					before = env.Emu.UploadedBytes(id)
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testVideoAddr, plancheck.ResourceActionNoop),
						plancheck.ExpectKnownValue(testVideoAddr, tfjsonpath.New("source_bytes_missing"), knownvalue.Int64Exact(0)),
						plancheck.ExpectKnownValue(testVideoAddr, tfjsonpath.New("playable"), knownvalue.Bool(true)),
					},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					sourceOnService(env, &id, &sum),
					acctest.ServiceCheckFunc(func(context.Context) error {
						if sent := env.Emu.UploadedBytes(id) - before; sent != 0 {
							return fmt.Errorf("%d bytes were uploaded again for a source the service held whole", sent)
						}
						return nil
					}),
				},
			},
		},
	})
}

// completeOutside uploads the rest of file to video id with a client of its own, and waits
// until the service can play it.
func completeOutside(t *testing.T, env *acctest.AccEnv, id, file string) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	c := acctest.ServiceClient(t, env)
	src := videohost.UploadSource{Name: filepath.Base(file), Reader: f, Size: fi.Size()}
	if _, err := c.UploadVideoSource(t.Context(), id, src, videohost.UploadOptions{ChunkSize: 5 << 20}); err != nil {
		t.Fatalf("completing the upload outside Terraform: %v", err)
	}
	for range 600 {
		st, err := c.GetVideoStatus(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		if st.Encoding.Playable {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("video %s did not become playable", id)
}

// TestAccVideoResumeStatusUnreadable: the status read that starts the resumption of an
// incomplete upload fails (the service answers 503 to it past the retries). Nothing is sent,
// and the apply neither claims that the service holds none of the file ("The service has 0 of
// its … bytes") nor records every byte as missing: source_bytes_missing is unknown (null). Once
// the status can be read, the next apply resumes and sends only what the service lacks.
func TestAccVideoResumeStatusUnreadable(t *testing.T) {
	var cut, statusDown atomic.Bool
	cut.Store(true)
	env := newWrappedAccEnv(t, func(emu *emulator.Emulator) http.Handler {
		var chunks atomic.Int64
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch {
			case statusDown.Load() && r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/status"):
				w.Header().Set("Content-Type", "application/problem+json")
				w.WriteHeader(http.StatusServiceUnavailable)
				_, _ = w.Write([]byte(`{"title":"Service unavailable.","status":503}`))
				return
			case cut.Load() && r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/source") && chunks.Add(1) == 2:
				emu.SetFaults(emulator.Faults{UploadCuts: 100})
			}
			emu.ServeHTTP(w, r)
		})
	})
	cli, sum := videoCLI(t, env, "Status unreadable")
	cli.Run("apply", "-auto-approve", "-no-color")
	id, missing := videoStateOf(t, cli)
	if missing == nil || *missing != videoFileSize-5<<20 {
		t.Fatalf("source_bytes_missing = %v after the cut upload, want %d", missing, videoFileSize-5<<20)
	}

	cut.Store(false)
	env.Emu.SetFaults(emulator.Faults{})
	statusDown.Store(true)
	before := env.Emu.UploadedBytes(id)
	out := cli.Run("apply", "-auto-approve", "-no-color", "-refresh=false")
	if !strings.Contains(out, "Warning: Video Upload Not Confirmed") {
		t.Errorf("the apply does not warn that what the service holds is not known:\n%s", out)
	}
	if strings.Contains(out, "The service has 0 of its") {
		t.Errorf("the apply claims that the service holds nothing, which it never said:\n%s", out)
	}
	if _, missing := videoStateOf(t, cli); missing != nil {
		t.Errorf("source_bytes_missing = %d after a status read that failed, want null (unknown)", *missing)
	}
	if sent := env.Emu.UploadedBytes(id) - before; sent != 0 {
		t.Errorf("%d bytes were sent without knowing what the service holds", sent)
	}

	statusDown.Store(false)
	out = cli.Run("apply", "-auto-approve", "-no-color")
	requireCompletedResume(t, out)
	if got, missing := videoStateOf(t, cli); got != id || missing == nil || *missing != 0 {
		t.Errorf("the state holds video %s with %v bytes missing, want %s with 0", got, missing, id)
	}
	if sent := env.Emu.UploadedBytes(id) - before; sent != videoFileSize-5<<20 {
		t.Errorf("the resumed upload sent %d bytes, want the %d missing", sent, videoFileSize-5<<20)
	}
	if _, got, complete, _ := env.Emu.VideoSource(id); !complete || got != sum {
		t.Errorf("the service holds SHA-256 %s (complete %t), want the file's %s", got, complete, sum)
	}
}

// TestWaitLimitTimedOut: the message of a wait that outlasted its limit names the limit as the
// configuration gave it, or says it is the default, and what becomes of the video for a create
// and an update.
func TestWaitLimitTimedOut(t *testing.T) {
	for _, c := range []struct {
		w    video.WaitLimit
		want []string
	}{
		{video.WaitLimit{Op: "create", Limit: time.Second, Set: true}, []string{"within the 1s that timeouts.create sets", "terraform untaint"}},
		{video.WaitLimit{Op: "create", Limit: time.Hour}, []string{"within the default 1h0m0s of timeouts.create", "next apply replaces it"}},
		{video.WaitLimit{Op: "update", Limit: time.Minute, Set: true}, []string{"within the 1m0s that timeouts.update sets", "Its changes are made"}},
	} {
		got := c.w.TimedOut("vi1", "encoded")
		acctest.RequireContains(t, got, c.want...)
		if strings.Contains(got, "import") {
			t.Errorf("%+v: %q speaks of an import", c.w, got)
		}
	}
}

// TestAccVideoCreateCompleteVideoUnreadable: the last chunk of a new video's source is stored
// but its answer is lost (a 500); its retry is refused as already uploaded and the status
// confirms the source complete, but the video itself cannot be read from then on. The source
// is whole, so the apply succeeds with warnings and the video is not marked for replacement;
// once the video can be read again, the plan has nothing to do.
func TestAccVideoCreateCompleteVideoUnreadable(t *testing.T) {
	var videoDown atomic.Bool
	env := newWrappedAccEnv(t, func(emu *emulator.Emulator) http.Handler {
		var chunks atomic.Int64
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch {
			case videoDown.Load() && r.Method == http.MethodGet && strings.Count(r.URL.Path, "/") == 2 && strings.HasPrefix(r.URL.Path, "/videos/"):
				w.Header().Set("Content-Type", "application/problem+json")
				w.WriteHeader(http.StatusServiceUnavailable)
				_, _ = w.Write([]byte(`{"title":"Service unavailable.","status":503}`))
			case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/source") && chunks.Add(1) == 3:
				emu.ServeHTTP(httptest.NewRecorder(), r) // stored, and the answer lost
				videoDown.Store(true)
				w.Header().Set("Content-Type", "application/problem+json")
				w.WriteHeader(http.StatusInternalServerError)
				_, _ = w.Write([]byte(`{"title":"Internal error.","status":500}`))
			default:
				emu.ServeHTTP(w, r)
			}
		})
	})
	cli, sum := videoCLI(t, env, "Complete, unreadable")
	out := cli.Run("apply", "-auto-approve", "-no-color")
	if !videoDown.Load() {
		t.Fatalf("the third chunk never arrived:\n%s", out)
	}
	if strings.Contains(cli.Run("show", "-no-color"), "tainted") {
		t.Errorf("a video whose source the service holds whole is marked for replacement:\n%s", out)
	}
	id, missing := videoStateOf(t, cli)
	if missing == nil || *missing != 0 {
		t.Errorf("source_bytes_missing = %v, want 0: the status confirmed the source complete", missing)
	}
	videoDown.Store(false)
	cli.Run("plan", "-detailed-exitcode", "-no-color") // fails the test unless nothing is to change
	if _, got, complete, _ := env.Emu.VideoSource(id); !complete || got != sum {
		t.Errorf("the service holds SHA-256 %s (complete %t), want the file's %s", got, complete, sum)
	}
}

// TestSentHashErrorNamesItsCause: bytes sent that do not hash as planned, from a file whose
// identity did not change since it was opened, say that the planned hash was wrong (a record
// that lied), not that the file changed; from a file that did change, that it changed.
func TestSentHashErrorNamesItsCause(t *testing.T) {
	name := filepath.Join(t.TempDir(), "clip.mp4")
	acctest.WriteFile(t, name, "the bytes sent")
	state := video.VideoResourceModel{ID: types.StringValue("vi1"), SourceFile: types.StringValue(name),
		SourceSHA256: types.StringValue(acctest.Sha256Hex("what a forged record said"))}
	opened, err := video.OpenPlannedSource(t.Context(), name, acctest.Sha256Hex("the bytes sent"), localfile.Record{})
	if err != nil {
		t.Fatal(err)
	}
	defer opened.File.Close()
	sent := localfile.Record{SHA256: acctest.Sha256Hex("the bytes sent")}
	var diags diag.Diagnostics
	video.AddSentHashError(&state, opened, sent, &diags)
	if len(diags) != 1 || diags[0].Summary() != "Planned Source SHA-256 Was Wrong" ||
		!strings.Contains(diags[0].Detail(), localfile.CacheDirEnv) {
		t.Errorf("an unchanged file: %v", diags)
	}

	acctest.WriteFile(t, name, "the bytes sent, and more")
	diags = nil
	video.AddSentHashError(&state, opened, sent, &diags)
	if len(diags) != 1 || diags[0].Summary() != "Source File Changed During Upload" {
		t.Errorf("a changed file: %v", diags)
	}
}

// TestTruncatedUploadSaysOneThing: a file cut short during its upload is reported by its cause
// alone, without the incomplete upload's advice to send the same file again.
func TestTruncatedUploadSaysOneThing(t *testing.T) {
	cause := fmt.Errorf("%w: it ends at byte 10, before the 20 bytes it was measured to hold", videohost.ErrSourceChanged)
	err := &videohost.UploadIncompleteError{VideoID: "vi1", Sent: 5, Total: 20, Err: cause}
	if !strings.Contains(err.Error(), "sending the same file again resumes") {
		t.Skip("the client's words changed; nothing left to keep out")
	}
	if got := video.UploadCause(err).Error(); strings.Contains(got, "resumes") || !strings.Contains(got, "ends at byte 10") {
		t.Errorf("the cause quoted is %q", got)
	}
}
