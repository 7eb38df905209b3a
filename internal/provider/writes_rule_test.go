package provider_test

import (
	"go/ast"
	"go/types"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"golang.org/x/tools/go/packages"
)

// The rule of doc.go: a request that changes something on the service is sent from a writes
// file of its kind's folder (writes.go, <what>_writes.go), an action, an ephemeral resource, the
// deletion of unclosed tokens after Serve or the kind's sweeper (sweep.go, for make sweep), so that a reader who changes a retry or a request body
// finds every write of a kind in one place; a read is sent from the read paths named here too.
// The rule is checked on types: whatever expression yields the client (a field, a variable it was
// copied into, a function's result), a use of one of its methods is found by the method's
// receiver, *videohost.Client.

// clientReads are the client's methods that only read; clientLocal those that send nothing.
var (
	clientReads = regexp.MustCompile(`^(Get|Lookup|List|Walk)[A-Z]`)
	clientLocal = map[string]bool{"RateLimitWaits": true, "Detached": true, "AuthScheme": true, "BaseURL": true,
		"Environment": true, "UserAgent": true}
)

// writePaths and readPaths are the files (by their base name, in any folder of the provider)
// from which a write or a read may be sent.
var (
	writePaths = regexp.MustCompile(`^((.*_)?writes|.*_action|(.*_)?ephemeral_resource|unclosed_tokens|sweep)\.go$`)
	readPaths  = regexp.MustCompile(`^((.*_)?writes|.*_action|(.*_)?ephemeral_resource|sweep|(.*_)?resource|(.*_)?data_source|` +
		`(.*_)?list_resource|managed_resource|(.*_)?plan|wait)\.go$`)
)

const clientPath = "github.com/videohost/terraform-provider-videohost/internal/videohost"

// clientUse is one use of a client method: where, which method, and the expression.
type clientUse struct {
	pos    string
	file   string
	method string
	text   string
}

// clientUses loads the provider's packages (with overlay replacing files' contents, for the
// test of a mutated copy) and returns every use of a method of *videohost.Client outside the
// tests: calls, method values and method expressions alike.
func clientUses(t *testing.T, overlay map[string][]byte) []clientUse {
	t.Helper()
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes |
		packages.NeedTypesInfo, Overlay: overlay}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	if n := packages.PrintErrors(pkgs); n > 0 {
		t.Fatalf("loading the provider's packages: %d errors", n)
	}
	var uses []clientUse
	for _, pkg := range pkgs {
		for _, f := range pkg.Syntax {
			ast.Inspect(f, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				s := pkg.TypesInfo.Selections[sel]
				if s == nil || s.Kind() == types.FieldVal || !isClient(s.Recv()) {
					return true
				}
				p := pkg.Fset.Position(sel.Pos())
				uses = append(uses, clientUse{pos: p.String(), file: p.Filename, method: sel.Sel.Name,
					text: types.ExprString(sel)})
				return true
			})
		}
	}
	return uses
}

// isClient reports whether t is videohost.Client or a pointer to it.
func isClient(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Name() == "Client" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == clientPath
}

// misplaced are the uses that the rule refuses, as messages.
func misplaced(uses []clientUse) []string {
	var out []string
	for _, u := range uses {
		name := filepath.Base(u.file)
		allowed := clientLocal[u.method] || writePaths.MatchString(name) ||
			(clientReads.MatchString(u.method) && readPaths.MatchString(name))
		if allowed {
			continue
		}
		kind := "write"
		if clientReads.MatchString(u.method) {
			kind = "read"
		}
		out = append(out, u.pos+": "+u.text+" is a "+kind+" sent outside its paths: move it into the kind's "+
			"writes.go (writes_rule_test.go names the paths)")
	}
	return out
}

// TestRequestsAreSentFromTheirPaths fails on each use of a client method that a file outside
// the paths above makes, in every folder of the provider, naming the file, the line and the use.
func TestRequestsAreSentFromTheirPaths(t *testing.T) {
	uses := clientUses(t, nil)
	if len(uses) < 50 {
		t.Fatalf("found %d uses of the client in the provider, fewer than it makes: the search is broken", len(uses))
	}
	for _, m := range misplaced(uses) {
		t.Error(m)
	}
}

// TestWritesRuleCatchesAnAlias runs the rule on a mutated copy of a kind's model (an overlay:
// nothing is written to disk) that deletes a video through a copy of the client in a local
// variable, which a rule on syntax alone let pass, and through a method value.
func TestWritesRuleCatchesAnAlias(t *testing.T) {
	model, err := filepath.Abs(filepath.Join("video", "model.go"))
	if err != nil {
		t.Fatal(err)
	}
	src := acctest.ReadText(t, model) + `
func mutantDelete(ctx context.Context, pd *framework.ProviderData) error {
	c := pd.Client
	del := c.DeleteVideo
	_ = del
	return c.DeleteVideo(ctx, "vi1")
}
`
	if !strings.Contains(src, `"context"`) {
		t.Fatal("video/model.go no longer imports context: change the mutant")
	}
	got := misplaced(clientUses(t, map[string][]byte{model: []byte(src)}))
	var inModel []string
	for _, m := range got {
		if strings.Contains(m, "model.go") {
			inModel = append(inModel, m)
		}
	}
	if len(inModel) != 2 || !strings.Contains(inModel[0], "c.DeleteVideo is a write") {
		t.Fatalf("the rule on the mutated copy found %q, want the method value and the call of c.DeleteVideo in video/model.go", got)
	}
}
