package provider

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The rule of doc.go: a request that changes something on the service is sent from a
// <kind>_writes.go file (or writes.go, which settles them the same way), so that a reader who
// changes a retry or a request body finds every write of a kind in one place; a read is sent from
// the read paths named here. The files that are their own write path (an action, an ephemeral
// resource's opening and closing, the deletion of unclosed tokens after Serve) are named too.

// clientReads are the client's methods that only read; clientLocal those that send nothing.
var (
	clientReads = regexp.MustCompile(`^(Get|Lookup|List|Walk)[A-Z]`)
	clientLocal = map[string]bool{"RateLimitWaits": true, "Detached": true, "AuthScheme": true, "BaseURL": true,
		"Environment": true, "UserAgent": true}
)

// writePaths and readPaths are the files (by pattern of their base name) from which a write or a
// read may be sent.
var (
	writePaths = regexp.MustCompile(`^(.*_writes|writes|.*_action|.*_ephemeral_resource|unclosed_tokens)\.go$`)
	readPaths  = regexp.MustCompile(`^(.*_writes|writes|.*_action|.*_ephemeral_resource|.*_resource|.*_data_source|data_source|` +
		`.*_list_resource|list_resource|managed_resource|.*_plan|video_wait)\.go$`)
)

// TestRequestsAreSentFromTheirPaths parses the provider's files and fails on each call of a
// client method (on a client value, or as a method expression (*videohost.Client).M) that a
// file outside the paths above makes, naming the file, the line and the call.
func TestRequestsAreSentFromTheirPaths(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, call := range clientCalls(f) {
			method := call.Sel.Name
			allowed := clientLocal[method] || writePaths.MatchString(name) ||
				(clientReads.MatchString(method) && readPaths.MatchString(name))
			if !allowed {
				kind := "write"
				if clientReads.MatchString(method) {
					kind = "read"
				}
				t.Errorf("%s: %s is a %s sent outside its paths: move it into the kind's _writes.go file "+
					"(writes_rule_test.go names the paths)", fset.Position(call.Pos()), exprText(call), kind)
			}
		}
	}
}

// clientCalls are the selectors of client methods in f: X.M where X is a field named client
// (pd.client, r.pd.client) or a parameter or variable declared *videohost.Client, and
// (*videohost.Client).M.
func clientCalls(f *ast.File) []*ast.SelectorExpr {
	clients := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if field, ok := n.(*ast.Field); ok && isClientType(field.Type) {
			for _, id := range field.Names {
				clients[id.Name] = true
			}
		}
		return true
	})
	var found []*ast.SelectorExpr
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok || !ast.IsExported(sel.Sel.Name) {
			return true
		}
		switch x := ast.Unparen(sel.X).(type) {
		case *ast.SelectorExpr:
			if x.Sel.Name == "client" {
				found = append(found, sel)
			}
		case *ast.Ident:
			if clients[x.Name] {
				found = append(found, sel)
			}
		case *ast.StarExpr:
			if isClientType(x) {
				found = append(found, sel)
			}
		}
		return true
	})
	return found
}

// isClientType reports whether e is *videohost.Client.
func isClientType(e ast.Expr) bool {
	star, ok := e.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "videohost" && sel.Sel.Name == "Client"
}

// exprText writes a selector as the source has it, for a message.
func exprText(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return exprText(x.X) + "." + x.Sel.Name
	case *ast.StarExpr:
		return "(*" + exprText(x.X) + ")"
	case *ast.ParenExpr:
		return exprText(x.X)
	}
	return "?"
}
