package provider_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var (
	// usesLine is a step's uses: key, first in its step ("- uses: X") or not ("  uses: X").
	usesLine = regexp.MustCompile(`^(\s*)(?:-\s+)?uses:\s*(\S+)(.*)$`)
	// pinnedByCommit is a third-party action at the full SHA of a commit, with the release's tag
	// in a comment so that a reader (and Dependabot) knows which release it is.
	pinnedByCommit = regexp.MustCompile(`^[\w.-]+/[\w.-]+(/[\w./-]+)?@[0-9a-f]{40}$`)
	tagComment     = regexp.MustCompile(`^\s+#\s+v[0-9]+(\.[0-9]+){1,2}\s*$`)
	// ownAction is this repository's action, which its docs pin by a release tag or a commit.
	ownAction = regexp.MustCompile(`^videohost/terraform-provider-videohost/\.github/actions/[\w-]+@(v[0-9]+\.[0-9]+\.[0-9]+|[0-9a-f]{40})$`)
)

// stepSettings says, for the actions that install a toolchain, which setting must name its
// version: a moving "stable" Go or "latest" Terraform builds or generates other bytes tomorrow
// (another Go's provider binary has another hash, which a committed lock file refuses).
var stepSettings = map[string]string{
	"actions/setup-go":          "go-version-file:",
	"hashicorp/setup-terraform": "terraform_version:",
	"opentofu/setup-opentofu":   "tofu_version:",
}

// TestCIPins: in the workflows, the action's metadata and every page that shows a workflow
// (README.md, CONTRIBUTING.md, docs/, templates/), every third-party action is pinned by the full
// SHA of a commit with its release tag in a comment, this repository's action by a release tag or
// a commit, setup-go takes go.mod's Go (go-version-file, never go-version), and setup-terraform
// and setup-opentofu name the CLI's version.
func TestCIPins(t *testing.T) {
	root := filepath.Join("..", "..")
	var files []string
	for _, dir := range []string{".github", "docs", "templates"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if ext := filepath.Ext(path); !d.IsDir() && (ext == ".yml" || ext == ".yaml" || ext == ".md" || ext == ".tmpl") {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	files = append(files, filepath.Join(root, "README.md"), filepath.Join(root, "CONTRIBUTING.md"))
	seen := 0
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		for i, line := range lines {
			if strings.HasPrefix(strings.TrimSpace(line), "#") {
				continue
			}
			m := usesLine.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			seen++
			where, ref, rest := file+":"+strconv.Itoa(i+1), m[2], m[3]
			switch {
			case strings.HasPrefix(ref, "./"):
			case strings.HasPrefix(ref, "videohost/terraform-provider-videohost/"):
				if !ownAction.MatchString(ref) {
					t.Errorf("%s: %s: pin this repository's action by a release tag (@v0.1.0) or a commit's full SHA", where, ref)
				}
			case !pinnedByCommit.MatchString(ref) || !tagComment.MatchString(rest):
				t.Errorf("%s: %s%s: pin a third-party action by the full SHA of its release's commit, with the tag in a comment (uses: owner/name@SHA # vX.Y.Z)", where, ref, rest)
			}
			action, _, _ := strings.Cut(ref, "@")
			setting, ok := stepSettings[action]
			if !ok {
				continue
			}
			step := stepLines(lines[i+1:], len(m[1])+strings.Index(line[len(m[1]):], "uses:"))
			value, found := "", false
			for _, l := range step {
				if k, v, ok := strings.Cut(strings.TrimSpace(l), " "); ok && k == setting {
					value, found = strings.Trim(strings.TrimSpace(v), `"'`), true
				}
				if strings.HasPrefix(strings.TrimSpace(l), "go-version:") {
					t.Errorf("%s: %s takes go-version; take go.mod's Go with go-version-file", where, action)
				}
			}
			if !found || value == "" || value == "latest" || value == "stable" {
				t.Errorf("%s: %s does not name its version with %s (found %q)", where, action, setting, value)
			}
		}
	}
	if seen < 10 {
		t.Fatalf("found %d uses: lines; the workflows alone hold more: is the scan reading the right files?", seen)
	}
}

// stepLines are the lines of a step after its uses: key, whose keys sit at column col: those
// indented deeper, or at col and not a new item, up to the first line that is neither.
func stepLines(lines []string, col int) []string {
	var out []string
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		indent := len(l) - len(strings.TrimLeft(l, " "))
		if indent < col || (indent == col && strings.HasPrefix(strings.TrimSpace(l), "-")) {
			break
		}
		out = append(out, l)
	}
	return out
}
