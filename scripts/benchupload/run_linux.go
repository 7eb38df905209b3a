package main

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

const name = "bench-upload"

// run is the bench, or the provider wrapper when terraform started this program as the
// provider. It returns the exit status.
func run() int {
	if isProviderWrapper() {
		return wrapProvider()
	}
	cfg, err := loadConfig(os.LookupEnv)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		return 1
	}
	terraform, err := needs()
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		return 1
	}
	tmp, err := os.MkdirTemp("", "videohost-bench-upload.")
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		return 1
	}
	b := &bench{cfg: cfg, tmp: tmp, ps: newProcesses(tmp), terraform: terraform, http: &http.Client{Timeout: 10 * time.Second}}
	// Ctrl-C and TERM stop what the bench started and remove its files. The processes lead
	// groups of their own, so the terminal's SIGINT reaches none of them: the bench stops them.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		s := <-sig
		b.interrupted.Store(true)
		b.ps.stopAll()
		fmt.Fprintf(os.Stderr, "%s: interrupted; stopped what it started\n", name)
		_ = os.RemoveAll(tmp)
		if s == syscall.SIGINT {
			os.Exit(130)
		}
		os.Exit(143)
	}()
	code := b.guarded()
	b.ps.stopAll()
	_ = os.RemoveAll(tmp)
	return code
}

// needs checks the tools the bench runs, saying what to install, and returns the CLI to run:
// TERRAFORM (a Terraform or an OpenTofu binary, by name on PATH or by path), terraform by default.
func needs() (string, error) {
	if _, err := os.Stat("go.mod"); err != nil {
		return "", fmt.Errorf("run it from the repository's root: make bench-upload")
	}
	if _, err := exec.LookPath("go"); err != nil {
		return "", fmt.Errorf("'go' is not on PATH: install Go (the version in go.mod)")
	}
	if _, err := exec.LookPath("curl"); err != nil {
		return "", fmt.Errorf("'curl' is not on PATH: install curl; the bench posts the reference upload with it")
	}
	tf := os.Getenv("TERRAFORM")
	if tf == "" {
		tf = "terraform"
	}
	path, err := exec.LookPath(tf)
	if err != nil {
		return "", fmt.Errorf("TERRAFORM=%s is neither on PATH nor an executable: install Terraform >= 1.11 or OpenTofu >= 1.11, or set TERRAFORM to its path", tf)
	}
	if err := exec.Command(path, "version").Run(); err != nil {
		return "", fmt.Errorf("'%s version' failed: TERRAFORM must name a terraform or tofu binary", tf)
	}
	return path, nil
}

// guarded runs the scenarios; a failure stops them, and is reported with the last lines of the
// output of what the bench ran.
func (b *bench) guarded() (code int) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		f, ok := r.(failure)
		if !ok {
			panic(r)
		}
		if b.interrupted.Load() {
			// The processes were stopped under the bench's feet: the handler of the signal
			// says so and exits.
			for {
				time.Sleep(time.Hour)
			}
		}
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, f.err)
		b.ps.stopAll()
		fmt.Fprintf(os.Stderr, "%s: FAILED (exit 1)\n", name)
		for _, pattern := range []string{"*.err", "*.log"} {
			files, _ := filepath.Glob(filepath.Join(b.tmp, pattern))
			for _, file := range files {
				if st, err := os.Stat(file); err == nil && st.Size() > 0 {
					fmt.Fprintf(os.Stderr, "---- last lines of %s ----\n%s\n", filepath.Base(file), b.tail(filepath.Base(file)))
				}
			}
		}
		code = 1
	}()
	return b.scenarios()
}

// scenarios runs the scenarios asked for, in order, and prints the table.
func (b *bench) scenarios() int {
	c := b.cfg
	b.setup()
	machine := b.machine()
	var rate float64
	rss := 0
	if c.want("throughput") || c.want("memory") {
		rate, rss = b.throughput()
	}
	if c.want("memory") {
		b.memory(rss)
	}
	if c.want("pacing") {
		b.pacing(rate)
	}
	if c.want("resume") {
		b.resume()
	}
	if c.want("faults") {
		b.faults()
	}
	if c.want("many") {
		b.many()
	}
	if c.want("wan") {
		b.wan()
	}
	b.say("")
	b.say("Machine: %s", machine)
	b.say("Loopback (the long path's rows: through Toxiproxy); peak RSS by the provider's ru_maxrss (GNU time's %%M); upload time from the first chunk's arrival at the emulator to its source complete (hashed)")
	b.say("")
	fmt.Print(b.tab.markdown())
	if len(b.tab.mustFailed) > 0 {
		b.say("")
		fmt.Fprintf(os.Stderr, "%s: a must failed: %s\n", name, strings.Join(b.tab.mustFailed, "; "))
		return 1
	}
	return 0
}
