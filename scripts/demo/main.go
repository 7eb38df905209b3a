// Command demo is `make demo`: the provider against the local emulator of the service.
//
// It builds the provider, the emulator and a small webhook receiver; starts the emulator (its
// encoding sped up) and the receiver on free loopback ports; applies examples/demo/main.tf (three
// webhooks pointing at the receiver, a player theme, a live stream, data sources over the seeded
// videos and the webhooks) from a temporary copy with a dev_overrides CLI configuration; hands the
// webhooks' secrets to the receiver; adds examples/demo/videos.tf and applies again (a generated
// file uploaded in two chunks as a video with a generated watermark, waited for until playable,
// captions from a generated WebVTT file, a short-lived upload token) and shows the encoding
// events the receiver verified, one per quality; shows that a further plan is empty; uploads a
// second video with the upload token alone; triggers events through the emulator's control API
// and shows every delivery with its signature checked; finds a webhook created outside Terraform
// with terraform query (Terraform 1.14 and later) and imports it; destroys; and stops everything
// it started, on success, on failure and on Ctrl-C or TERM. No secret (stream keys, the upload
// token) appears in anything it prints or logs, which it checks.
//
// Nothing outside its temporary directory is written: not ~/.terraformrc, not the repository.
// Its media (random bytes, WebVTT, a PNG) are generated there too. It runs from the root of the
// repository, with the Terraform or OpenTofu CLI named by TERRAFORM (default terraform on PATH).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

func main() {
	dir := flag.String("dir", "", "the temporary directory to work in and remove at the end (default: a new one); "+
		"`make demo` passes the one it built this program into")
	flag.Parse()

	// A signal cancels the run with itself as the cause: the step in progress stops (terraform
	// gets an interrupt and stops as it would on Ctrl-C), and the exit code says which signal.
	ctx, cancel := context.WithCancelCause(context.Background())
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	go func() { cancel(interrupted{<-signals}) }()

	d := &demo{started: time.Now(), tmp: *dir}
	err := d.run(ctx)
	os.Exit(d.finish(ctx, err))
}

// interrupted is the cause of a run cancelled by a signal.
type interrupted struct{ signal os.Signal }

func (i interrupted) Error() string { return "interrupted by " + i.signal.String() }

// steps is how many steps run announces; CONTRIBUTING.md describes each.
const steps = 11

// demo is one run: where it works, what it started, and what the later steps need of the
// earlier ones.
type demo struct {
	started, stepStarted time.Time
	step                 int
	// out is the standard output and the transcript (demo.txt) that the check for secrets reads.
	out        io.Writer
	transcript *os.File

	root, tmp, bin, work, media string
	terraform                   string
	env                         []string
	procs                       []*process
	secrets                     []string

	apiKey, emulatorURL, receiverURL string
	streamID, launchID, partnerID    string
	// shown is how many lines of the receiver's output step 5 showed.
	shown int
}

// run runs the steps in order and returns the first failure.
func (d *demo) run(ctx context.Context) error {
	if err := d.prepare(); err != nil {
		return err
	}
	for _, s := range []struct {
		title string
		do    func(context.Context) error
	}{
		{"Build the provider, the emulator and the webhook receiver", d.build},
		{"Start the emulator and the webhook receiver on free loopback ports", d.startServices},
		{"Apply examples/demo/main.tf from a temporary copy, with a dev_overrides CLI configuration", d.applyMain},
		{"Show the outputs, and hand the signature secrets to the receiver", d.handOverSecrets},
		{"Upload a video with Terraform: a generated file in two chunks, a watermark, captions, an upload token", d.uploadWithTerraform},
		{"Plan again: nothing to change", d.planAgain},
		{"Upload a second video with the upload token alone, as a partner would", d.uploadWithTokenOnly},
		{"Trigger events through the emulator's control API", d.triggerEvents},
		{"Show what the receiver got, each signature checked", d.showDeliveries},
		{"Import a webhook created outside Terraform", d.importWebhook},
		{"Destroy", d.destroy},
	} {
		d.beginStep(s.title)
		if err := s.do(ctx); err != nil {
			return err
		}
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
	}
	d.say("    (step %d took %s)", d.step, seconds(time.Since(d.stepStarted)))
	return nil
}

// prepare finds the repository's root and the CLI, and makes the temporary directory with the
// transcript in it.
func (d *demo) prepare() error {
	d.out = os.Stdout
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(root, "examples", "demo", "main.tf")); err != nil {
		return errors.New("run the demo from the root of the repository (make demo)")
	}
	d.root = root
	if d.tmp == "" {
		if d.tmp, err = os.MkdirTemp("", "videohost-demo."); err != nil {
			return err
		}
	}
	d.bin, d.work, d.media = filepath.Join(d.tmp, "bin"), filepath.Join(d.tmp, "work"), filepath.Join(d.tmp, "media")
	for _, dir := range []string{d.bin, d.work, d.media, filepath.Join(d.tmp, "keys")} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
	}
	if d.transcript, err = os.Create(filepath.Join(d.tmp, "demo.txt")); err != nil {
		return err
	}
	d.out = io.MultiWriter(os.Stdout, d.transcript)
	return nil
}

// beginStep announces a step, after the time the previous one took.
func (d *demo) beginStep(title string) {
	if d.step > 0 {
		d.say("    (step %d took %s)", d.step, seconds(time.Since(d.stepStarted)))
	}
	d.step++
	d.stepStarted = time.Now()
	d.say("")
	d.say("==> Step %d/%d: %s", d.step, steps, title)
}

// say prints a line of the story.
func (d *demo) say(format string, args ...any) {
	fmt.Fprintf(d.out, format+"\n", args...)
}

// finish stops everything the run started and removes its temporary directory, whatever
// happened; on a failure it says in which step, with the last lines of the services' output.
// It returns the exit code: 130 or 143 after a signal, as a shell reports one.
func (d *demo) finish(ctx context.Context, err error) int {
	code := 0
	var sig interrupted
	switch {
	case errors.As(context.Cause(ctx), &sig):
		code = 130
		if sig.signal == syscall.SIGTERM {
			code = 143
		}
		fmt.Fprintf(os.Stderr, "\ndemo: interrupted in step %d/%d; stopping what it started\n", d.step, steps)
	case err != nil:
		code = 1
		fmt.Fprintf(os.Stderr, "demo: %s\n\ndemo: FAILED in step %d/%d\n", d.redact(err.Error()), d.step, steps)
		for _, name := range []string{"emulator.err", "receiver.out", "receiver.err"} {
			if tail := lastLines(filepath.Join(d.tmp, name), 20); tail != "" {
				fmt.Fprintf(os.Stderr, "---- last lines of %s ----\n%s", name, d.redact(tail))
			}
		}
	}
	d.stopAll()
	if d.transcript != nil {
		d.transcript.Close()
	}
	if d.tmp != "" {
		if rmErr := os.RemoveAll(d.tmp); rmErr != nil {
			fmt.Fprintf(os.Stderr, "demo: removing %s: %v\n", d.tmp, rmErr)
		}
	}
	if code == 0 {
		fmt.Printf("\n==> Demo finished in %s; everything it started is stopped.\n", seconds(time.Since(d.started)))
	}
	return code
}

// lastLines returns the last n lines of a file, or "" when it is empty or absent.
func lastLines(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil || len(b) == 0 {
		return ""
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "") + "\n"
}

// seconds prints a duration in whole seconds, as the steps' timings do.
func seconds(d time.Duration) string {
	return fmt.Sprintf("%d s", int(d.Round(time.Second).Seconds()))
}
