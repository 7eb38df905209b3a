package provider

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/action"
)

// TestActionDocs: the page of every action (templates/actions/*.md, copied into docs/actions by
// make docs; see the comment at the top of each page) holds its description, each attribute
// with its description, and its example file as it is.
func TestActionDocs(t *testing.T) {
	ctx := t.Context()
	root := filepath.Join("..", "..")
	actions := (&videohostProvider{}).Actions(ctx)
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
			text := readText(t, filepath.Join(root, page))
			if !strings.Contains(text, s.Schema.MarkdownDescription) {
				t.Errorf("%s does not hold the description of %s", page, meta.TypeName)
			}
			for name, attr := range s.Schema.Attributes {
				if !strings.Contains(text, "- `"+name+"` (") || !strings.Contains(text, attr.GetMarkdownDescription()) {
					t.Errorf("%s does not describe attribute %s as the schema does", page, name)
				}
			}
			example := readText(t, filepath.Join(root, "examples", "actions", meta.TypeName, "action.tf"))
			if !strings.Contains(text, example) {
				t.Errorf("%s does not hold examples/actions/%s/action.tf as it is", page, meta.TypeName)
			}
		}
	}
}
