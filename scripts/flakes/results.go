package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// event is one line of `go test -json` (test2json's TestEvent): the fields the tally reads.
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
	// ImportPath names the package of a build-output event ("p" or "p [p.test]").
	ImportPath string
}

// testID names one test (or subtest) of a package; Test is "" for the package itself, which
// fails alone when it does not build, its TestMain fails or its binary dies outside a test.
type testID struct {
	Package, Test string
}

// outcome is what one run said of one test.
type outcome int

const (
	passed outcome = iota + 1
	failed
	skipped
)

// maxKeptLines bounds the output kept of one failing test in one run.
const maxKeptLines = 200

// run is what one `go test -json` run said of each test it started, and the output of those
// that failed.
type run struct {
	outcomes map[testID]outcome
	output   map[testID][]string
}

// parseRun reads the events of one `go test -json` run. A test that started and never ended
// (its binary panicked or timed out in it, or was killed) failed. A package that failed with no
// failing test of its own (a build failure, a failing TestMain) is recorded as failed under its
// own name. Lines that are not JSON (go test's own messages, such as a build error, go to
// stderr; anything else on stdout) are attached to their package's record.
func parseRun(r io.Reader) (run, error) {
	res := run{outcomes: map[testID]outcome{}, output: map[testID][]string{}}
	lines := map[testID][]string{}
	started := map[testID]bool{}
	pkgFailed := map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		line := sc.Bytes()
		var ev event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &ev) != nil {
			continue
		}
		if ev.Action == "build-output" {
			// A build error: it belongs to the package's own record.
			pkg, _, _ := strings.Cut(ev.ImportPath, " ")
			ev.Action, ev.Package = "output", pkg
		}
		id := testID{ev.Package, ev.Test}
		if ev.Test == "" && ev.Action != "fail" && ev.Action != "output" {
			// A package's start, pass or skip says nothing of its tests.
			continue
		}
		switch ev.Action {
		case "run":
			started[id] = true
		case "output":
			if len(lines[id]) < maxKeptLines {
				lines[id] = append(lines[id], strings.TrimRight(ev.Output, "\n"))
			}
		case "pass":
			res.outcomes[id] = passed
		case "skip":
			res.outcomes[id] = skipped
		case "fail":
			if ev.Test == "" {
				pkgFailed[ev.Package] = true
				continue
			}
			res.outcomes[id] = failed
		}
	}
	if err := sc.Err(); err != nil {
		return res, err
	}
	for id := range started {
		if _, ended := res.outcomes[id]; !ended {
			res.outcomes[id] = failed
		}
	}
	for pkg := range pkgFailed {
		if !res.anyFailed(pkg) {
			res.outcomes[testID{Package: pkg}] = failed
		}
	}
	for id, o := range res.outcomes {
		if o == failed {
			res.output[id] = lines[id]
		}
	}
	return res, nil
}

// anyFailed reports whether a test of pkg failed in the run.
func (r run) anyFailed(pkg string) bool {
	for id, o := range r.outcomes {
		if id.Package == pkg && id.Test != "" && o == failed {
			return true
		}
	}
	return false
}

// count is one test's tally under one condition.
type count struct {
	runs, failures, skips int
}

// tally adds up the runs of every condition (quiet, loaded, each with a CLI), in the order the
// conditions were first met, and keeps the output of each test's first failure.
type tally struct {
	conditions []string
	counts     map[testID]map[string]*count
	first      map[testID]failure
}

// failure is the output of a test's first failing run, and where it failed.
type failure struct {
	condition string
	run       int
	lines     []string
}

func newTally() *tally {
	return &tally{counts: map[testID]map[string]*count{}, first: map[testID]failure{}}
}

