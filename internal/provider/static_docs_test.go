package provider_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/list"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/provider"
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
	for _, newL := range (&provider.VideohostProvider{}).ListResources(ctx) {
		l := newL()
		var meta fwresource.MetadataResponse
		l.Metadata(ctx, fwresource.MetadataRequest{ProviderTypeName: "videohost"}, &meta)
		var s list.ListResourceSchemaResponse
		l.ListResourceConfigSchema(ctx, list.ListResourceSchemaRequest{}, &s)
		short := strings.TrimPrefix(meta.TypeName, "videohost_")
		page := acctest.ReadText(t, filepath.Join(root, "docs", "list-resources", short+".md"))
		if !strings.Contains(page, s.Schema.MarkdownDescription) {
			t.Errorf("docs/list-resources/%s.md does not hold the description of %s", short, meta.TypeName)
		}
		for name, a := range s.Schema.Attributes {
			if !strings.Contains(page, "- `"+name+"` (") || !strings.Contains(page, a.GetMarkdownDescription()) {
				t.Errorf("docs/list-resources/%s.md does not describe attribute %s as the schema does", short, name)
			}
		}
		example := acctest.ReadText(t, filepath.Join(root, "examples", "list-resources", meta.TypeName, "list-resource.tfquery.hcl"))
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
	for _, newR := range provider.New("test")().Resources(ctx) {
		r, ok := newR().(fwresource.ResourceWithIdentity)
		if !ok {
			continue
		}
		var meta fwresource.MetadataResponse
		r.Metadata(ctx, fwresource.MetadataRequest{ProviderTypeName: "videohost"}, &meta)
		var s fwresource.IdentitySchemaResponse
		r.IdentitySchema(ctx, fwresource.IdentitySchemaRequest{}, &s)
		short := strings.TrimPrefix(meta.TypeName, "videohost_")
		page := acctest.ReadText(t, filepath.Join(root, "docs", "resources", short+".md"))
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

// TestDocsStandAlone: what a user reads (the README, CHANGELOG, docs/, templates/, examples/ and
// the comments of the Go sources) stands alone: no pointer to a contract file outside the
// repository, no doubled noun, no watermark id that only one emulator run would know, and the
// troubleshooting guide's INFO row names the upload progress line that the video page promises.
func TestDocsStandAlone(t *testing.T) {
	root := filepath.Join("..", "..")
	banned := []string{"shared/spec", "../shared/design", "chapter file's file", "chapter file file", "file file", "watermark_2Ld0"}
	var pages []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		switch filepath.Ext(p) {
		case ".md", ".tmpl", ".tf", ".go":
			if !strings.HasSuffix(p, "_test.go") {
				pages = append(pages, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		text := acctest.ReadText(t, p)
		for _, b := range banned {
			if strings.Contains(text, b) {
				t.Errorf("%s holds %q", p, b)
			}
		}
	}
	video := acctest.ReadText(t, filepath.Join(root, "docs", "resources", "video.md"))
	if strings.Contains(video, "opacity` (String) The watermark's opacity, such as `10px`") {
		t.Error("docs/resources/video.md gives a length as the example of the watermark's opacity")
	}
	guide := acctest.ReadText(t, filepath.Join(root, "docs", "guides", "troubleshooting.md"))
	if !strings.Contains(guide, "`videohost upload progress`") {
		t.Error("the troubleshooting guide's log table does not name the upload progress line")
	}
}

// TestActionDocs: the page of every action (templates/actions/*.md, copied into docs/actions by
// make docs; see the comment at the top of each page) holds its description, each attribute
// with its description, and its example file as it is.
func TestActionDocs(t *testing.T) {
	ctx := t.Context()
	root := filepath.Join("..", "..")
	actions := (&provider.VideohostProvider{}).Actions(ctx)
	if len(actions) == 0 {
		t.Fatal("the provider has no actions")
	}
	for _, newA := range actions {
		a := newA()
		var meta action.MetadataResponse
		a.Metadata(ctx, action.MetadataRequest{ProviderTypeName: "videohost"}, &meta)
		var s action.SchemaResponse
		a.Schema(ctx, action.SchemaRequest{}, &s)
		if diags := s.Schema.ValidateImplementation(ctx); diags.HasError() {
			t.Errorf("%s: %v", meta.TypeName, diags)
		}
		short := strings.TrimPrefix(meta.TypeName, "videohost_")
		for _, page := range []string{filepath.Join("templates", "actions", short+".md"), filepath.Join("docs", "actions", short+".md")} {
			text := acctest.ReadText(t, filepath.Join(root, page))
			if !strings.Contains(text, s.Schema.MarkdownDescription) {
				t.Errorf("%s does not hold the description of %s", page, meta.TypeName)
			}
			for name, attr := range s.Schema.Attributes {
				if !strings.Contains(text, "- `"+name+"` (") || !strings.Contains(text, attr.GetMarkdownDescription()) {
					t.Errorf("%s does not describe attribute %s as the schema does", page, name)
				}
			}
			example := acctest.ReadText(t, filepath.Join(root, "examples", "actions", meta.TypeName, "action.tf"))
			if !strings.Contains(text, example) {
				t.Errorf("%s does not hold examples/actions/%s/action.tf as it is", page, meta.TypeName)
			}
		}
	}
}
