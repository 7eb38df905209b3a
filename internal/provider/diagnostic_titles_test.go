package provider_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
)

// A diagnostic's title (its summary) is what a user searches for. Every title the provider can
// emit must be findable: in the troubleshooting guide, or on the page of the kind whose file
// emits it (video_plan.go emits on the videohost_video pages). The titles are collected from the
// package's Go source, so that a new diagnostic cannot be added without its documentation.

// summaryCalls maps the functions that take a diagnostic's summary to the index of the
// argument that holds it.
var summaryCalls = map[string]int{
	"AddError": 0, "AddWarning": 0, "NewErrorDiagnostic": 0, "NewWarningDiagnostic": 0,
	"AddAttributeError": 1, "AddAttributeWarning": 1,
	"NewAttributeErrorDiagnostic": 1, "NewAttributeWarningDiagnostic": 1,
}

// diagTitle is one title as the source writes it: its parts are literal text or, where the
// source computes a part (a kind's name, a formatted value), a wildcard.
type diagTitle struct {
	parts []string // "" stands for a computed part
	file  string
	line  int
}

// pattern is the title as a regular expression over a Markdown page, whose lines wrap anywhere.
func (d diagTitle) pattern() *regexp.Regexp {
	var b strings.Builder
	for _, p := range d.parts {
		if p == "" {
			b.WriteString(`[A-Za-z0-9'’.…\s-]+?`)
			continue
		}
		// White space, leading and trailing included, matches any white space.
		b.WriteString(regexp.MustCompile(`\s+`).ReplaceAllString(regexp.QuoteMeta(p), `\s+`))
	}
	return regexp.MustCompile(b.String())
}

func (d diagTitle) String() string {
	var b strings.Builder
	for _, p := range d.parts {
		if p == "" {
			p = "…"
		}
		b.WriteString(p)
	}
	return b.String()
}

// titleCollector walks the package's source for diagnostic summaries.
type titleCollector struct {
	fset   *token.FileSet
	consts map[string]string
	// summaryParams maps a function or method name to the index of its parameter that holds a
	// summary (a parameter named summary or ending in Summary), for its callers' arguments.
	summaryParams map[string]int
	titles        []diagTitle
}

// parsePackage parses the package's files outside the tests.
func parsePackage(t *testing.T, fset *token.FileSet) []*ast.File {
	t.Helper()
	var files []*ast.File
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files = append(files, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// isSummaryName says whether an identifier or field names a diagnostic's summary.
func isSummaryName(name string) bool {
	return name == "summary" || name == "Summary" || strings.HasSuffix(name, "Summary")
}

// index records the package's string constants and the functions that take a summary.
func (c *titleCollector) index(files []*ast.File) {
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				for i, name := range n.Names {
					if i < len(n.Values) {
						if lit, ok := n.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
							c.consts[name.Name], _ = strconv.Unquote(lit.Value)
						}
					}
				}
			case *ast.FuncDecl:
				i := 0
				for _, field := range n.Type.Params.List {
					for _, name := range field.Names {
						if isSummaryName(name.Name) {
							c.summaryParams[n.Name.Name] = i
						}
						i++
					}
					if len(field.Names) == 0 {
						i++
					}
				}
			}
			return true
		})
	}
}

// parts evaluates a summary expression into literal parts and wildcards; ok is false when the
// expression holds no literal text at all (a variable passed on, whose origin is collected where
// it is set).
func (c *titleCollector) parts(e ast.Expr) (parts []string, ok bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			s, _ := strconv.Unquote(e.Value)
			return []string{s}, true
		}
	case *ast.Ident:
		if v, found := c.consts[e.Name]; found {
			return []string{v}, true
		}
	case *ast.SelectorExpr:
		// A constant of the shared package, framework.Name.
		if v, found := c.consts[e.Sel.Name]; found {
			return []string{v}, true
		}
	case *ast.ParenExpr:
		return c.parts(e.X)
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			l, lok := c.parts(e.X)
			r, rok := c.parts(e.Y)
			if !lok {
				l = []string{""}
			}
			if !rok {
				r = []string{""}
			}
			return append(l, r...), lok || rok
		}
	case *ast.CallExpr:
		if sel, isSel := e.Fun.(*ast.SelectorExpr); isSel && sel.Sel.Name == "Sprintf" && len(e.Args) > 0 {
			if format, fok := c.parts(e.Args[0]); fok && len(format) == 1 {
				verb := regexp.MustCompile(`%[-+# 0-9.]*[a-zA-Z]`)
				var out []string
				for i, lit := range verb.Split(format[0], -1) {
					if i > 0 {
						out = append(out, "")
					}
					if lit != "" {
						out = append(out, lit)
					}
				}
				return out, true
			}
		}
	}
	return nil, false
}

// add records a summary expression found at pos.
func (c *titleCollector) add(e ast.Expr, pos token.Pos) {
	parts, ok := c.parts(e)
	if !ok {
		return
	}
	p := c.fset.Position(pos)
	c.titles = append(c.titles, diagTitle{parts: parts, file: p.Filename, line: p.Line})
}

