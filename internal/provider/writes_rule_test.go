package provider_test

import (
	"fmt"
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
// The rule is checked on types, by the called method's own receiver: whatever expression yields
// the method (a field, a variable the client was copied into, a function's result, a struct that
// embeds the client), a call, a method value or a method expression of a method declared on
// *videohost.Client is a use of it. A method of an interface is a use too when the client has a
// method of the same name and signature: the interface's value may be the client, and which one
// it holds is known only when the program runs, so the rule takes the conservative reading that
// it is.

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
// tests: calls, method values and method expressions alike, through the client, a struct that
// embeds it or an interface the client may stand behind.
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
	methods := clientMethods(t, pkgs)
	var uses []clientUse
	for _, pkg := range pkgs {
		for _, f := range pkg.Syntax {
			ast.Inspect(f, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				s := pkg.TypesInfo.Selections[sel]
				if s == nil || s.Kind() == types.FieldVal {
					return true
				}
				fn, ok := s.Obj().(*types.Func)
				if !ok || !isClientMethod(fn, methods) {
					return true
				}
				p := pkg.Fset.Position(sel.Sel.Pos())
				uses = append(uses, clientUse{pos: p.String(), file: p.Filename, method: fn.Name(),
					text: types.ExprString(sel)})
				return true
			})
		}
	}
	return uses
}

// clientMethods returns the methods of *videohost.Client by name, from the type information of
// the client's package as the provider's packages import it.
func clientMethods(t *testing.T, pkgs []*packages.Package) map[string]*types.Func {
	t.Helper()
	var client *types.Package
	for _, p := range pkgs {
		for _, imp := range p.Types.Imports() {
			if imp.Path() == clientPath {
				client = imp
			}
		}
	}
	if client == nil {
		t.Fatalf("no package of the provider imports %s: the search is broken", clientPath)
	}
	obj := client.Scope().Lookup("Client")
	if obj == nil {
		t.Fatalf("%s has no type Client", clientPath)
	}
	out := map[string]*types.Func{}
	ms := types.NewMethodSet(types.NewPointer(obj.Type()))
	for i := range ms.Len() {
		fn := ms.At(i).Obj().(*types.Func) //nolint:forcetypeassert // a method set holds methods only.
		out[fn.Name()] = fn
	}
	return out
}

// isClientMethod reports whether fn, the method a selector resolves to, is one of the client's:
// declared on videohost.Client (promoted through any embedding, the selection still resolves to
// it), or a method of an interface that has the name and the signature of one of the client's.
func isClientMethod(fn *types.Func, methods map[string]*types.Func) bool {
	recv := fn.Type().(*types.Signature).Recv() //nolint:forcetypeassert // a *types.Func's type is a signature.
	if recv == nil {
		return false
	}
	if isClient(recv.Type()) {
		return true
	}
	if !types.IsInterface(recv.Type()) {
		return false
	}
	m, ok := methods[fn.Name()]
	// types.Identical compares the parameters and results of two signatures, not their receivers.
	return ok && types.Identical(fn.Type(), m.Type())
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

// writesRuleMutant is appended to a copy of video/model.go, a file from which nothing may be
// sent. Each line marked "escape:" sends through a different way of reaching the client's
// DeleteVideo, and the rule must name it by its line; the line marked "not a client method:" calls
// an interface method of the same name with another signature, which the client cannot stand
// behind, and the rule must leave it alone.
const writesRuleMutant = `
func mutantAlias(ctx context.Context, pd *framework.ProviderData) error {
	c := pd.Client
	return c.DeleteVideo(ctx, "vi1") // escape: a copy of the client in a local variable
}

func mutantMethodValue(pd *framework.ProviderData) func(context.Context, string) error {
	return pd.Client.DeleteVideo // escape: a method value, called later
}

func mutantMethodExpression(ctx context.Context, pd *framework.ProviderData) error {
	del := (*videohost.Client).DeleteVideo // escape: a method expression
	return del(pd.Client, ctx, "vi1")
}

type mutantWrapped struct{ *videohost.Client }

func mutantEmbedded(ctx context.Context, pd *framework.ProviderData) error {
	w := mutantWrapped{pd.Client}
	return w.DeleteVideo(ctx, "vi1") // escape: a struct that embeds the client
}

type mutantDeleter interface {
	DeleteVideo(ctx context.Context, id string) error
}

func mutantInterface(ctx context.Context, pd *framework.ProviderData) error {
	var d mutantDeleter = pd.Client
	return d.DeleteVideo(ctx, "vi1") // escape: an interface the client stands behind
}

type mutantOther interface{ DeleteVideo(id string) }

func mutantOtherInterface(o mutantOther) {
	o.DeleteVideo("vi1") // not a client method: another signature
}
`

// TestWritesRuleCatchesEveryEscape runs the rule on a mutated copy of a kind's model (an
// overlay: nothing is written to disk) and wants exactly the lines of writesRuleMutant marked
// "escape:" reported, each by its file and line: a rule that read the type of the expression
// before the dot, not the called method's own receiver, let the embedded client and the
// interface pass.
func TestWritesRuleCatchesEveryEscape(t *testing.T) {
	model, err := filepath.Abs(filepath.Join("video", "model.go"))
	if err != nil {
		t.Fatal(err)
	}
	src := acctest.ReadText(t, model)
	for _, imp := range []string{`"context"`, `"github.com/videohost/terraform-provider-videohost/internal/videohost"`} {
		if !strings.Contains(src, imp) {
			t.Fatalf("video/model.go no longer imports %s: change the mutant", imp)
		}
	}
	src += writesRuleMutant
	want := map[string]string{} // file:line of each escape, and the line
	for i, line := range strings.Split(src, "\n") {
		if strings.Contains(line, "// escape:") {
			want[fmt.Sprintf("%s:%d", model, i+1)] = strings.TrimSpace(line)
		}
	}
	if len(want) != 5 {
		t.Fatalf("the mutant marks %d escapes, want 5", len(want))
	}
	got := map[string]string{} // file:line of each report in the mutated file, and the report
	for _, m := range misplaced(clientUses(t, map[string][]byte{model: []byte(src)})) {
		if at := reportLine.FindStringSubmatch(m); at != nil && strings.HasPrefix(at[1], model+":") {
			got[at[1]] = m
		}
	}
	for at, line := range want {
		if _, ok := got[at]; !ok {
			t.Errorf("the rule let the escape at %s pass: %s", at, line)
		}
	}
	for at, m := range got {
		if _, ok := want[at]; !ok {
			t.Errorf("the rule reports a line that sends nothing through the client: %s", m)
		}
		if !strings.Contains(m, "DeleteVideo is a write") {
			t.Errorf("the rule reports %s as other than a write of DeleteVideo: %s", at, m)
		}
	}
}

// reportLine takes the file and line (without the column) from the start of a report.
var reportLine = regexp.MustCompile(`^(.+\.go:\d+):\d+: `)
