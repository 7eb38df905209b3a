package acctest

// The summary of a run's ledger, as scripts/ledgerreport prints it at the end of a remote run,
// or after one was stopped: computed from the ledger's files alone, whatever the test binaries
// that wrote them became.

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
)

// SweepCommand is the command that deletes what the run of the ledger in dir left: those named
// with the prefix, and the kinds without a name by the ids the ledger holds.
func SweepCommand(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return fmt.Sprintf("make sweep SWEEP_FLAGS=\"-ledger %s\"", dir)
}

// WriteLedgerReport writes to w the summary of the ledger in dir, whose entries are given: by
// kind, how many objects the run created, deleted and left; each object it left, with its id,
// name and test; each create whose outcome no one saw (the binary died, or the service answered
// 5xx), which may have left an object; the tests that named objects without the prefix and
// their name; and, when the run left something, the command that sweeps it. It returns the
// tally and how many objects were misnamed.
func WriteLedgerReport(w io.Writer, dir string, entries []LedgerEntry) (LedgerTally, int) {
	t := TallyLedger(entries)
	kinds := map[string]bool{}
	for k := range t.Created {
		kinds[k] = true
	}
	for k := range t.Deleted {
		kinds[k] = true
	}
	left := map[string]int{}
	for _, e := range t.Left {
		left[e.Kind]++
		kinds[e.Kind] = true
	}
	names := make([]string, 0, len(kinds))
	for k := range kinds {
		names = append(names, k)
	}
	sort.Strings(names)
	fmt.Fprintf(w, "ledger of the run (what the tests created and deleted on the endpoint), from %s:\n", dir)
	if len(entries) == 0 {
		fmt.Fprintln(w, "  no test created or deleted an object")
	}
	for _, k := range names {
		fmt.Fprintf(w, "  %-14s %4d created, %4d deleted, %4d left\n", k, t.Created[k], t.Deleted[k], left[k])
	}
	for _, e := range t.Left {
		fmt.Fprintf(w, "  left: %s %s %q by %s\n", e.Kind, ShownID(Object{Kind: e.Kind, ID: e.ID}), e.Name, e.Test)
	}
	for _, e := range t.Unanswered {
		name := "no name"
		if e.Name != "" {
			name = fmt.Sprintf("named %q", e.Name)
		}
		fmt.Fprintf(w, "  perhaps left: %s (%s) by %s: its create was sent and no answer was seen (the test binary stopped, or the service answered 5xx), so its id is unknown\n",
			e.Kind, name, e.Test)
	}
	misnamed := writeMisnamed(w, entries)
	if len(t.Left)+len(t.Unanswered) > 0 {
		fmt.Fprintf(w, "  to delete what the run left (the named by the prefix %s, the others by the ledger's ids): %s\n", TestPrefix, SweepCommand(dir))
	}
	return t, misnamed
}

// writeMisnamed names the tests that gave an object a name without the run's prefix and their
// own name: make sweep cannot find what such a test leaves, nor anyone trace it to its test.
func writeMisnamed(w io.Writer, entries []LedgerEntry) int {
	byTest := map[string]int{}
	var names []string
	for _, e := range Misnamed(entries) {
		byTest[e.Test]++
		names = append(names, fmt.Sprintf("%s %q", e.Kind, e.Name))
	}
	if len(byTest) == 0 {
		return 0
	}
	tests := make([]string, 0, len(byTest))
	for name, n := range byTest {
		tests = append(tests, fmt.Sprintf("%s (%d)", name, n))
	}
	sort.Strings(tests)
	fmt.Fprintf(w, "  named without the prefix %s and the test's name (make sweep cannot find what they leave; name them with acctest.RunName): %s\n",
		TestPrefix, strings.Join(tests, ", "))
	fmt.Fprintf(w, "  the names: %s\n", strings.Join(names, ", "))
	return len(names)
}
