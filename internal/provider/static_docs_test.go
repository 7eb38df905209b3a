package provider

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/list"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
)

// The pages of list resources and the identity part of resource pages are written by hand
// (templates/list-resources/*.md, templates/resources/*.md.tmpl): tfplugindocs renders them from
// `terraform providers schema -json`, which Terraform older than 1.14 (list resources) and 1.12
// (identities) does not print, so `make docs` would depend on the terraform on PATH. These tests
// keep the hand-written parts true to the schemas.

// TestListResourceDocs: the page of every list resource holds its description, each of its
// attributes with its description, and its example file as it is.
func TestListResourceDocs(t *testing.T) {
	ctx := t.Context()
	root := filepath.Join("..", "..")
	for _, newL := range (&videohostProvider{}).ListResources(ctx) {
		l := newL()
		var meta fwresource.MetadataResponse
		l.Metadata(ctx, fwresource.MetadataRequest{ProviderTypeName: "videohost"}, &meta)
		var s list.ListResourceSchemaResponse
		l.ListResourceConfigSchema(ctx, list.ListResourceSchemaRequest{}, &s)
		short := strings.TrimPrefix(meta.TypeName, "videohost_")
		page := readText(t, filepath.Join(root, "docs", "list-resources", short+".md"))
		if !strings.Contains(page, s.Schema.MarkdownDescription) {
			t.Errorf("docs/list-resources/%s.md does not hold the description of %s", short, meta.TypeName)
		}
		for name, a := range s.Schema.Attributes {
			if !strings.Contains(page, "- `"+name+"` (") || !strings.Contains(page, a.GetMarkdownDescription()) {
				t.Errorf("docs/list-resources/%s.md does not describe attribute %s as the schema does", short, name)
			}
		}
		example := readText(t, filepath.Join(root, "examples", "list-resources", meta.TypeName, "list-resource.tfquery.hcl"))
		if !strings.Contains(page, example) {
			t.Errorf("docs/list-resources/%s.md does not hold examples/list-resources/%s/list-resource.tfquery.hcl as it is", short, meta.TypeName)
		}
	}
}

// TestResourceDocsHoldTheIdentity: the page of every resource with an identity lists each
// identity attribute with its description.
func TestResourceDocsHoldTheIdentity(t *testing.T) {
	ctx := t.Context()
	root := filepath.Join("..", "..")
	for _, newR := range New("test")().Resources(ctx) {
		r, ok := newR().(fwresource.ResourceWithIdentity)
		if !ok {
			continue
		}
		var meta fwresource.MetadataResponse
		r.Metadata(ctx, fwresource.MetadataRequest{ProviderTypeName: "videohost"}, &meta)
		var s fwresource.IdentitySchemaResponse
		r.IdentitySchema(ctx, fwresource.IdentitySchemaRequest{}, &s)
		short := strings.TrimPrefix(meta.TypeName, "videohost_")
		page := readText(t, filepath.Join(root, "docs", "resources", short+".md"))
		if !strings.Contains(page, "### Identity Schema") {
			t.Errorf("docs/resources/%s.md has no identity schema", short)
		}
		for name, a := range s.IdentitySchema.Attributes {
			if !strings.Contains(page, "- `"+name+"` (String) "+a.GetDescription()) {
				t.Errorf("docs/resources/%s.md does not describe identity attribute %s as the schema does", short, name)
			}
		}
	}
}

func readText(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
