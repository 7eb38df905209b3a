package provider

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestREADMESupportTable: the README holds the support table as supportTable makes it, and
// every test that the table names calls requireCLIFeature with its feature, so that the matrix
// runs it on exactly the CLIs the table says have it.
func TestREADMESupportTable(t *testing.T) {
	readme := readText(t, filepath.Join("..", "..", "README.md"))
	if want := supportTable(); !strings.Contains(readme, want) {
		t.Errorf("README.md does not hold the support table; it should read:\n%s", want)
	}
	sources, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	for _, s := range sources {
		b, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(b)
	}
	text := all.String()
	for _, f := range cliFeatures {
		for _, name := range f.tests {
			start := regexp.MustCompile(`(?m)^func ` + name + `\(t \*testing\.T\) \{$`).FindStringIndex(text)
			if start == nil {
				t.Errorf("the support table names %s, which is not a test of this package", name)
				continue
			}
			body := text[start[1]:]
			if end := strings.Index(body, "\n}\n"); end >= 0 {
				body = body[:end]
			}
			if !strings.Contains(body, "requireCLIFeature(t, "+f.ident+")") {
				t.Errorf("%s does not call requireCLIFeature(t, %s)", name, f.ident)
			}
		}
	}
}

func TestCLIFeatureSupportedBy(t *testing.T) {
	for _, tc := range []struct {
		f        cliFeature
		openTofu bool
		version  string
		want     bool
	}{
		{featureIdentity, false, "1.11.4", false},
		{featureIdentity, false, "1.12.0", true},
		{featureIdentity, true, "1.12.6", true},
		{featureQuery, true, "1.14.0", false},
		{featureActions, false, "1.15.9", true},
		{featureMoveFromRestapi, true, "1.9.1", false},
	} {
		if got := tc.f.supportedBy(tc.openTofu, tc.version); got != tc.want {
			t.Errorf("%s on OpenTofu=%v %s: %v, want %v", tc.f.name, tc.openTofu, tc.version, got, tc.want)
		}
	}
}
