package provider_test

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/provider"
)

// readmeMaxLines is the most the README may hold: it is what a user reads first, so it says
// what the provider is, how to start, install and configure it, and where the rest is
// (BENCHMARKS.md, DESIGN.md, CONTRIBUTING.md, docs/).
const readmeMaxLines = 350

// TestREADMEFits: the README stays within readmeMaxLines lines, links the pages that hold what
// it leaves out, offers the getting-started example, and keeps make test as its test command
// (CI calls it).
func TestREADMEFits(t *testing.T) {
	readme := acctest.ReadText(t, filepath.Join("..", "..", "README.md"))
	if n := strings.Count(readme, "\n"); n > readmeMaxLines {
		t.Errorf("README.md has %d lines, more than %d: move detail to CONTRIBUTING.md, DESIGN.md, BENCHMARKS.md or docs/", n, readmeMaxLines)
	}
	for _, want := range []string{"(CONTRIBUTING.md", "(DESIGN.md", "(BENCHMARKS.md", "(docs/index.md)",
		"examples/getting-started", "make test", "make install"} {
		if !strings.Contains(readme, want) {
			t.Errorf("README.md does not hold %q", want)
		}
	}
}

// TestREADMEConfigurationTable: the README's configuration table has a row for every argument
// of the provider's schema.
func TestREADMEConfigurationTable(t *testing.T) {
	readme := acctest.ReadText(t, filepath.Join("..", "..", "README.md"))
	var resp fwprovider.SchemaResponse
	provider.New("test")().Schema(t.Context(), fwprovider.SchemaRequest{}, &resp)
	names := make([]string, 0, len(resp.Schema.Attributes))
	for name := range resp.Schema.Attributes {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if !strings.Contains(readme, "\n| `"+name+"` |") {
			t.Errorf("the README's configuration table has no row for the provider argument %s", name)
		}
	}
}