// add counts one run (the n-th of its condition) under condition.
func (t *tally) add(condition string, n int, r run) {
	if !slices.Contains(t.conditions, condition) {
		t.conditions = append(t.conditions, condition)
	}
	for id, o := range r.outcomes {
		if t.counts[id] == nil {
			t.counts[id] = map[string]*count{}
		}
		c := t.counts[id][condition]
		if c == nil {
			c = &count{}
			t.counts[id][condition] = c
		}
		c.runs++
		switch o {
		case failed:
			c.failures++
			if _, seen := t.first[id]; !seen {
				t.first[id] = failure{condition: condition, run: n, lines: r.output[id]}
			}
		case skipped:
			c.skips++
		}
	}
}

// failures is how many runs of every test failed, under every condition.
func (t *tally) failures() int {
	n := 0
	for _, by := range t.counts {
		for _, c := range by {
			n += c.failures
		}
	}
	return n
}

// ids are the tests counted, by package, then by name (a parent before its subtests).
func (t *tally) ids() []testID {
	ids := make([]testID, 0, len(t.counts))
	for id := range t.counts {
		ids = append(ids, id)
	}
	sortIDs(ids)
	return ids
}

// sortIDs sorts tests by package, then by name: a parent before its subtests.
func sortIDs(ids []testID) {
	slices.SortFunc(ids, func(a, b testID) int {
		return cmp.Or(cmp.Compare(a.Package, b.Package), cmp.Compare(a.Test, b.Test))
	})
}

// cell is one test's figure under one condition: failures/runs, "skip" when every run skipped
// it, "-" when no run of the condition met it.
func (c *count) cell() string {
	switch {
	case c == nil || c.runs == 0:
		return "-"
	case c.skips == c.runs:
		return "skip"
	}
	return fmt.Sprintf("%d/%d", c.failures, c.runs-c.skips)
}

// writeTable prints the table: one row per test (under a line naming its package), one column
// per condition, failures/runs in each cell, and FLAKY or FAILS at the end of a row that failed
// in some runs or in all of them. With all set, every test gets a row; otherwise only those
// that failed, and a line says how many passed every run.
func (t *tally) writeTable(w io.Writer, all bool) {
	ids := t.ids()
	width := len("test")
	for _, id := range ids {
		width = max(width, len(displayName(id))+2)
	}
	header := fmt.Sprintf("%-*s", width, "test")
	for _, c := range t.conditions {
		header += fmt.Sprintf("  %*s", max(len(c), 7), c)
	}
	fmt.Fprintln(w, header)
	pkg, steady := "", 0
	for _, id := range ids {
		failures, runs := 0, 0
		for _, c := range t.counts[id] {
			failures += c.failures
			runs += c.runs - c.skips
		}
		if failures == 0 && !all {
			steady++
			continue
		}
		if id.Package != pkg {
			pkg = id.Package
			fmt.Fprintln(w, pkg)
		}
		row := fmt.Sprintf("  %-*s", width-2, displayName(id))
		for _, c := range t.conditions {
			row += fmt.Sprintf("  %*s", max(len(c), 7), t.counts[id][c].cell())
		}
		switch {
		case failures > 0 && failures == runs:
			row += "  FAILS"
		case failures > 0:
			row += "  FLAKY"
		}
		fmt.Fprintln(w, strings.TrimRight(row, " "))
	}
	if !all {
		fmt.Fprintf(w, "%d tests passed (or skipped) every run; -all lists them too\n", steady)
	}
}

// writeFirstFailures prints, for each test that failed, the output of its first failing run,
// at most lines lines of it.
func (t *tally) writeFirstFailures(w io.Writer, lines int) {
	for _, id := range t.ids() {
		f, ok := t.first[id]
		if !ok {
			continue
		}
		fmt.Fprintf(w, "\n--- %s %s: first failure (%s, run %d):\n", id.Package, displayName(id), f.condition, f.run)
		shown := f.lines
		if len(shown) > lines {
			shown = shown[len(shown)-lines:]
			fmt.Fprintf(w, "    (the last %d lines of %d kept)\n", lines, len(f.lines))
		}
		for _, l := range shown {
			fmt.Fprintf(w, "    %s\n", l)
		}
	}
}

// displayName is a test's name in the table: the package's own record is "(package)".
func displayName(id testID) string {
	if id.Test == "" {
		return "(package)"
	}
	return id.Test
}
