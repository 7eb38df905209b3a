package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// TestAccVideoUploadInterrupted presses Ctrl-C on a real terraform apply while the second of
// three chunks of a video's source is in flight: that chunk finishes, the third is never sent,
// the apply records the video with the bytes still missing and a warning (no error for the
// video), and the next apply sends only those bytes and completes it.
func TestAccVideoUploadInterrupted(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance tests run only with TF_ACC=1")
	}
	parallel(t)
	tfBin := terraformCLI(t)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	cliConfig := devOverrideCLI(ctx, t)

	// The second chunk is held for a while, so that Ctrl-C lands while it is in flight.
	arrived := make(chan struct{}, 1)
	var hold atomic.Bool
	hold.Store(true)
	emu, baseURL := serveEmulator(t, emulator.Options{}, onSourceChunk(2, &hold, func(*emulator.Emulator) {
		arrived <- struct{}{}
		time.Sleep(interruptHold)
	}))
	work := t.TempDir()
	file, sum := writeRandomFile(t, work, "clip.mp4", videoFileSize)
	writeFile(t, filepath.Join(work, "main.tf"), fmt.Sprintf(`terraform {
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
`, hcl(baseURL), hcl(emu.APIKeys()[0]), hcl(file)))

	run := func(args ...string) (*exec.Cmd, *bytes.Buffer, chan error) {
		cmd := exec.Command(tfBin, args...)
		cmd.Dir = work
		cmd.Env = terraformEnv(cliConfig)
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
	if !strings.Contains(out.String(), "Video Upload Will Resume") {
		t.Errorf("the second apply does not say that it resumes the upload:\n%s", out)
	}
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
