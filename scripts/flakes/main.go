// Command flakes finds flaky tests before they land: it runs the chosen packages and tests N
// times on a quiet machine, then N times beside a CPU load that it starts (busy loops, as on a
// shared machine or a busy CI runner) and always stops, also on Ctrl-C, optionally once per CLI
// (TF_ACC_TERRAFORM_PATH), and prints a table of each test's failures over its runs under each
// condition, then the output of each failing test's first failure. It exits 1 when a test failed
// in any run, 130 when interrupted.
//
// Each run is its own `go test -json -count=1` process, as CI runs the tests: a panic or a
// timeout costs that run alone, and no state a test binary keeps between runs (a build done
// once, a sync.Once) hides what a fresh process meets.
//
//	go run ./scripts/flakes -pkgs ./internal/provider/video -run '^TestAccVideoX$' -count 10 -load 3
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// condition is one column of the table: a load (0 busy loops: quiet) and a CLI ("" for the
// environment's).
type condition struct {
	name string
	load int
	cli  string
	host string
}

type options struct {
	pkgs, run, extra []string
	count, load      int
	timeout          time.Duration
	clis             []string
	all              bool
	keep             string
	lines            int
}

func main() {
	if s, ok := os.LookupEnv(envBurn); ok {
		burn(s)
		return
	}
	os.Exit(flakes())
}

func flakes() int {
	var o options
	var pkgs, runPattern, extra, clis string
	flag.StringVar(&pkgs, "pkgs", "./...", "the packages, separated by spaces")
	flag.StringVar(&runPattern, "run", "", "go test -run: the tests (all when empty)")
	flag.IntVar(&o.count, "count", 10, "the runs under each condition")
	flag.IntVar(&o.load, "load", 3, "the busy loops of the loaded runs; 0 runs quiet only")
	flag.DurationVar(&o.timeout, "timeout", 20*time.Minute, "go test -timeout: the time allowed each run")
	flag.StringVar(&extra, "flags", "", "more go test flags, separated by spaces (-race, -parallel 2, ...)")
	flag.StringVar(&clis, "clis", "", "terraform or tofu binaries, separated by spaces: each condition once per CLI (TF_ACC_TERRAFORM_PATH); the environment's when empty")
	flag.BoolVar(&o.all, "all", false, "list every test in the table, not only those that failed")
	flag.StringVar(&o.keep, "keep", "", "a directory that keeps each run's go test -json output")
	flag.IntVar(&o.lines, "lines", 60, "the lines of each first failure's output shown")
	flag.Parse()
	o.pkgs, o.extra, o.clis = strings.Fields(pkgs), strings.Fields(extra), strings.Fields(clis)
	if runPattern != "" {
		o.run = []string{"-run", runPattern}
	}
	if o.count < 1 || o.load < 0 || len(o.pkgs) == 0 || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "flakes: want -count >= 1, -load >= 0, at least one package in -pkgs, and no arguments")
		flag.Usage()
		return 2
	}
	if o.keep != "" {
		if err := os.MkdirAll(o.keep, 0o755); err != nil {
			fmt.Fprintf(os.Stderr, "flakes: %v\n", err)
			return 2
		}
	}
	conds, err := conditions(o)
	if err != nil {
		fmt.Fprintf(os.Stderr, "flakes: %v\n", err)
		return 2
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	t := newTally()
	start := time.Now()
	interrupted := false
	for _, c := range conds {
		if err := runCondition(ctx, o, c, t); err != nil {
			if ctx.Err() != nil {
				interrupted = true
				fmt.Fprintln(os.Stderr, "flakes: interrupted; the table counts the runs that ended")
				break
			}
			fmt.Fprintf(os.Stderr, "flakes: %v\n", err)
			return 2
		}
	}

	fmt.Printf("\nfailures/runs of each test (%s, %s per condition), in %s:\n", strings.Join(o.pkgs, " "),
		plural(o.count, "run"), time.Since(start).Round(time.Second))
	t.writeTable(os.Stdout, o.all)
	t.writeFirstFailures(os.Stdout, o.lines)
	switch {
	case interrupted:
		return 130
	case t.failures() > 0:
		return 1
	}
	return 0
}

