package main

import (
	"strings"
	"testing"
)

// A run as `go test -json` writes it: TestA passes, TestB fails with a subtest that fails and
// one that passes, TestC skips, and a line that is not JSON (go test's own) is ignored.
const runWithFailures = `{"Action":"start","Package":"example.org/m/p"}
{"Action":"run","Package":"example.org/m/p","Test":"TestA"}
{"Action":"output","Package":"example.org/m/p","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"pass","Package":"example.org/m/p","Test":"TestA","Elapsed":0.01}
{"Action":"run","Package":"example.org/m/p","Test":"TestB"}
{"Action":"run","Package":"example.org/m/p","Test":"TestB/one"}
{"Action":"output","Package":"example.org/m/p","Test":"TestB/one","Output":"    b_test.go:12: got 5 of 6\n"}
{"Action":"fail","Package":"example.org/m/p","Test":"TestB/one","Elapsed":0.2}
{"Action":"run","Package":"example.org/m/p","Test":"TestB/two"}
{"Action":"pass","Package":"example.org/m/p","Test":"TestB/two","Elapsed":0.1}
{"Action":"fail","Package":"example.org/m/p","Test":"TestB","Elapsed":0.3}
{"Action":"run","Package":"example.org/m/p","Test":"TestC"}
{"Action":"skip","Package":"example.org/m/p","Test":"TestC","Elapsed":0}
FAIL	example.org/m/p	0.4s
{"Action":"fail","Package":"example.org/m/p","Elapsed":0.4}
`

// The same tests all passing, TestC still skipping.
const runPassing = `{"Action":"run","Package":"example.org/m/p","Test":"TestA"}
{"Action":"pass","Package":"example.org/m/p","Test":"TestA","Elapsed":0.01}
{"Action":"run","Package":"example.org/m/p","Test":"TestB"}
{"Action":"run","Package":"example.org/m/p","Test":"TestB/one"}
{"Action":"pass","Package":"example.org/m/p","Test":"TestB/one","Elapsed":0.2}
{"Action":"run","Package":"example.org/m/p","Test":"TestB/two"}
{"Action":"pass","Package":"example.org/m/p","Test":"TestB/two","Elapsed":0.1}
{"Action":"pass","Package":"example.org/m/p","Test":"TestB","Elapsed":0.3}
{"Action":"run","Package":"example.org/m/p","Test":"TestC"}
{"Action":"skip","Package":"example.org/m/p","Test":"TestC","Elapsed":0}
{"Action":"pass","Package":"example.org/m/p","Elapsed":0.4}
`

// A binary that timed out in TestA: its test never ends, and the package fails.
const runTimedOut = `{"Action":"run","Package":"example.org/m/p","Test":"TestA"}
{"Action":"output","Package":"example.org/m/p","Test":"TestA","Output":"panic: test timed out after 1s\n"}
{"Action":"output","Package":"example.org/m/p","Output":"FAIL\texample.org/m/p\t1.0s\n"}
{"Action":"fail","Package":"example.org/m/p","Elapsed":1}
`

// A package that failed with no test of its own failing (a TestMain that exits 1), beside a
// package that passed.
const runPackageFailed = `{"Action":"output","Package":"example.org/m/q","Output":"setting up: no emulator\n"}
{"Action":"fail","Package":"example.org/m/q","Elapsed":0.1}
{"Action":"run","Package":"example.org/m/p","Test":"TestA"}
{"Action":"pass","Package":"example.org/m/p","Test":"TestA","Elapsed":0.01}
{"Action":"pass","Package":"example.org/m/p","Elapsed":0.1}
`

// A package that does not build: go test -json gives the compiler's words as build-output.
const runBuildFailed = `{"ImportPath":"example.org/m/p [example.org/m/p.test]","Action":"build-output","Output":"# example.org/m/p [example.org/m/p.test]\n"}
{"ImportPath":"example.org/m/p [example.org/m/p.test]","Action":"build-output","Output":"./a_test.go:3:2: undefined: synctest\n"}
{"ImportPath":"example.org/m/p [example.org/m/p.test]","Action":"build-fail"}
{"Action":"start","Package":"example.org/m/p"}
{"Action":"output","Package":"example.org/m/p","Output":"FAIL\texample.org/m/p [build failed]\n"}
{"Action":"fail","Package":"example.org/m/p","Elapsed":0,"FailedBuild":"example.org/m/p [example.org/m/p.test]"}
`

