package provider

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// videohostName is a name of the provider's own: videohost_ and more, not inside another word
// or path (terraform-provider-videohost_0.1.0_linux_amd64.zip).
var videohostName = regexp.MustCompile(`videohost_[a-z0-9_]*[a-z0-9]`)

// TestEveryVideohostNameIsRegistered: every videohost_* name that a user reads (the docs, the
// templates they are made from, the examples, and the provider's strings: diagnostics and
// schema descriptions) is a registered resource, data source, ephemeral resource, list
// resource, action or function, or an attribute, so that no message sends a user looking for a
// type that does not exist.
func TestEveryVideohostNameIsRegistered(t *testing.T) {
	known := registeredNames(t)
	root := filepath.Join("..", "..")
	for _, dir := range []string{"docs", "templates", "examples"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			raw, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			checkNames(t, p, string(raw), known)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				checkNames(t, fset.Position(lit.Pos()).String(), lit.Value, known)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// checkNames fails for each videohost_* name in text (found at where) that known lacks.
func checkNames(t *testing.T, where, text string, known map[string]bool) {
	t.Helper()
	for _, loc := range videohostName.FindAllStringIndex(text, -1) {
		if loc[0] > 0 && strings.ContainsRune("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./", rune(text[loc[0]-1])) {
			continue
		}
		if name := text[loc[0]:loc[1]]; !known[name] {
			t.Errorf("%s names %s, which the provider does not register", where, name)
		}
	}
}

// registeredNames are the provider's type names, function names and attribute names.
func registeredNames(t *testing.T) map[string]bool {
	t.Helper()
	ctx := t.Context()
	p := &VideohostProvider{}
	known := map[string]bool{}
	for _, r := range p.Resources(ctx) {
		var m resource.MetadataResponse
		r().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "videohost"}, &m)
		var s resource.SchemaResponse
		r().Schema(ctx, resource.SchemaRequest{}, &s)
		known[m.TypeName] = true
		for name := range s.Schema.Attributes {
			known[name] = true
		}
	}
	for _, d := range p.DataSources(ctx) {
		var m datasource.MetadataResponse
		d().Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "videohost"}, &m)
		var s datasource.SchemaResponse
		d().Schema(ctx, datasource.SchemaRequest{}, &s)
		known[m.TypeName] = true
		for name := range s.Schema.Attributes {
			known[name] = true
		}
	}
	for _, e := range p.EphemeralResources(ctx) {
		var m ephemeral.MetadataResponse
		e().Metadata(ctx, ephemeral.MetadataRequest{ProviderTypeName: "videohost"}, &m)
		known[m.TypeName] = true
	}
	for _, l := range p.ListResources(ctx) { // a list resource has the name of the resource it finds
		var m resource.MetadataResponse
		l().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "videohost"}, &m)
		known[m.TypeName] = true
	}
	for _, a := range p.Actions(ctx) {
		var m action.MetadataResponse
		a().Metadata(ctx, action.MetadataRequest{ProviderTypeName: "videohost"}, &m)
		known[m.TypeName] = true
	}
	for _, f := range p.Functions(ctx) {
		var m function.MetadataResponse
		f().Metadata(ctx, function.MetadataRequest{}, &m)
		known[m.Name] = true
	}
	return known
}