// conditions are the table's columns: quiet, then loaded when o.load > 0, for each CLI.
func conditions(o options) ([]condition, error) {
	clis := o.clis
	if len(clis) == 0 {
		clis = []string{""}
	}
	var conds []condition
	for _, cli := range clis {
		label, host := "", ""
		if cli != "" {
			bin, err := exec.LookPath(cli)
			if err != nil {
				return nil, fmt.Errorf("CLI %s: %w", cli, err)
			}
			if bin, err = filepath.Abs(bin); err != nil {
				return nil, err
			}
			out, err := exec.Command(bin, "version").Output()
			if err != nil {
				return nil, fmt.Errorf("%s version: %w (is it a terraform or tofu binary?)", bin, err)
			}
			// "Terraform v1.15.9" or "OpenTofu v1.11.14": the name and the version.
			first, _, _ := strings.Cut(string(out), "\n")
			label = " " + strings.Replace(strings.TrimSpace(first), " v", " ", 1)
			if strings.HasPrefix(first, "OpenTofu") {
				host = "registry.opentofu.org"
			}
			cli = bin
		}
		conds = append(conds, condition{name: "quiet" + label, cli: cli, host: host})
		if o.load > 0 {
			conds = append(conds, condition{name: "loaded" + label, load: o.load, cli: cli, host: host})
		}
	}
	return conds, nil
}

// runCondition runs the tests o.count times under c, the load started before the first run
// and stopped after the last (or at an interruption), and adds each run to t.
func runCondition(ctx context.Context, o options, c condition, t *tally) error {
	var load *cpuLoad
	if c.load > 0 {
		var err error
		// The loops stop themselves after the longest the runs may take, should this command
		// be killed before it stops them.
		if load, err = startLoad(c.load, time.Duration(o.count)*(o.timeout+time.Minute)); err != nil {
			return err
		}
		defer load.stop()
		fmt.Fprintf(os.Stderr, "flakes: %s: %s started beside the tests\n", c.name, plural(c.load, "busy loop"))
	}
	for i := 1; i <= o.count; i++ {
		began := time.Now()
		r, err := goTest(ctx, o, c, i)
		if err != nil {
			return err
		}
		t.add(c.name, i, r)
		fmt.Fprintf(os.Stderr, "flakes: %s run %d/%d: %s in %s\n", c.name, i, o.count, summary(r), time.Since(began).Round(time.Second))
	}
	return nil
}

// goTest runs go test once under c (the n-th run) and parses what it said. A run whose tests
// failed is no error; one that could not start, or was interrupted, is.
func goTest(ctx context.Context, o options, c condition, n int) (run, error) {
	args := append([]string{"test", "-json", "-count=1", "-timeout", o.timeout.String()}, o.run...)
	args = append(append(args, o.extra...), o.pkgs...)
	cmd := exec.CommandContext(ctx, "go", args...)
	// Ctrl-C reaches go test and the test binaries from the terminal as well; an interruption
	// from elsewhere (SIGTERM to this command) asks go test to stop the same way.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 30 * time.Second
	cmd.Env = os.Environ()
	if c.cli != "" {
		cmd.Env = append(cmd.Env, "TF_ACC_TERRAFORM_PATH="+c.cli, "TF_ACC_PROVIDER_HOST="+c.host, "CHECKPOINT_DISABLE=1")
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, os.Stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		return run{}, ctx.Err()
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return run{}, fmt.Errorf("go test: %w", err)
	}
	if o.keep != "" {
		name := filepath.Join(o.keep, fmt.Sprintf("%s-%02d.json", strings.ReplaceAll(c.name, " ", "-"), n))
		if werr := os.WriteFile(name, out.Bytes(), 0o644); werr != nil {
			return run{}, werr
		}
	}
	r, perr := parseRun(&out)
	if perr != nil {
		return run{}, perr
	}
	if err != nil && len(r.outcomes) == 0 {
		// go test failed before any test ran (a build error, printed above): every run would.
		return run{}, fmt.Errorf("go test %s failed before any test ran", strings.Join(args[1:], " "))
	}
	return r, nil
}

// summary is one run's line: how many tests passed, failed and skipped, and which failed.
func summary(r run) string {
	var p, f, s int
	var names []string
	for _, id := range sortedIDs(r.outcomes) {
		switch r.outcomes[id] {
		case passed:
			p++
		case failed:
			f++
			names = append(names, displayName(id))
		case skipped:
			s++
		}
	}
	line := fmt.Sprintf("%d passed, %d failed, %d skipped", p, f, s)
	if f > 0 {
		line += " (" + strings.Join(names, ", ") + ")"
	}
	return line
}

// sortedIDs are the tests of m by package, then by name.
func sortedIDs(m map[testID]outcome) []testID {
	ids := make([]testID, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sortIDs(ids)
	return ids
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
