package provider_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
)

// TestREADMESupportTable: the README holds the support table as supportTable makes it, and
// every test that the table names calls requireCLIFeature with its feature, so that the matrix
// runs it on exactly the CLIs the table says have it.
func TestREADMESupportTable(t *testing.T) {
	readme := acctest.ReadText(t, filepath.Join("..", "..", "README.md"))
	if want := acctest.SupportTable(); !strings.Contains(readme, want) {
		t.Errorf("README.md does not hold the support table; it should read:\n%s", want)
	}
	var all strings.Builder
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return err
		}
		b, err := os.ReadFile(p)
		all.Write(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	text := all.String()
	for _, f := range acctest.CliFeatures {
		for _, name := range f.Tests {
			start := regexp.MustCompile(`(?m)^func ` + name + `\(t \*testing\.T\) \{$`).FindStringIndex(text)
			if start == nil {
				t.Errorf("the support table names %s, which is not a test of the provider", name)
				continue
			}
			body := text[start[1]:]
			if end := strings.Index(body, "\n}\n"); end >= 0 {
				body = body[:end]
			}
			if !strings.Contains(body, "RequireCLIFeature(t, acctest."+f.Ident+")") {
				t.Errorf("%s does not call acctest.RequireCLIFeature(t, acctest.%s)", name, f.Ident)
			}
		}
	}
}

func TestCLIFeatureSupportedBy(t *testing.T) {
	for _, tc := range []struct {
		f        acctest.CliFeature
		openTofu bool
		version  string
		want     bool
	}{
		{acctest.FeatureIdentity, false, "1.11.4", false},
		{acctest.FeatureIdentity, false, "1.12.0", true},
		{acctest.FeatureIdentity, true, "1.12.6", true},
		{acctest.FeatureQuery, true, "1.14.0", false},
		{acctest.FeatureActions, false, "1.15.9", true},
		{acctest.FeatureMoveFromRestapi, true, "1.9.1", false},
	} {
		if got := tc.f.SupportedBy(tc.openTofu, tc.version); got != tc.want {
			t.Errorf("%s on OpenTofu=%v %s: %v, want %v", tc.f.Name, tc.openTofu, tc.version, got, tc.want)
		}
	}
}
