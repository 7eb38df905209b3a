package provider_test

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/contract"
	"github.com/videohost/terraform-provider-videohost/internal/provider"
)

// membersMarker opens the guide's table of request members.
const membersMarker = "<!-- api-members:"

// memberRow is one row of the guide's table of request members.
type memberRow struct {
	line           int
	op, member, in string
	args           []string // the arguments that set the member; none when reason is given
	reason         string
}

// memberArg is an argument's address as the table writes it.
var memberArg = regexp.MustCompile("^`([a-z0-9_.]+)`$")

// memberRows reads the table that follows the guide's api-members marker.
func memberRows(t *testing.T) []memberRow {
	t.Helper()
	text := acctest.ReadText(t, coverageGuide)
	_, table, ok := strings.Cut(text, membersMarker)
	if !ok {
		t.Fatalf("%s has no api-members marker before its table of request members", coverageGuide)
	}
	offset := strings.Count(text[:len(text)-len(table)], "\n")
	table, _, _ = strings.Cut(table, answersMarker) // the table of answer members follows
	var rows []memberRow
	for i, line := range strings.Split(table, "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| operationId") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		where := fmt.Sprintf("%s:%d", coverageGuide, offset+i+1)
		if len(cells) != 4 || !strings.HasPrefix(cells[1], "`") || (cells[2] != "body" && cells[2] != "form" && cells[2] != "query") {
			t.Errorf("%s: want four cells (operationId, `member`, body|form|query, set by): %s", where, line)
			continue
		}
		r := memberRow{line: offset + i + 1, op: cells[0], member: strings.Trim(cells[1], "`"), in: cells[2]}
		r.reason, r.args = guideCell(t, where, cells[3], "an argument")
		rows = append(rows, r)
	}
	return rows
}

// TestAPIMembersGuide checks the guide's table of request members: every row is of an
// operation of the coverage table, is listed once, and names arguments that a configuration
// can set; with the document (VIDEOHOST_OPENAPI), every member of it has a row and every row
// is a member of it.
func TestAPIMembersGuide(t *testing.T) {
	rows := memberRows(t)
	ops := map[string]bool{}
	for _, r := range coverageRows(t) {
		ops[r.id] = true
	}
	args := settableArguments(t)
	seen := map[string]bool{}
	for _, r := range rows {
		key := r.op + " " + r.in + " " + r.member
		if seen[key] {
			t.Errorf("%s:%d: %s is listed twice", coverageGuide, r.line, key)
		}
		seen[key] = true
		if !ops[r.op] {
			t.Errorf("%s:%d: %s is not an operation of the coverage table", coverageGuide, r.line, r.op)
		}
		for _, a := range r.args {
			if !args[a] {
				t.Errorf("%s:%d: %s sets %s, but no schema of the provider has an argument %s", coverageGuide, r.line, a, r.member, a)
			}
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
	for _, m := range documentMembers(doc) {
		if !seen[m] {
			op, rest, _ := strings.Cut(m, " ")
			in, member, _ := strings.Cut(rest, " ")
			t.Errorf("%s has no row for the member %s of %s: add | %s | `%s` | %s | `<argument>` or — <why none> |", coverageGuide, member, op, op, member, in)
		}
		delete(seen, m)
	}
	for m := range seen {
		t.Errorf("%s lists %s, which is not a request member of the document", coverageGuide, m)
	}
}

// documentMembers lists the request members of every operation of the document, as
// "operationId in member": its query parameters, and the members of its request body, nested
// ones by path.
func documentMembers(doc *openapi3.T) []string {
	var out []string
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			for _, p := range op.Parameters {
				if p.Value != nil && p.Value.In == openapi3.ParameterInQuery {
					out = append(out, op.OperationID+" query "+p.Value.Name)
				}
			}
			if op.RequestBody == nil || op.RequestBody.Value == nil {
				continue
			}
			for ct, media := range op.RequestBody.Value.Content {
				in := "body"
				if strings.HasPrefix(ct, "multipart/") {
					in = "form"
				}
				walkMembers(media.Schema, "", 0, func(name string) { out = append(out, op.OperationID+" "+in+" "+name) })
			}
		}
	}
	sort.Strings(out)
	return out
}

// walkMembers calls add with the path of every property of s, its items' and its parts'.
func walkMembers(s *openapi3.SchemaRef, prefix string, depth int, add func(string)) {
	if s == nil || s.Value == nil || depth > 8 {
		return
	}
	for _, part := range s.Value.AllOf {
		walkMembers(part, prefix, depth+1, add)
	}
	for name, p := range s.Value.Properties {
		add(prefix + name)
		walkMembers(p, prefix+name+".", depth+1, add)
		if p.Value != nil && p.Value.Items != nil {
			walkMembers(p.Value.Items, prefix+name+"[].", depth+1, add)
		}
	}
}

// settableArguments lists the addresses of every argument a configuration can set (required
// or optional attributes, nested ones and blocks), from the provider's protocol schemas.
func settableArguments(t *testing.T) map[string]bool {
	t.Helper()
	s, err := provider.NewServer("test")().GetProviderSchema(t.Context(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	addBlock(out, "provider.", s.Provider.Block)
	for name, r := range s.ResourceSchemas {
		addBlock(out, name+".", r.Block)
	}
	for name, d := range s.DataSourceSchemas {
		addBlock(out, "data."+name+".", d.Block)
	}
	for name, l := range s.ListResourceSchemas {
		addBlock(out, "list."+name+".", l.Block)
	}
	for name, e := range s.EphemeralResourceSchemas {
		addBlock(out, "ephemeral."+name+".", e.Block)
	}
	for name, a := range s.ActionSchemas {
		addBlock(out, "action."+name+".", a.Schema.Block)
	}
	return out
}

// addBlock adds the settable arguments of b under prefix.
func addBlock(out map[string]bool, prefix string, b *tfprotov6.SchemaBlock) {
	for _, a := range b.Attributes {
		if a.Required || a.Optional {
			out[prefix+a.Name] = true
		}
		if a.NestedType != nil {
			addBlock(out, prefix+a.Name+".", &tfprotov6.SchemaBlock{Attributes: a.NestedType.Attributes})
		}
	}
	for _, nb := range b.BlockTypes {
		out[prefix+nb.TypeName] = true
		addBlock(out, prefix+nb.TypeName+".", nb.Block)
	}
}

// guideCell reads the last cell of a guide's row: a reason after a dash, or the names in
// backquotes, separated by commas, of the arguments or attributes (what) that set or show the
// member.
func guideCell(t *testing.T, where, cell, what string) (reason string, names []string) {
	t.Helper()
	if reason, ok := strings.CutPrefix(cell, "— "); ok {
		return reason, nil
	}
	for _, a := range strings.Split(cell, ", ") {
		m := memberArg.FindStringSubmatch(a)
		if m == nil {
			t.Errorf("%s: %q is neither %s in backquotes nor a reason after a dash", where, a, what)
			continue
		}
		names = append(names, m[1])
	}
	return "", names
}
