package provider

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// TestKindTestsLiveInTheirFolder: an acceptance test named for a type of the provider
// (TestAccLiveStream..., TestAccVideosDataSource, TestAccWebhookCheckAction) lives in the folder
// of the package that registers that type, so that a kind's tests are found beside its code.
// The type a name is for is the longest type name, in CamelCase without videohost_, that the
// test's name starts with as a whole word; a test named for no type (TestAccInterruptedApply)
// may live anywhere.
func TestKindTestsLiveInTheirFolder(t *testing.T) {
	folders := typeFolders(t)
	fset := token.NewFileSet()
	found := 0
	err := filepath.WalkDir(".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(name, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "TestAcc") {
				continue
			}
			found++
			camel, folder := kindOfTest(strings.TrimPrefix(fn.Name.Name, "TestAcc"), folders)
			if folder != "" && filepath.ToSlash(filepath.Dir(name)) != folder {
				t.Errorf("%s: %s is a test of %s, which %s registers: move it there", fset.Position(fn.Pos()), fn.Name.Name, camel, folder)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found == 0 {
		t.Fatal("no TestAcc function found: the walk looks in the wrong place")
	}
}

// TestKindOfTest: the rule that TestKindTestsLiveInTheirFolder applies, on names of each shape.
func TestKindOfTest(t *testing.T) {
	folders := map[string]string{"Video": "video", "Videos": "video", "VideoCaption": "videocaption",
		"LiveStream": "livestream", "LiveStreams": "livestream", "Webhook": "webhook", "WebhookCheck": "webhook"}
	for name, want := range map[string]string{
		"VideoDefaultLabels": "video", "VideosDataSource": "video", "VideoCaption_lifecycle": "videocaption",
		"VideoCaptionIdentity": "videocaption", "LiveStreamsServerErrors": "livestream", "WebhookCheckAction": "webhook",
		"Webhook": "webhook", "Videohost": "", "InterruptedApply": "", "LiveQuery": "", "Videotape": "",
	} {
		if _, got := kindOfTest(name, folders); got != want {
			t.Errorf("TestAcc%s: folder %q, want %q", name, got, want)
		}
	}
}

// kindOfTest is the type (in CamelCase) that a test's name without TestAcc is named for, and
// the folder of its package; empty when the name is for no type.
func kindOfTest(name string, folders map[string]string) (camel, folder string) {
	for c, f := range folders {
		rest, ok := strings.CutPrefix(name, c)
		if !ok || len(c) <= len(camel) {
			continue
		}
		if rest != "" && !unicode.IsUpper(rune(rest[0])) && rest[0] != '_' {
			continue // Videotape is not a test of Video
		}
		camel, folder = c, f
	}
	return camel, folder
}

// typeFolders maps each type the provider registers (resources, data sources, ephemeral
// resources, list resources, actions), in CamelCase without videohost_, to the folder of the
// package that defines it, relative to internal/provider.
func typeFolders(t *testing.T) map[string]string {
	t.Helper()
	ctx := t.Context()
	p := &VideohostProvider{}
	out := map[string]string{}
	// The package is the constructor's: a kind's data source may be a generic type of framework.
	add := func(typeName string, constructor any) {
		fn := runtime.FuncForPC(reflect.ValueOf(constructor).Pointer())
		const root = "/internal/provider/"
		name := fn.Name() // .../internal/provider/webhook.NewWebhookResource
		i := strings.Index(name, root)
		if i < 0 {
			t.Fatalf("%s is made by %s, outside internal/provider", typeName, name)
		}
		pkg, _, _ := strings.Cut(name[i+len(root):], ".")
		out[camelCase(strings.TrimPrefix(typeName, "videohost_"))] = pkg
	}
	for _, f := range p.Resources(ctx) {
		r := f()
		var m resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "videohost"}, &m)
		add(m.TypeName, f)
	}
	for _, f := range p.DataSources(ctx) {
		d := f()
		var m datasource.MetadataResponse
		d.Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "videohost"}, &m)
		add(m.TypeName, f)
	}
	for _, f := range p.EphemeralResources(ctx) {
		e := f()
		var m ephemeral.MetadataResponse
		e.Metadata(ctx, ephemeral.MetadataRequest{ProviderTypeName: "videohost"}, &m)
		add(m.TypeName, f)
	}
	for _, f := range p.Actions(ctx) {
		a := f()
		var m action.MetadataResponse
		a.Metadata(ctx, action.MetadataRequest{ProviderTypeName: "videohost"}, &m)
		add(m.TypeName, f)
	}
	if len(out) == 0 {
		t.Fatal("the provider registers no type")
	}
	return out
}

// camelCase is live_stream as LiveStream.
func camelCase(snake string) string {
	var b strings.Builder
	for _, part := range strings.Split(snake, "_") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

// cliUse is a call that starts a Terraform CLI, or sets up a test that does.
var cliUse = regexp.MustCompile(`\b(AccTest|resource\.(Parallel)?Test|NewAccEnv|NewAccEnvBehind|NewTrackEnv|NewCLIWorkdir(With)?|TerraformCLI|DevOverrideCLI)\(`)

// TestCLITestsAreNamedTestAcc: a test that starts a Terraform CLI (directly, through the
// harness's helpers) is named TestAcc..., so that make test runs the others once rather than
// once per CLI (MATRIX_RUN_OTHERS=^TestAcc) and no CLI test is left out of the other CLIs' runs.
func TestCLITestsAreNamedTestAcc(t *testing.T) {
	fset := token.NewFileSet()
	found := 0
	err := filepath.WalkDir(".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(name, "_test.go") {
			return err
		}
		src, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || fn.Body == nil || !strings.HasPrefix(fn.Name.Name, "Test") || fn.Name.Name == "TestMain" {
				continue
			}
			body := string(src[fset.Position(fn.Body.Pos()).Offset:fset.Position(fn.Body.End()).Offset])
			if !cliUse.MatchString(body) {
				continue
			}
			found++
			if !strings.HasPrefix(fn.Name.Name, "TestAcc") {
				t.Errorf("%s: %s starts a Terraform CLI (%s) but is not named TestAcc...: the other CLIs' runs would leave it out",
					fset.Position(fn.Pos()), fn.Name.Name, cliUse.FindString(body))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found == 0 {
		t.Fatal("no test that starts a CLI found: the walk or the pattern is wrong")
	}
}
