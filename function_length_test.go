package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// maxFunctionLines is the longest a function outside the tests may be, from its func line to
// its closing brace; clientMaxFunctionLines the longest in the API client, which is read by
// people who do not know Terraform and should be short enough to be taken in at once.
const (
	maxFunctionLines       = 80
	clientMaxFunctionLines = 60
	clientDir              = "internal/videohost"
)

// functionLength is one function of the module and its length in lines.
type functionLength struct {
	name  string
	lines int
	limit int
}

// functionLengths parses every Go file of the module outside the tests and testdata, and returns
// each function with its length and the limit that applies to it.
func functionLengths(t *testing.T) []functionLength {
	t.Helper()
	var out []functionLength
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		limit := maxFunctionLines
		if filepath.ToSlash(filepath.Dir(p)) == clientDir {
			limit = clientMaxFunctionLines
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			lines := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
			out = append(out, functionLength{name: fmt.Sprintf("%s:%d %s", p, fset.Position(fn.Pos()).Line, funcName(fn)), lines: lines, limit: limit})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// funcName is fn's name, with its receiver's type for a method.
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	typ := fn.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	switch x := typ.(type) {
	case *ast.IndexExpr:
		typ = x.X
	case *ast.IndexListExpr:
		typ = x.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name + "." + fn.Name.Name
	}
	return fn.Name.Name
}

// TestFunctionLength keeps every function outside the tests within maxFunctionLines lines, and
// the client's within clientMaxFunctionLines: a longer one is split into steps with names.
func TestFunctionLength(t *testing.T) {
	fns := functionLengths(t)
	if len(fns) < 100 {
		t.Fatalf("only %d functions found: is the test run from the module's root?", len(fns))
	}
	var over []string
	longest := map[int]functionLength{}
	for _, fn := range fns {
		if fn.lines > longest[fn.limit].lines {
			longest[fn.limit] = fn
		}
		if fn.lines > fn.limit {
			over = append(over, fmt.Sprintf("%s: %d lines (at most %d)", fn.name, fn.lines, fn.limit))
		}
	}
	for limit, fn := range longest {
		t.Logf("longest where the limit is %d: %s, %d lines", limit, fn.name, fn.lines)
	}
	sort.Strings(over)
	for _, o := range over {
		t.Error(o)
	}
}
