package provider_test

import (
	"context"
	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The shell blocks of what a user reads (the README and the top-level pages beside it, the
// provider's page and the guides) are commands to copy. Each says, in an HTML comment on the
// line before its fence, how it is known to work:
//
//	<!-- shell: run -->                 TestAccDocShellBlocksRun runs it, as written, from the
//	                                    root of a copy of the checkout, with an empty home;
//	<!-- shell: covered by NAME -->     NAME, a Go test or a file of the repository, runs the
//	                                    same commands;
//	<!-- shell: example: WHY -->        a fragment that needs what only the user has (a key, a
//	                                    cluster, their own configuration), and says why.
//
// A block that runs terraform init must come after the page says how to install the provider.

// shellPages are the pages whose shell blocks are checked, relative to the repository's root.
func shellPages(t *testing.T, root string) []string {
	t.Helper()
	pages := []string{"README.md", "CONTRIBUTING.md", "DESIGN.md", "BENCHMARKS.md", "RELEASING.md", filepath.Join("docs", "index.md")}
	guides, err := filepath.Glob(filepath.Join(root, "docs", "guides", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range guides {
		rel, _ := filepath.Rel(root, g)
		pages = append(pages, rel)
	}
	return pages
}

// shellBlock is one shell block of a page: its marker's words, its commands and the page's
// text before it.
type shellBlock struct {
	page, marker, body, before string
	line                       int
}

var (
	shellFence  = regexp.MustCompile("(?m)^```(?:sh|shell|bash)\n")
	shellMarker = regexp.MustCompile(`^<!-- shell: (run|covered by \S+|example: .+) -->$`)
	initCommand = regexp.MustCompile(`\b(terraform|tofu)\b[^\n]*\binit\b`)
)

// shellBlocks reads every shell block of page.
func shellBlocks(t *testing.T, root, page string) []shellBlock {
	t.Helper()
	text := acctest.ReadText(t, filepath.Join(root, page))
	var out []shellBlock
	for _, loc := range shellFence.FindAllStringIndex(text, -1) {
		end := strings.Index(text[loc[1]:], "\n```")
		if end < 0 {
			t.Fatalf("%s: a shell block is not closed", page)
		}
		lines := strings.Split(text[:loc[0]], "\n")
		prev := ""
		if len(lines) >= 2 {
			prev = lines[len(lines)-2]
		}
		marker := ""
		if m := shellMarker.FindStringSubmatch(prev); m != nil {
			marker = m[1]
		}
		out = append(out, shellBlock{page: page, marker: marker, body: text[loc[1] : loc[1]+end+1],
			before: text[:loc[0]], line: len(lines)})
	}
	return out
}

// coveredByExists says whether name is a test function of the repository or one of its files.
func coveredByExists(t *testing.T, root, name string) bool {
	t.Helper()
	if _, err := os.Stat(filepath.Join(root, name)); err == nil {
		return true
	}
	found := false
	decl := "func " + name + "(t *testing.T)"
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || found {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules" || d.Name() == "bin") {
			return filepath.SkipDir
		}
		if strings.HasSuffix(p, "_test.go") && strings.Contains(acctest.ReadText(t, p), decl) {
			found = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// TestDocShellBlocksMarked: every shell block says how it is known to work, what it names as
// covering it exists, and a block that runs terraform init comes after the page says to install
// the provider first.
func TestDocShellBlocksMarked(t *testing.T) {
	root := filepath.Join("..", "..")
	runs := 0
	for _, page := range shellPages(t, root) {
		for _, b := range shellBlocks(t, root, page) {
			switch {
			case b.marker == "":
				t.Errorf("%s:%d: a shell block without a marker; put <!-- shell: run -->, <!-- shell: covered by NAME --> or <!-- shell: example: WHY --> on the line before it", page, b.line)
				continue
			case b.marker == "run":
				runs++
			case strings.HasPrefix(b.marker, "covered by "):
				if name := strings.TrimPrefix(b.marker, "covered by "); !coveredByExists(t, root, name) {
					t.Errorf("%s:%d: the block is covered by %s, which is neither a test nor a file of the repository", page, b.line, name)
				}
			}
			// What comes before the first init, in the page and in the block itself.
			loc := initCommand.FindStringIndex(b.body)
			if loc != nil && !strings.Contains(b.before+b.body[:loc[0]], "make install") &&
				!strings.Contains(b.before, "#the-first-terraform-init") {
				t.Errorf("%s:%d: the block runs terraform init, and the page does not say before it to install the provider (make install)", page, b.line)
			}
		}
	}
	if runs < 2 {
		t.Errorf("%d shell blocks are run; the README's quick start at least should be", runs)
	}
}

// TestAccDocShellBlocksRun runs every block marked run as a user would: bash from the root of a
// copy of the checkout, with an empty home directory, no TF_ or VIDEOHOST_ variable and no CLI
// configuration, and the CLI of the tests on PATH as terraform. Each block must succeed; what
// it left running is stopped with its process group.
func TestAccDocShellBlocksRun(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance tests run only with TF_ACC=1")
	}
	root := filepath.Join("..", "..")
	cli := acctest.TerraformCLI(t)
	if os.Getenv("VIDEOHOST_EMULATOR") == "0" {
		t.Log("the blocks run as a user copies them, against the emulator they start themselves: they need no key, and send nothing to the endpoint")
	}
	for _, page := range shellPages(t, root) {
		for _, b := range shellBlocks(t, root, page) {
			if b.marker != "run" {
				continue
			}
			t.Run(strings.ReplaceAll(page, string(filepath.Separator), "_")+"_line"+strconv.Itoa(b.line), func(t *testing.T) {
				runShellBlock(t, root, cli, b)
			})
		}
	}
}

// shellBlockTime bounds one block: the quick start builds the provider and the emulator, inits
// and applies, well within it on a loaded machine.
const shellBlockTime = 8 * time.Minute

// runShellBlock runs one block in a fresh copy of the checkout and home, in a process group of
// its own that is killed and reaped when the block ends or its time runs out, whatever it left
// running (an emulator in the background when the block failed before its kill).
func runShellBlock(t *testing.T, root, cli string, b shellBlock) {
	ctx, cancel := context.WithTimeout(t.Context(), shellBlockTime)
	defer cancel()
	checkout := filepath.Join(t.TempDir(), "checkout")
	copyCheckout(t, root, checkout)
	home, bin := t.TempDir(), t.TempDir()
	if err := os.Symlink(cli, filepath.Join(bin, "terraform")); err != nil {
		t.Fatal(err)
	}
	env := installEnv(t, home, "GOBIN="+filepath.Join(home, "go", "bin"))
	for i, kv := range env {
		if strings.HasPrefix(kv, "PATH=") {
			env[i] = "PATH=" + bin + string(os.PathListSeparator) + filepath.Join(home, "go", "bin") + string(os.PathListSeparator) + strings.TrimPrefix(kv, "PATH=")
		}
	}
	cmd := exec.CommandContext(ctx, "bash", "-e", "-c", b.body)
	cmd.Dir, cmd.Env = checkout, env
	res := acctest.RunInGroup(ctx, t, cmd)
	if res.Err != nil {
		t.Fatalf("%s:%d: the block failed:\n%s\n---- how ----\n%s", b.page, b.line, b.body, res.Describe(shellBlockTime))
	}
	t.Logf("%s:%d ran:\n%s", b.page, b.line, res.Output)
}

// copyCheckout copies the files git tracks in the checkout at root to dst, as a fresh clone
// has them: never what the user's own runs left (build outputs, state, lock files, .terraform
// directories), whether ignored or not.
func copyCheckout(t *testing.T, root, dst string) {
	t.Helper()
	for _, rel := range trackedFiles(t, root) {
		src := filepath.Join(root, rel)
		fi, err := os.Lstat(src)
		if err != nil || !fi.Mode().IsRegular() {
			continue // tracked but removed in the work tree, or a link
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dst, rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := copyFile(src, filepath.Join(dst, rel)); err != nil {
			t.Fatal(err)
		}
	}
}

// trackedFiles lists the files git tracks under root, relative to it; the test skips where
// root is not a git checkout (a source archive), as there is no telling the user's files from
// the project's.
func trackedFiles(t *testing.T, root string) []string {
	t.Helper()
	out, err := exec.CommandContext(t.Context(), "git", "-C", root, "ls-files", "-z", "--cached").Output()
	if err != nil {
		t.Skipf("copies the files git tracks, and git ls-files failed in %s (%v): run it in a git checkout", root, err)
	}
	return strings.Split(strings.TrimRight(string(out), "\x00"), "\x00")
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer func() { _ = in.Close() }()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, fi.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		_ = out.Close()
		return err
	}
	return out.Close()
}

// TestCopyCheckoutCopiesTrackedFilesOnly: the copy of a checkout holds what git tracks, and none
// of what a user's runs left beside it (a lock file, a .terraform directory, state, an
// untracked file).
func TestCopyCheckoutCopiesTrackedFilesOnly(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH")
	}
	root, dst := t.TempDir(), t.TempDir()
	git := func(args ...string) {
		cmd := exec.CommandContext(t.Context(), "git", append([]string{"-C", root}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	files := map[string]bool{"README.md": true, "examples/getting-started/main.tf": true, ".gitignore": true,
		"examples/getting-started/.terraform.lock.hcl": false, "examples/getting-started/.terraform/providers/x": false,
		"examples/getting-started/terraform.tfstate": false, "notes.txt": false}
	for name := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		acctest.WriteFile(t, filepath.Join(root, name), "content of "+name)
	}
	acctest.WriteFile(t, filepath.Join(root, ".gitignore"), ".terraform*\n*.tfstate\n")
	git("add", "README.md", ".gitignore", "examples/getting-started/main.tf")
	copyCheckout(t, root, dst)
	for name, tracked := range files {
		_, err := os.Stat(filepath.Join(dst, name))
		if tracked && err != nil {
			t.Errorf("the tracked %s was not copied: %v", name, err)
		}
		if !tracked && err == nil {
			t.Errorf("%s, which git does not track, was copied", name)
		}
	}
}
