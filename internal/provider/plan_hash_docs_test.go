package provider_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
)

// TestInconsistentFinalPlanNamesEveryHash: every attribute that holds a file's SHA-256 taken at
// plan time (`*_sha256` on a resource page) can be the one Terraform names in "Provider produced
// inconsistent final plan" when the file changes after a saved plan, so the troubleshooting
// guide's entry names each of them.
func TestInconsistentFinalPlanNamesEveryHash(t *testing.T) {
	docs := filepath.Join("..", "..", "docs")
	guide := acctest.ReadText(t, filepath.Join(docs, "guides", "troubleshooting.md"))
	start := strings.Index(guide, `**"Provider produced inconsistent final plan"**`)
	if start < 0 {
		t.Fatal(`the troubleshooting guide has no entry for "Provider produced inconsistent final plan"`)
	}
	entry := guide[start:]
	if end := strings.Index(entry, "\n\n"); end > 0 {
		entry = entry[:end]
	}
	pages, err := filepath.Glob(filepath.Join(docs, "resources", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	hash := regexp.MustCompile("(?m)^- `([a-z_]+_sha256)`")
	seen := map[string]bool{}
	for _, p := range pages {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range hash.FindAllStringSubmatch(string(raw), -1) {
			if !seen[m[1]] && !strings.Contains(entry, "`."+m[1]+"`") {
				t.Errorf("the troubleshooting entry for the inconsistent final plan does not name `.%s` (%s):\n%s", m[1], p, entry)
			}
			seen[m[1]] = true
		}
	}
	if len(seen) < 3 {
		t.Errorf("found %d file hash attributes on the resource pages (%v), want at least source_sha256, logo_sha256 and thumbnail_sha256", len(seen), seen)
	}
}
