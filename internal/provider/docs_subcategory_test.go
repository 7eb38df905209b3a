package provider_test

import (
	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"path/filepath"
	"regexp"
	"testing"
)

// TestDocsSubcategories: every page of a kind (resource, data source, ephemeral resource, list
// resource, action, function) names one of the registry's subcategories in its front matter,
// so that the registry groups the pages by what they manage instead of one long list.
func TestDocsSubcategories(t *testing.T) {
	root := filepath.Join("..", "..", "docs")
	front := regexp.MustCompile(`(?m)^subcategory: "(Videos|Live|Webhooks|Access)"$`)
	var pages []string
	for _, kind := range []string{"resources", "data-sources", "ephemeral-resources", "list-resources", "actions", "functions"} {
		found, err := filepath.Glob(filepath.Join(root, kind, "*.md"))
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, found...)
	}
	if len(pages) == 0 {
		t.Fatal("no pages under docs/")
	}
	for _, p := range pages {
		if !front.MatchString(acctest.ReadText(t, p)) {
			t.Errorf("%s has no subcategory among Videos, Live, Webhooks and Access: set it in its template under templates/", p)
		}
	}
}
