package emulator

import (
	"bufio"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// tableOperations are the route table's operations, "METHOD /pattern".
func tableOperations() []string {
	var ops []string
	for _, rt := range serviceRoutes {
		for _, m := range rt.methods {
			ops = append(ops, m.method+" "+rt.pattern)
		}
	}
	return ops
}

// compareOperations fails t for every operation of the table that list leaves out and every
// operation of list that the table does not have, and for an operation listed twice.
func compareOperations(t *testing.T, where string, listed []string) {
	t.Helper()
	table := tableOperations()
	for _, op := range table {
		if !slices.Contains(listed, op) {
			t.Errorf("%s does not list %s, a route of serviceRoutes: add it", where, op)
		}
	}
	seen := map[string]bool{}
	for _, op := range listed {
		if !slices.Contains(table, op) {
			t.Errorf("%s lists %s, which serviceRoutes does not have: remove it, or add its row", where, op)
		}
		if seen[op] {
			t.Errorf("%s lists %s twice", where, op)
		}
		seen[op] = true
	}
}

// docOperation is one line of doc.go's list of the service API: a method, then the path.
var docOperation = regexp.MustCompile(`^//\t(GET|HEAD|POST|PUT|PATCH|DELETE) +(/\S*)`)

// TestDocListsTheRouteTable: the package documentation's list of the service API (doc.go,
// "# Service API") has exactly one line for each method of each row of serviceRoutes.
func TestDocListsTheRouteTable(t *testing.T) {
	f, err := os.Open("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var listed []string
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "// # ") {
			in = line == "// # Service API"
			continue
		}
		if m := docOperation.FindStringSubmatch(line); in && m != nil {
			listed = append(listed, m[1]+" "+m[2])
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	compareOperations(t, "doc.go", listed)
}

// coverageGuide is the template of the docs' API coverage guide, whose table marks the
// operations the emulator serves.
const coverageGuide = "../../templates/guides/api-coverage.md.tmpl"

// TestCoverageGuideMarksTheRouteTable: the API coverage guide marks served (Emulator "yes")
// exactly the operations of serviceRoutes.
func TestCoverageGuideMarksTheRouteTable(t *testing.T) {
	b, err := os.ReadFile(coverageGuide)
	if err != nil {
		t.Fatal(err)
	}
	var served []string
	for _, line := range strings.Split(string(b), "\n") {
		cells := strings.Split(line, "|")
		// | operationId | Method | Path | Used by | Emulator |
		if len(cells) != 7 || strings.TrimSpace(cells[5]) != "yes" {
			continue
		}
		served = append(served, strings.TrimSpace(cells[2])+" "+strings.TrimSpace(cells[3]))
	}
	if len(served) == 0 {
		t.Fatalf("%s: no row marked yes; has the table's layout changed?", coverageGuide)
	}
	compareOperations(t, coverageGuide, served)
}

// TestEveryRouteIsServed: each operation of the table reaches its row's wrapper (a request
// without credentials is refused 401, or answered by the row's own checks for /auth/ and
// /upload), never the 404 of an unknown path; and a method that a row lacks is 405 with the
// row's methods in Allow.
func TestEveryRouteIsServed(t *testing.T) {
	e, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	fill := strings.NewReplacer("{", "x", "}", "")
	for _, rt := range serviceRoutes {
		path := fill.Replace(rt.pattern)
		for _, m := range rt.methods {
			rec := httptest.NewRecorder()
			e.ServeHTTP(rec, httptest.NewRequest(m.method, path, nil))
			want := http.StatusUnauthorized
			switch rt.access {
			case accessOpen:
				want = http.StatusBadRequest // no body
			case accessToken:
				want = http.StatusNotFound // no token
			}
			if rec.Code != want || strings.Contains(rec.Body.String(), slugUnrecognizedURL) {
				t.Errorf("%s %s: %d %s, want %d from the route", m.method, path, rec.Code, rec.Body, want)
			}
		}
		if rt.handler(http.MethodPut) != nil {
			continue
		}
		req := httptest.NewRequest(http.MethodPut, path, nil)
		req.SetBasicAuth(e.APIKeys()[0], "")
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		if rec.Code != http.StatusMethodNotAllowed || rec.Header().Get("Allow") != rt.allow() {
			t.Errorf("PUT %s: %d Allow %q, want 405 Allow %q", path, rec.Code, rec.Header().Get("Allow"), rt.allow())
		}
	}
}
