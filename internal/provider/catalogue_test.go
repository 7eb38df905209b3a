package provider

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// Every list that describes the provider's catalogue is checked both ways against the
// registrations of provider.go: a kind registered without its row, or a row without its kind,
// fails here. The lists: the tables of README.md, DESIGN.md and docs/index.md (its template), the
// doc.go of each kind's folder, the folder map of this package's doc.go, and the client's file map
// in internal/videohost/client.go.

// registration is one registered name: its category as the tables name it ("Resources",
// "Data sources", ...), its Terraform name and the folder of the provider whose constructor
// registers it.
type registration struct {
	category, name, folder string
}

// registrations lists what the provider registers, with the folder of each constructor.
func registrations(t *testing.T) []registration {
	t.Helper()
	ctx := t.Context()
	p := &VideohostProvider{}
	var out []registration
	add := func(category, name string, constructor any) {
		out = append(out, registration{category, name, folderOf(constructor)})
	}
	for _, r := range p.Resources(ctx) {
		var m resource.MetadataResponse
		r().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "videohost"}, &m)
		add("Resources", m.TypeName, r)
	}
	for _, l := range p.ListResources(ctx) {
		var m resource.MetadataResponse
		l().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "videohost"}, &m)
		add("List resources", m.TypeName, l)
	}
	for _, d := range p.DataSources(ctx) {
		var m datasource.MetadataResponse
		d().Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "videohost"}, &m)
		add("Data sources", m.TypeName, d)
	}
	for _, e := range p.EphemeralResources(ctx) {
		var m ephemeral.MetadataResponse
		e().Metadata(ctx, ephemeral.MetadataRequest{ProviderTypeName: "videohost"}, &m)
		add("Ephemeral resources", m.TypeName, e)
	}
	for _, a := range p.Actions(ctx) {
		var m action.MetadataResponse
		a().Metadata(ctx, action.MetadataRequest{ProviderTypeName: "videohost"}, &m)
		add("Actions", m.TypeName, a)
	}
	for _, f := range p.Functions(ctx) {
		var m function.MetadataResponse
		f().Metadata(ctx, function.MetadataRequest{}, &m)
		add("Functions", "provider::videohost::"+m.Name, f)
	}
	if len(out) < 30 {
		t.Fatalf("the provider registers %d names, fewer than it has: registrations is broken", len(out))
	}
	return out
}

// folderOf is the provider folder (video, livestream, ...) of a constructor's package.
func folderOf(constructor any) string {
	name := runtime.FuncForPC(reflect.ValueOf(constructor).Pointer()).Name()
	name = strings.TrimPrefix(name, "github.com/videohost/terraform-provider-videohost/internal/provider/")
	pkg, _, _ := strings.Cut(name, ".")
	return pkg
}

// catalogueNames are the provider's names in a text: videohost_ names in backticks or links, and
// provider functions.
var catalogueNames = regexp.MustCompile("`(videohost_[a-z0-9_]+|provider::videohost::[a-z_]+)")

// tableRows reads the catalogue table of a Markdown text: for each row whose first cell is a
// category, the names its second cell holds.
func tableRows(text string) map[string][]string {
	rows := map[string][]string{}
	for _, line := range strings.Split(text, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 {
			continue
		}
		category := strings.TrimSpace(cells[1])
		switch category {
		case "Resources", "List resources", "Data sources", "Ephemeral resources", "Actions", "Functions":
		default:
			continue
		}
		for _, m := range catalogueNames.FindAllStringSubmatch(strings.Join(cells[2:], "|"), -1) {
			rows[category] = append(rows[category], m[1])
		}
	}
	return rows
}

// sameNames fails t where a list and the registrations differ, naming what to add or remove.
func sameNames(t *testing.T, where, what string, listed, registered []string) {
	t.Helper()
	sameAs(t, where, what, "the provider's registrations", listed, registered)
}

// sameAs fails t where a list and what it describes differ: source names what it describes.
func sameAs(t *testing.T, where, what, source string, listed, have []string) {
	t.Helper()
	for _, n := range have {
		if !slices.Contains(listed, n) {
			t.Errorf("%s: %s lacks %s, one of %s: add it", where, what, n, source)
		}
	}
	for _, n := range listed {
		if !slices.Contains(have, n) {
			t.Errorf("%s: %s names %s, which is not one of %s: remove it", where, what, n, source)
		}
	}
}

