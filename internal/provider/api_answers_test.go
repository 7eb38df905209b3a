package provider_test

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/contract"
	"github.com/videohost/terraform-provider-videohost/internal/provider"
)

// answersMarker opens the guide's table of answer members, after the table of request members.
const answersMarker = "<!-- api-answers:"

// answerRow is one row of the guide's table of answer members.
type answerRow struct {
	line       int
	op, member string
	attrs      []string // the attributes that show the member; none when reason is given
	reason     string
}

// answerRows reads the table that follows the guide's api-answers marker.
func answerRows(t *testing.T) []answerRow {
	t.Helper()
	text := acctest.ReadText(t, coverageGuide)
	_, table, ok := strings.Cut(text, answersMarker)
	if !ok {
		t.Fatalf("%s has no api-answers marker before its table of answer members", coverageGuide)
	}
	offset := strings.Count(text[:len(text)-len(table)], "\n")
	var rows []answerRow
	for i, line := range strings.Split(table, "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| operationId") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		where := fmt.Sprintf("%s:%d", coverageGuide, offset+i+1)
		if len(cells) != 3 || !strings.HasPrefix(cells[1], "`") {
			t.Errorf("%s: want three cells (operationId, `member`, shown by): %s", where, line)
			continue
		}
		r := answerRow{line: offset + i + 1, op: cells[0], member: strings.Trim(cells[1], "`")}
		r.reason, r.attrs = guideCell(t, where, cells[2], "an attribute")
		rows = append(rows, r)
	}
	return rows
}

// readOperations are the operations of the coverage table that the provider reads: the GET
// operations that an object of the provider uses.
func readOperations(t *testing.T) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, r := range coverageRows(t) {
		if r.use != "—" && r.method == "GET" {
			out[r.id] = true
		}
	}
	return out
}

// TestAPIAnswersGuide checks the guide's table of answer members: every row is of an operation
// the provider reads and is listed once, every operation it reads has rows, and every attribute
// a row names is one of the provider's schemas; with the document, every answer member of those
// operations has a row (or is under a member whose row says why none of it is shown) and every
// row is a member of the document.
func TestAPIAnswersGuide(t *testing.T) {
	rows := answerRows(t)
	reads := readOperations(t)
	attrs := allAttributes(t)
	seen := map[string]answerRow{}
	withRows := map[string]bool{}
	for _, r := range rows {
		key := r.op + " " + r.member
		if _, ok := seen[key]; ok {
			t.Errorf("%s:%d: %s is listed twice", coverageGuide, r.line, key)
		}
		seen[key] = r
		withRows[r.op] = true
		if !reads[r.op] {
			t.Errorf("%s:%d: %s is not an operation the provider reads (a GET of the coverage table that an object uses)", coverageGuide, r.line, r.op)
		}
		for _, a := range r.attrs {
			if !attrs[a] {
				t.Errorf("%s:%d: %s shows %s, but no schema of the provider has an attribute %s", coverageGuide, r.line, a, r.member, a)
			}
		}
	}
	for op := range reads {
		if !withRows[op] {
			t.Errorf("%s has no rows for the answer of %s, which the provider reads", coverageGuide, op)
		}
	}
	path := os.Getenv(contract.EnvDocument)
	if path == "" {
		t.Skipf("the rows are not compared with the published document: %s", contract.HowToGet)
	}
	doc, err := openapi3.NewLoader().LoadFromFile(path)
	if err != nil {
		t.Fatal(err)
	}
	unmatched := maps.Clone(seen) // the rows that name no member of the document
	for _, m := range answerMembers(doc, reads) {
		op, member, _ := strings.Cut(m, " ")
		delete(unmatched, m)
		if _, ok := seen[m]; ok || underAReason(seen, op, member) {
			continue
		}
		t.Errorf("%s has no row for the answer member %s of %s: add | %s | `%s` | `<attribute>` or — <why none> |", coverageGuide, member, op, op, member)
	}
	for m, r := range unmatched {
		t.Errorf("%s:%d: %s is not an answer member of the document", coverageGuide, r.line, m)
	}
}

// seeBelow opens the reason of a member whose own members have rows of their own: it covers
// none of them.
const seeBelow = "see the members under it"

// underAReason reports whether a member of op lies under one whose row gives a reason: the
// reason covers every member under it, unless it begins with seeBelow.
func underAReason(rows map[string]answerRow, op, member string) bool {
	for i := range member {
		if member[i] != '.' {
			continue
		}
		parent := strings.TrimSuffix(member[:i], "[]")
		if r, ok := rows[op+" "+parent]; ok && r.reason != "" && !strings.HasPrefix(r.reason, seeBelow) {
			return true
		}
	}
	return false
}

// answerMembers lists the members of the successful JSON answers of the operations ops, as
// "operationId member", nested ones by path.
func answerMembers(doc *openapi3.T, ops map[string]bool) []string {
	var out []string
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			if !ops[op.OperationID] || op.Responses == nil {
				continue
			}
			for code, resp := range op.Responses.Map() {
				if !strings.HasPrefix(code, "2") || resp.Value == nil {
					continue
				}
				for _, media := range resp.Value.Content {
					walkMembers(media.Schema, "", 0, func(name string) { out = append(out, op.OperationID+" "+name) })
				}
			}
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// allAttributes lists the addresses of every attribute of the provider's resources and data
// sources, computed ones included, nested ones by path.
func allAttributes(t *testing.T) map[string]bool {
	t.Helper()
	s, err := provider.NewServer("test")().GetProviderSchema(t.Context(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	var add func(prefix string, b *tfprotov6.SchemaBlock)
	add = func(prefix string, b *tfprotov6.SchemaBlock) {
		for _, a := range b.Attributes {
			out[prefix+a.Name] = true
			if a.NestedType != nil {
				add(prefix+a.Name+".", &tfprotov6.SchemaBlock{Attributes: a.NestedType.Attributes})
			}
		}
		for _, nb := range b.BlockTypes {
			out[prefix+nb.TypeName] = true
			add(prefix+nb.TypeName+".", nb.Block)
		}
	}
	for name, r := range s.ResourceSchemas {
		add(name+".", r.Block)
	}
	for name, d := range s.DataSourceSchemas {
		add("data."+name+".", d.Block)
	}
	return out
}