// collect finds every summary: the arguments of the diagnostics' functions and of functions
// that take a summary, the values given to a field or variable named as a summary, and the
// constants so named.
func (c *titleCollector) collect(files []*ast.File) {
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				c.collectCall(n)
			case *ast.KeyValueExpr:
				if k, ok := n.Key.(*ast.Ident); ok && isSummaryName(k.Name) {
					c.add(n.Value, n.Pos())
				}
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok && isSummaryName(id.Name) && i < len(n.Rhs) {
						c.add(n.Rhs[i], n.Pos())
					}
				}
			case *ast.ValueSpec:
				for i, name := range n.Names {
					if isSummaryName(name.Name) && i < len(n.Values) {
						c.add(n.Values[i], n.Pos())
					}
				}
			}
			return true
		})
	}
}

func (c *titleCollector) collectCall(n *ast.CallExpr) {
	var name string
	switch fun := n.Fun.(type) {
	case *ast.SelectorExpr:
		name = fun.Sel.Name
	case *ast.Ident:
		name = fun.Name
	}
	at, ok := summaryCalls[name]
	if !ok {
		at, ok = c.summaryParams[name]
	}
	if ok && at < len(n.Args) {
		c.add(n.Args[at], n.Pos())
	}
}

// kindOfFile is the docs page names of the kind whose folder holds the file that emits a title
// (video_caption for videocaption/plan.go; analytics_metric, analytics_breakdown and
// analytics_timeseries for analytics/metric_data_source.go), or none for the shared machinery:
// the pages whose name, without its underscores, holds the folder's.
func kindOfFile(file string, kinds []string) []string {
	dir := filepath.Base(filepath.Dir(file))
	var pages []string
	for _, k := range kinds {
		if strings.Contains(strings.ReplaceAll(k, "_", ""), dir) {
			pages = append(pages, k)
		}
	}
	return pages
}

// kindPages reads the docs pages of every kind, by page name: docs/resources/video.md,
// docs/data-sources/video.md, ... all under "video".
func kindPages(t *testing.T, docs string) map[string]string {
	t.Helper()
	pages := map[string]string{}
	for _, dir := range []string{"resources", "data-sources", "ephemeral-resources", "list-resources", "actions", "functions"} {
		found, err := filepath.Glob(filepath.Join(docs, dir, "*.md"))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range found {
			name := strings.TrimSuffix(filepath.Base(p), ".md")
			pages[name] += acctest.ReadText(t, p)
		}
	}
	return pages
}

// TestDiagnosticTitlesDocumented: every diagnostic title the provider's source can emit is in
// the troubleshooting guide or on a docs page of the kind whose file emits it.
func TestDiagnosticTitlesDocumented(t *testing.T) {
	docs := filepath.Join("..", "..", "docs")
	guide := acctest.ReadText(t, filepath.Join(docs, "guides", "troubleshooting.md"))
	pages := kindPages(t, docs)
	kinds := make([]string, 0, len(pages))
	for k := range pages {
		kinds = append(kinds, k)
	}
	c := &titleCollector{fset: token.NewFileSet(), consts: map[string]string{}, summaryParams: map[string]int{}}
	files := parsePackage(t, c.fset)
	c.index(files)
	c.collect(files)
	if len(c.titles) < 50 {
		t.Fatalf("found %d diagnostic titles in the source, fewer than the provider has: the collector is broken", len(c.titles))
	}
	var missing []string
	for _, d := range c.titles {
		re := d.pattern()
		if re.MatchString(guide) {
			continue
		}
		kindPages := kindOfFile(d.file, kinds)
		if slices.ContainsFunc(kindPages, func(k string) bool { return re.MatchString(pages[k]) }) {
			continue
		}
		where := "docs/guides/troubleshooting.md (templates/guides/troubleshooting.md.tmpl)"
		if len(kindPages) > 0 {
			where += " or a page of " + strings.Join(kindPages, ", ") + " (their templates under templates/)"
		}
		missing = append(missing, d.file+":"+strconv.Itoa(d.line)+": "+strconv.Quote(d.String())+" is in neither "+where)
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Error(m)
	}
	t.Logf("%d diagnostic titles checked", len(c.titles))
}

// TestDiagnosticTitleCollector: the collector reads literals, constants, concatenations with a
// computed kind and Sprintf formats, and a summary handed through a helper's parameter.
func TestDiagnosticTitleCollector(t *testing.T) {
	src := `package p
const gone = "Object Gone"
func warn(d *Diags, at Path, summary string) { d.AddAttributeWarning(at, summary, "") }
func f(d *Diags, kind string) {
	d.AddError("Plain Title", "")
	d.AddWarning(gone, "")
	d.AddError(kind+" Create Interrupted", "")
	d.AddError(fmt.Sprintf("%s Not Found", kind), "")
	warn(d, nil, "Through A Helper")
	_ = refusal{summary: "In A Field"}
}
`
	c := &titleCollector{fset: token.NewFileSet(), consts: map[string]string{}, summaryParams: map[string]int{}}
	f, err := parser.ParseFile(c.fset, "x_resource.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	c.index([]*ast.File{f})
	c.collect([]*ast.File{f})
	var got []string
	for _, d := range c.titles {
		got = append(got, d.String())
	}
	want := "Plain Title|Object Gone|… Create Interrupted|… Not Found|Through A Helper|In A Field"
	if strings.Join(got, "|") != want {
		t.Errorf("collected %q, want %q", strings.Join(got, "|"), want)
	}
	if !(diagTitle{parts: []string{"", " Create Interrupted"}}).pattern().MatchString("Live Stream\nCreate Interrupted") {
		t.Error("a computed kind and a wrapped line do not match the pattern")
	}
}
