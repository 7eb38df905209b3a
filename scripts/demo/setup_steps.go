package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// build is step 1: one go build for the provider, the emulator and the receiver, so that their
// packages compile in parallel; each binary is named after its directory (the module's for the
// provider).
func (d *demo) build(ctx context.Context) error {
	if _, err := exec.LookPath("go"); err != nil {
		return errors.New("'go' is not on PATH: install Go (the version in go.mod)")
	}
	var err error
	if d.terraform, err = findTerraform(ctx); err != nil {
		return err
	}
	d.say("    go build of the three (the first run downloads the modules and compiles every dependency, about")
	d.say("    a minute on two cores; later runs take seconds)")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", d.bin+string(filepath.Separator), ".", "./cmd/videohost-emulator", "./cmd/videohost-receiver")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("go build: %w", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	// A line every 15 s while it compiles, so that a first run does not look stuck.
	tick := time.NewTicker(15 * time.Second)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			if err != nil {
				return errors.New("go build failed (its errors are above)")
			}
			if _, err := os.Stat(filepath.Join(d.bin, "terraform-provider-videohost")); err != nil {
				return errors.New("the provider binary was not built as terraform-provider-videohost")
			}
			d.say("    built into %s", d.bin)
			return nil
		case <-tick.C:
			d.say("    still compiling (%s)", seconds(time.Since(d.stepStarted)))
		}
	}
}

// randomHex returns n random bytes in hex: a fresh key per run, so that none is ever written
// into the repository.
func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails; it crashes the program instead.
	return hex.EncodeToString(b)
}

// startServices is step 2: the emulator and the receiver, each on a free loopback port that it
// prints as its first line.
func (d *demo) startServices(ctx context.Context) error {
	d.apiKey = "demo_" + randomHex(12)
	// Ingest and encoding sped up (100 ms per ingest step, 50 ms per quality instead of 500 and
	// 250), so that the uploaded video is playable, then encoded, within a second or two.
	emulator, err := d.start("emulator", filepath.Join(d.bin, "videohost-emulator"), "-listen", "127.0.0.1:0",
		"-api-key", d.apiKey, "-seed-videos", "5", "-seed-live-streams", "2", "-delivery-retry-delay", "1s",
		"-ingest-delay", "100ms", "-encoding-delay", "50ms")
	if err != nil {
		return err
	}
	if d.emulatorURL, err = emulator.address(ctx, d.tmp); err != nil {
		return err
	}
	if !strings.HasPrefix(d.emulatorURL, "http://127.0.0.1:") {
		return fmt.Errorf("the emulator's first line is not its address: %s", d.emulatorURL)
	}
	if err := waitHTTP(ctx, d.emulatorURL+"/_emulator/"); err != nil {
		return err
	}
	d.say("    emulator: %s (control API at %s/_emulator/)", d.emulatorURL, d.emulatorURL)

	receiver, err := d.start("receiver", filepath.Join(d.bin, "videohost-receiver"), "-listen", "127.0.0.1:0",
		"-secrets", filepath.Join(d.tmp, "keys", "managed.json"), "-secrets", filepath.Join(d.tmp, "keys", "imported.json"))
	if err != nil {
		return err
	}
	if d.receiverURL, err = receiver.address(ctx, d.tmp); err != nil {
		return err
	}
	d.say("    receiver: %s (checks X-Service-Signature of every delivery)", d.receiverURL)
	return nil
}

// copyExample copies a file of examples/demo into the working copy.
func (d *demo) copyExample(name string) error {
	b, err := os.ReadFile(filepath.Join(d.root, "examples", "demo", name))
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(d.work, name), b, 0o600)
}

// applyMain is step 3: main.tf alone (videos.tf joins in step 5, once the receiver can check the
// encoding events' signatures), with the provider taken from the build by dev_overrides.
func (d *demo) applyMain(ctx context.Context) error {
	if err := d.copyExample("main.tf"); err != nil {
		return err
	}
	rc := filepath.Join(d.tmp, "dev.tfrc")
	if err := os.WriteFile(rc, fmt.Appendf(nil, devOverrides, d.bin), 0o600); err != nil {
		return err
	}
	// The restream's key, as a secret store would hand it over; never printed.
	restreamKey := "rk_" + randomHex(12)
	if err := d.addSecret(restreamKey); err != nil {
		return err
	}
	d.env = terraformEnv("TF_CLI_CONFIG_FILE="+rc, "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1",
		"VIDEOHOST_API_KEY="+d.apiKey, "VIDEOHOST_BASE_URL="+d.emulatorURL,
		"TF_VAR_receiver_url="+d.receiverURL, "TF_VAR_restream_key="+restreamKey)
	// With dev_overrides Terraform needs no `terraform init` for this provider, the only one used.
	return d.tfOK(ctx, "apply", "", "terraform apply", "apply", "-auto-approve")
}

// handOverSecrets is step 4: the outputs, and the webhooks' secrets written for the receiver
// through a file of the temporary directory, never printed.
func (d *demo) handOverSecrets(ctx context.Context) error {
	if err := d.showOutputs(ctx); err != nil {
		return err
	}
	var secrets map[string]string
	if err := d.outputJSON(ctx, "webhook_secrets", &secrets); err != nil {
		return err
	}
	if err := writeKeyRing(filepath.Join(d.tmp, "keys", "managed.json"), secrets); err != nil {
		return err
	}
	d.say("    wrote the receiver's key ring (%d webhook ids; secrets not shown)", len(secrets))
	var ingest struct {
		LiveStreamID string `json:"live_stream_id"`
	}
	if err := d.outputJSON(ctx, "ingest", &ingest); err != nil {
		return err
	}
	if d.streamID = ingest.LiveStreamID; d.streamID == "" {
		return errors.New("the ingest output has no live_stream_id")
	}
	d.say("    the studio's encoder broadcasts to rtmp://broadcast.api.video/s with the key of live stream %s", d.streamID)
	d.say("    (terraform output -raw ingest_key gives it to whoever sets up the encoder; the demo never prints it)")
	// The keys must not appear in anything the demo printed or logged.
	ingestKey, err := d.output(ctx, "ingest_key")
	if err != nil {
		return err
	}
	if ingestKey == "" {
		return errors.New("the live stream has no stream key")
	}
	if err := d.addSecret(ingestKey); err != nil {
		return err
	}
	if err := d.noSecretShown(ctx, "a stream key"); err != nil {
		return err
	}
	d.say("    neither stream key appears in terraform's output or in any log of the demo")
	return nil
}

// writeKeyRing writes a key ring of the receiver (webhook id to signature secret), readable by
// its owner alone.
func writeKeyRing(path string, secrets map[string]string) error {
	b, err := json.Marshal(secrets)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o600)
}