func mustParse(t *testing.T, s string) run {
	t.Helper()
	r, err := parseRun(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestParseRun(t *testing.T) {
	p := func(test string) testID { return testID{"example.org/m/p", test} }
	for _, c := range []struct {
		name string
		in   string
		want map[testID]outcome
	}{
		{"failures", runWithFailures, map[testID]outcome{
			p("TestA"): passed, p("TestB"): failed, p("TestB/one"): failed, p("TestB/two"): passed, p("TestC"): skipped}},
		{"passing", runPassing, map[testID]outcome{
			p("TestA"): passed, p("TestB"): passed, p("TestB/one"): passed, p("TestB/two"): passed, p("TestC"): skipped}},
		// The test that never ended failed; the package is not counted apart, since a test of
		// it failed.
		{"timed out", runTimedOut, map[testID]outcome{p("TestA"): failed}},
		{"package failed alone", runPackageFailed, map[testID]outcome{
			{"example.org/m/q", ""}: failed, p("TestA"): passed}},
		{"build failed", runBuildFailed, map[testID]outcome{p(""): failed}},
	} {
		r := mustParse(t, c.in)
		if len(r.outcomes) != len(c.want) {
			t.Errorf("%s: %d outcomes %v, want %d %v", c.name, len(r.outcomes), r.outcomes, len(c.want), c.want)
		}
		for id, o := range c.want {
			if r.outcomes[id] != o {
				t.Errorf("%s: %v is %d, want %d", c.name, id, r.outcomes[id], o)
			}
		}
	}
	r := mustParse(t, runWithFailures)
	if got := strings.Join(r.output[testID{"example.org/m/p", "TestB/one"}], "|"); got != "    b_test.go:12: got 5 of 6" {
		t.Errorf("the output kept of TestB/one: %q", got)
	}
	if _, kept := r.output[testID{"example.org/m/p", "TestA"}]; kept {
		t.Error("the output of a passing test was kept")
	}
	if got := strings.Join(mustParse(t, runBuildFailed).output[p("")], "|"); !strings.Contains(got, "undefined: synctest") {
		t.Errorf("the output kept of the package that did not build: %q", got)
	}
	if got := mustParse(t, runTimedOut).output[testID{"example.org/m/p", "TestA"}]; len(got) != 1 || !strings.Contains(got[0], "timed out") {
		t.Errorf("the output kept of the test that timed out: %q", got)
	}
}

// TestTallyTable: 3 quiet runs (one failing) and 2 loaded runs (both failing) give TestB 1/3
// quiet and 2/2 loaded, FLAKY; TestB/one the same; a test that skips every run shows "skip";
// TestA, passing every run, is left out unless all is set; the first failure's output is the
// quiet one's.
func TestTallyTable(t *testing.T) {
	tl := newTally()
	tl.add("quiet", 1, mustParse(t, runPassing))
	tl.add("quiet", 2, mustParse(t, runWithFailures))
	tl.add("quiet", 3, mustParse(t, runPassing))
	tl.add("loaded", 1, mustParse(t, runWithFailures))
	tl.add("loaded", 2, mustParse(t, runWithFailures))
	if n := tl.failures(); n != 6 {
		t.Errorf("failures() = %d, want 6 (TestB and TestB/one in 3 runs)", n)
	}
	var b strings.Builder
	tl.writeTable(&b, false)
	want := `test           quiet   loaded
example.org/m/p
  TestB          1/3      2/2  FLAKY
  TestB/one      1/3      2/2  FLAKY
3 tests passed (or skipped) every run; -all lists them too
`
	if b.String() != want {
		t.Errorf("table:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	tl.writeTable(&b, true)
	for _, row := range []string{"  TestA          0/3      0/2\n", "  TestC         skip     skip\n", "  TestB/two      0/3      0/2\n"} {
		if !strings.Contains(b.String(), row) {
			t.Errorf("the table with every test lacks %q:\n%s", row, b.String())
		}
	}
	b.Reset()
	tl.writeFirstFailures(&b, 10)
	if !strings.Contains(b.String(), "--- example.org/m/p TestB/one: first failure (quiet, run 2):\n    "+"    b_test.go:12: got 5 of 6\n") {
		t.Errorf("first failures:\n%s", b.String())
	}
}

// TestTallyFailsEveryRun: a test that failed in every run it ran is marked FAILS, not FLAKY,
// and a package that failed alone has its own row.
func TestTallyFailsEveryRun(t *testing.T) {
	tl := newTally()
	tl.add("quiet", 1, mustParse(t, runPackageFailed))
	tl.add("quiet", 2, mustParse(t, runPackageFailed))
	var b strings.Builder
	tl.writeTable(&b, false)
	if want := "example.org/m/q\n  (package)      2/2  FAILS\n"; !strings.Contains(b.String(), want) {
		t.Errorf("table:\n%s\nwant a row %q", b.String(), want)
	}
}
