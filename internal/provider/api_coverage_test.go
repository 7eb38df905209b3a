package provider_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/contract"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// coverageGuide is the template of the API coverage guide, whose table this file checks.
var coverageGuide = filepath.Join("..", "..", "templates", "guides", "api-coverage.md.tmpl")

// coverageRow is one row of the guide's table: an operation, what uses it, whether the
// emulator serves it.
type coverageRow struct {
	line                  int
	id, method, path, use string
	served                bool
}

func (r coverageRow) String() string {
	served := "no"
	if r.served {
		served = "yes"
	}
	return fmt.Sprintf("| %s | %s | %s | %s | %s |", r.id, r.method, r.path, r.use, served)
}

// coverageRows reads the table that follows the guide's api-coverage marker.
func coverageRows(t *testing.T) []coverageRow {
	t.Helper()
	text := acctest.ReadText(t, coverageGuide)
	_, table, ok := strings.Cut(text, "<!-- api-coverage:")
	if !ok {
		t.Fatalf("%s has no api-coverage marker before its table", coverageGuide)
	}
	offset := strings.Count(text[:len(text)-len(table)], "\n")
	table, _, _ = strings.Cut(table, membersMarker) // the table of request members follows
	var rows []coverageRow
	for i, line := range strings.Split(table, "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| operationId") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) != 5 || (cells[4] != "yes" && cells[4] != "no") {
			t.Errorf("%s:%d: want five cells ending in yes or no: %s", coverageGuide, offset+i+1, line)
			continue
		}
		rows = append(rows, coverageRow{line: offset + i + 1, id: cells[0], method: cells[1], path: cells[2], use: cells[3], served: cells[4] == "yes"})
	}
	return rows
}

// TestAPICoverageGuide checks the guide's table of the published API's operations: one row per
// operation (exactly the document's, when VIDEOHOST_OPENAPI names it), objects that exist, and
// the emulator column as the emulator answers. A row is one line: to add an operation, add its
// line; when the emulator learns an operation, this test names the row to change.
func TestAPICoverageGuide(t *testing.T) {
	rows := coverageRows(t)
	ids := map[string]bool{}
	for _, r := range rows {
		if ids[r.id] {
			t.Errorf("%s:%d: %s is listed twice", coverageGuide, r.line, r.id)
		}
		ids[r.id] = true
		checkCoverageUse(t, r)
	}
	if len(rows) != 59 {
		t.Errorf("%s lists %d operations, want the document's 59", coverageGuide, len(rows))
	}
	checkCoverageAgainstDocument(t, rows)
	checkCoverageAgainstEmulator(t, rows)
}

// coverageKinds maps a kind of object, as the table names it, to its directory under docs/.
var coverageKinds = map[string]string{
	"resource": "resources", "data source": "data-sources", "list resource": "list-resources",
	"ephemeral resource": "ephemeral-resources", "action": "actions",
}

var coverageUse = regexp.MustCompile(`^(videohost_[a-z_]+) \(([a-z ,]+)\)$`)

// checkCoverageUse checks that every object a row names is one the provider has, of that kind.
func checkCoverageUse(t *testing.T, r coverageRow) {
	t.Helper()
	if r.use == "—" {
		return
	}
	for _, part := range strings.Split(r.use, "; ") {
		if strings.HasPrefix(part, "every object (bearer scheme)") {
			continue
		}
		m := coverageUse.FindStringSubmatch(part)
		if m == nil {
			t.Errorf("%s:%d: %q is not of the form videohost_<name> (<kind>, ...)", coverageGuide, r.line, part)
			continue
		}
		for _, kind := range strings.Split(m[2], ", ") {
			dir, ok := coverageKinds[kind]
			page := filepath.Join("..", "..", "docs", dir, strings.TrimPrefix(m[1], "videohost_")+".md")
			if _, err := os.Stat(page); !ok || err != nil {
				t.Errorf("%s:%d: %s is not a %s of the provider (no %s)", coverageGuide, r.line, m[1], kind, page)
			}
		}
	}
	if !r.served {
		t.Errorf("%s:%d: %s is used by the provider but the emulator does not serve it", coverageGuide, r.line, r.id)
	}
}

// checkCoverageAgainstDocument compares the rows with the published document's operations.
func checkCoverageAgainstDocument(t *testing.T, rows []coverageRow) {
	t.Helper()
	path := os.Getenv(contract.EnvDocument)
	if path == "" {
		t.Logf("the rows are not compared with the published document: %s", contract.HowToGet)
		return
	}
	doc, err := contract.LoadDocument(path)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[contract.Operation]bool{}
	for _, r := range rows {
		listed[contract.Operation{ID: r.id, Method: r.method, Path: r.path}] = true
	}
	for _, op := range doc.Operations() {
		if !listed[op] {
			t.Errorf("%s has no row for %s %s %s: add | %s | %s | %s | — | no |", coverageGuide, op.ID, op.Method, op.Path, op.ID, op.Method, op.Path)
		}
		delete(listed, op)
	}
	for op := range listed {
		t.Errorf("%s lists %s %s %s, which the document does not have", coverageGuide, op.ID, op.Method, op.Path)
	}
}

// checkCoverageAgainstEmulator sends each row's request to an emulator: an operation is served
// unless the answer is the service's own for a path or method it does not know.
func checkCoverageAgainstEmulator(t *testing.T, rows []coverageRow) {
	t.Helper()
	emu, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = emu.Close() })
	params := regexp.MustCompile(`\{[A-Za-z]+\}`)
	for _, r := range rows {
		path := params.ReplaceAllStringFunc(r.path, func(p string) string {
			if p == "{language}" {
				return "en"
			}
			return "x0000000000000000000000"
		})
		req := httptest.NewRequest(r.method, path, strings.NewReader("{}"))
		req.Header.Set("Content-Type", "application/json")
		req.SetBasicAuth(emu.APIKeys()[0], "")
		rec := httptest.NewRecorder()
		emu.ServeHTTP(rec, req)
		var problem struct{ Type string }
		_ = json.Unmarshal(rec.Body.Bytes(), &problem)
		unknownPath := rec.Code == http.StatusNotFound && strings.HasSuffix(problem.Type, "/unrecognized-request-url")
		served := rec.Code != http.StatusMethodNotAllowed && !unknownPath
		if served != r.served {
			want := r
			want.served = served
			t.Errorf("%s:%d: the emulator answers %s %s with %d: the row should read\n%s", coverageGuide, r.line, r.method, path, rec.Code, want)
		}
	}
}