// byCategory groups the registered names by category, each sorted without repeats.
func byCategory(regs []registration) map[string][]string {
	out := map[string][]string{}
	for _, r := range regs {
		if !slices.Contains(out[r.category], r.name) {
			out[r.category] = append(out[r.category], r.name)
		}
	}
	for _, names := range out {
		sort.Strings(names)
	}
	return out
}

// TestCatalogueTables: the tables of README.md, DESIGN.md and docs/index.md (and its template)
// name exactly what the provider registers, category by category. A table may describe the list
// resources as "one per resource" without names: then the provider must register one list
// resource per resource.
func TestCatalogueTables(t *testing.T) {
	regs := byCategory(registrations(t))
	sameNames(t, "provider.go", "the list resources", regs["List resources"], regs["Resources"])
	for _, file := range []string{"README.md", "DESIGN.md", "docs/index.md", "templates/index.md.tmpl"} {
		rows := tableRows(readRepoFile(t, file))
		if len(rows) == 0 {
			t.Errorf("%s has no catalogue table (rows | Resources | ... |)", file)
			continue
		}
		for category, registered := range regs {
			listed, ok := rows[category]
			if !ok && category == "List resources" {
				continue // "one per resource", checked above
			}
			if !ok {
				t.Errorf("%s: the catalogue table has no row %q", file, category)
				continue
			}
			sameNames(t, file, "the row "+category, dedupe(listed), registered)
		}
	}
}

// TestKindDocsNameTheirRegistrations: each folder of the provider that registers a name has a
// doc.go whose package comment names exactly the names registered from that folder; and the
// package comment of this folder's doc.go names every folder of the provider, and no other.
func TestKindDocsNameTheirRegistrations(t *testing.T) {
	byFolder := map[string][]string{}
	for _, r := range registrations(t) {
		if r.folder == "provider" {
			continue
		}
		if !slices.Contains(byFolder[r.folder], r.name) {
			byFolder[r.folder] = append(byFolder[r.folder], r.name)
		}
	}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var folders []string
	for _, e := range entries {
		if e.IsDir() && e.Name() != "testdata" {
			folders = append(folders, e.Name())
		}
	}
	for folder, registered := range byFolder {
		doc := readRepoFile(t, filepath.Join("internal", "provider", folder, "doc.go"))
		var listed []string
		for _, m := range catalogueNames.FindAllStringSubmatch(doc, -1) {
			listed = append(listed, m[1])
		}
		sameNames(t, folder+"/doc.go", "the package comment", dedupe(listed), registered)
	}
	root := readRepoFile(t, filepath.Join("internal", "provider", "doc.go"))
	listed := dedupe(regexp.MustCompile(`(?m)^//   - ([a-z]+)/:`).FindAllString(root, -1))
	for i, l := range listed {
		listed[i] = strings.TrimSuffix(strings.TrimPrefix(l, "//   - "), "/:")
	}
	sameAs(t, "doc.go", "the folder map", "the provider's folders", listed, folders)
}

// TestClientFileMap: the package comment of internal/videohost/client.go names every file of
// the client outside the tests, and only those.
func TestClientFileMap(t *testing.T) {
	dir := filepath.Join("..", "videohost")
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var have []string
	for _, f := range files {
		if !strings.HasSuffix(f, "_test.go") {
			have = append(have, filepath.Base(f))
		}
	}
	doc := readRepoFile(t, filepath.Join("internal", "videohost", "client.go"))
	doc, _, _ = strings.Cut(doc, "\npackage videohost")
	listed := dedupe(slices.DeleteFunc(regexp.MustCompile(`[a-z_0-9]+\.go`).FindAllString(doc, -1),
		func(name string) bool { return strings.HasSuffix(name, "_test.go") }))
	sameAs(t, "internal/videohost/client.go", "the file map", "the folder's files", listed, have)
}

// readRepoFile reads a file of the checkout by its path from the root.
func readRepoFile(t *testing.T, path string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", path))
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// dedupe sorts names and drops repeats.
func dedupe(names []string) []string {
	out := slices.Clone(names)
	sort.Strings(out)
	return slices.Compact(out)
}
