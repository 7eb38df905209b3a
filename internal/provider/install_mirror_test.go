package provider_test

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/videohost/terraform-provider-videohost/internal/acctest"
)

// TestAccInstallLockMixesWithMirror: a lock file written against `make install` is accepted by
// init against a network mirror of the same build (`make mirror`), and the other way round. The
// CLIs record the h1: hash of the package's files (the unpacked directory, or the zip's
// contents), so the plugin directory of make install must hold exactly what the release's zip
// holds: the binary and LICENSE. The zip is made as .goreleaser.yml describes it (the provider
// build's flags and ldflags, the archive's files), independently of scripts/install.sh, signed,
// turned into a mirror by scripts/mirror and served over HTTPS on loopback. The next minor
// release is in the mirror too, so the test also shows what the compatibility policy says of
// constraints: the recommended one (recommendedConstraint) chooses this build, the same without
// its patch part the next minor release.
func TestAccInstallLockMixesWithMirror(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance tests run only with TF_ACC=1")
	}
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not on PATH")
	}
	acctest.Parallel(t)
	ctx, cancel := context.WithTimeout(t.Context(), installTime)
	defer cancel()
	root := acctest.RepoRoot(t)
	bin := acctest.TerraformCLI(t)
	platform := runtime.GOOS + "_" + runtime.GOARCH

	home := t.TempDir()
	runMake(ctx, t, installEnv(t, home), "install")
	version := installVersion(ctx, t)

	// The release's zip and its signed sums, as GoReleaser makes them from .goreleaser.yml.
	dist := t.TempDir()
	release := readGoreleaserProvider(t, root)
	binary := "terraform-provider-videohost_v" + version
	build := exec.CommandContext(ctx, "go", append(append([]string{"build"}, release.flags...),
		"-ldflags", strings.ReplaceAll(release.ldflags, "{{ .Version }}", version), "-o", filepath.Join(dist, binary), ".")...)
	build.Dir, build.Env = root, append(installEnv(t, home), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build as .goreleaser.yml builds the provider: %v\n%s", err, out)
	}
	key := newReleaseKey(t)
	writeRelease(t, dist, version, platform, binary, filepath.Join(dist, binary), root, release.files, key)
	// The next minor release beside it, which the recommended constraint must not select. The
	// CLIs install a package without running it, so the same binary serves under its name.
	next := nextMinor(t, version)
	nextDist := t.TempDir()
	writeRelease(t, nextDist, next, platform, "terraform-provider-videohost_v"+next, filepath.Join(dist, binary), root, release.files, key)
	if err := os.Remove(filepath.Join(dist, binary)); err != nil {
		t.Fatal(err)
	}
	publicKey := key.publicFile

	// The mirror, by scripts/mirror, served over HTTPS (the CLIs refuse plain HTTP for a mirror).
	mirror := t.TempDir()
	mirrorBin := filepath.Join(t.TempDir(), "mirror")
	goBuild := exec.CommandContext(ctx, "go", "build", "-o", mirrorBin, "./scripts/mirror")
	goBuild.Dir, goBuild.Env = root, installEnv(t, home)
	if out, err := goBuild.CombinedOutput(); err != nil {
		t.Fatalf("go build ./scripts/mirror: %v\n%s", err, out)
	}
	var keyArgs []string
	if usage, _ := exec.CommandContext(ctx, mirrorBin, "-h").CombinedOutput(); bytes.Contains(usage, []byte("-key")) {
		keyArgs = []string{"-key", publicKey} // a mirror that verifies the signature takes the key
	}
	for _, d := range []string{dist, nextDist} {
		if out, err := exec.CommandContext(ctx, mirrorBin, append([]string{"-dist", d, "-out", mirror}, keyArgs...)...).CombinedOutput(); err != nil {
			t.Fatalf("scripts/mirror -dist %s: %v\n%s", d, err, out)
		}
	}
	srv := httptest.NewTLSServer(http.FileServer(http.Dir(mirror)))
	defer srv.Close()
	certFile := filepath.Join(t.TempDir(), "mirror.pem")
	acctest.WriteFile(t, certFile, string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})))
	cliConfig := filepath.Join(t.TempDir(), "mirror.tfrc")
	acctest.WriteFile(t, cliConfig, "provider_installation {\n  network_mirror {\n    url = \""+srv.URL+"/\"\n  }\n}\n")
	mirrorEnv := installEnv(t, t.TempDir(), "TF_CLI_CONFIG_FILE="+cliConfig, "SSL_CERT_FILE="+certFile)
	installedEnv := installEnv(t, home)

	config := `terraform {
  required_providers {
    videohost = {
      source  = "videohost/videohost"
      version = "` + recommendedConstraint + `"
    }
  }
}
`
	workdir := func(env []string) *acctest.CliWorkdir {
		w := &acctest.CliWorkdir{T: t, Ctx: ctx, Bin: bin, Dir: t.TempDir(), Env: env}
		w.Write("main.tf", config)
		return w
	}
	h1 := regexp.MustCompile(`"h1:[A-Za-z0-9+/=]{44}"`)

	// make install first: the lock file holds the h1: of the plugin directory.
	installed := workdir(installedEnv)
	installed.Run("init", "-no-color")
	lock := acctest.ReadText(t, filepath.Join(installed.Dir, ".terraform.lock.hcl"))
	installedHash := h1.FindString(lock)
	if installedHash == "" || !strings.Contains(lock, `version     = "`+version+`"`) {
		t.Fatalf("init against make install wrote no h1: hash of %s:\n%s", version, lock)
	}
	fromMirror := workdir(mirrorEnv)
	fromMirror.Write(".terraform.lock.hcl", lock)
	out := fromMirror.Run("init", "-no-color")
	if !strings.Contains(out, "Installed videohost/videohost v"+version) {
		t.Errorf("init from the mirror did not install %s:\n%s", version, out)
	}
	if after := acctest.ReadText(t, filepath.Join(fromMirror.Dir, ".terraform.lock.hcl")); !strings.Contains(after, installedHash) {
		t.Errorf("init from the mirror dropped make install's hash %s:\n%s", installedHash, after)
	}

	// The mirror first, as a team fills its lock files: accepted against make install.
	locked := workdir(mirrorEnv)
	locked.Run("providers", "lock", "-no-color", "-net-mirror="+srv.URL+"/", "-platform="+platform)
	lock = acctest.ReadText(t, filepath.Join(locked.Dir, ".terraform.lock.hcl"))
	if !strings.Contains(lock, `version     = "`+version+`"`) {
		t.Errorf("providers lock with %q beside %s did not choose %s:\n%s", recommendedConstraint, next, version, lock)
	}
	if h1.FindString(lock) != installedHash {
		t.Errorf("providers lock from the mirror recorded %s, make install's directory hashes to %s:\n%s", h1.FindString(lock), installedHash, lock)
	}
	fromInstall := workdir(installedEnv)
	fromInstall.Write(".terraform.lock.hcl", lock)
	out = fromInstall.Run("init", "-no-color")
	if !strings.Contains(out, "Installed videohost/videohost v"+version) {
		t.Errorf("init against make install did not install %s:\n%s", version, out)
	}

	// What the compatibility policy says of a two-part constraint: it takes the next minor.
	twoPart := &acctest.CliWorkdir{T: t, Ctx: ctx, Bin: bin, Dir: t.TempDir(), Env: mirrorEnv}
	twoPart.Write("main.tf", strings.Replace(config, recommendedConstraint, strings.TrimSuffix(recommendedConstraint, ".0"), 1))
	twoPart.Run("providers", "lock", "-no-color", "-net-mirror="+srv.URL+"/", "-platform="+platform)
	if lock := acctest.ReadText(t, filepath.Join(twoPart.Dir, ".terraform.lock.hcl")); !strings.Contains(lock, `version     = "`+next+`"`) {
		t.Errorf("providers lock with %q did not choose %s, as CONTRIBUTING.md says it would:\n%s", strings.TrimSuffix(recommendedConstraint, ".0"), next, lock)
	}
}

// nextMinor is the release after version's minor: 0.2.0 after 0.1.0+dev.COMMIT.
func nextMinor(t *testing.T, version string) string {
	t.Helper()
	var major, minor int
	if _, err := fmt.Sscanf(version, "%d.%d.", &major, &minor); err != nil {
		t.Fatalf("version %q is not X.Y.Z...: %v", version, err)
	}
	return fmt.Sprintf("%d.%d.0", major, minor+1)
}

// writeRelease writes into dist a release of version for platform, as GoReleaser lays it out:
// its zip (the binary at src under the name binary, and the checkout's files), its sums, and
// their signature by key.
func writeRelease(t *testing.T, dist, version, platform, binary, src, root string, files []string, key releaseKey) {
	t.Helper()
	zipName := fmt.Sprintf("terraform-provider-videohost_%s_%s.zip", version, platform)
	writeZip(t, filepath.Join(dist, zipName), map[string]string{binary: src}, root, files)
	zipBytes, err := os.ReadFile(filepath.Join(dist, zipName))
	if err != nil {
		t.Fatal(err)
	}
	sums := fmt.Sprintf("%x  %s\n", sha256.Sum256(zipBytes), zipName)
	sumsName := filepath.Join(dist, "terraform-provider-videohost_"+version+"_SHA256SUMS")
	acctest.WriteFile(t, sumsName, sums)
	key.sign(t, sumsName, sums)
}

// goreleaserProvider is what .goreleaser.yml says of the provider's release: the build's flags
// and ldflags, and the files its zip holds beside the binary.
type goreleaserProvider struct {
	flags   []string
	ldflags string
	files   []string
}

// readGoreleaserProvider reads the provider's build and archive from .goreleaser.yml: the list
// items "  - id: provider" of builds and archives, whose flags, ldflags and files (src) it takes.
func readGoreleaserProvider(t *testing.T, root string) goreleaserProvider {
	t.Helper()
	text := acctest.ReadText(t, filepath.Join(root, ".goreleaser.yml"))
	var p goreleaserProvider
	build := yamlListItem(text, "builds", "provider")
	p.flags = yamlList(build, "flags")
	ldflags := yamlList(build, "ldflags")
	if len(p.flags) == 0 || len(ldflags) != 1 {
		t.Fatalf(".goreleaser.yml: the provider build has flags %q and ldflags %q, want some flags and one ldflags line", p.flags, ldflags)
	}
	p.ldflags = ldflags[0]
	for _, m := range regexp.MustCompile(`(?m)^\s*- src: (\S+)$`).FindAllStringSubmatch(yamlListItem(text, "archives", "provider"), -1) {
		p.files = append(p.files, m[1])
	}
	if len(p.files) == 0 {
		t.Fatal(".goreleaser.yml: the provider archive lists no files beside the binary (LICENSE)")
	}
	return p
}

// yamlListItem is the text of the item "  - id: ID" of the top-level list KEY, up to the next
// item or top-level key.
func yamlListItem(text, key, id string) string {
	_, rest, ok := strings.Cut(text, "\n"+key+":\n")
	if !ok {
		return ""
	}
	_, item, ok := strings.Cut(rest, "  - id: "+id+"\n")
	if !ok {
		return ""
	}
	if end := regexp.MustCompile(`(?m)^(  - |[a-z])`).FindStringIndex(item); end != nil {
		item = item[:end[0]]
	}
	return item
}

// yamlList is the values of the list NAME of an item ("    NAME:" then "      - VALUE"), unquoted.
func yamlList(item, name string) []string {
	_, rest, ok := strings.Cut(item, "\n    "+name+":\n")
	if !ok {
		return nil
	}
	var values []string
	for _, line := range strings.Split(rest, "\n") {
		v, ok := strings.CutPrefix(line, "      - ")
		if !ok {
			break
		}
		values = append(values, strings.Trim(v, `"`))
	}
	return values
}

// writeZip writes a zip at path holding the files of named (name in the zip: path on disk)
// and, under their own names, the files of the checkout at root.
func writeZip(t *testing.T, path string, named map[string]string, root string, files []string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	z := zip.NewWriter(f)
	add := func(name, src string) {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		w, err := z.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	for name, src := range named {
		add(name, src)
	}
	for _, name := range files {
		add(name, filepath.Join(root, filepath.FromSlash(name)))
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// releaseKey is an OpenPGP key made for the test, which signs its releases, and the file of its
// armored public half.
type releaseKey struct {
	entity     *openpgp.Entity
	publicFile string
}

// sign writes the binary detached signature of sums beside its file (.sig).
func (k releaseKey) sign(t *testing.T, sumsFile, sums string) {
	t.Helper()
	var sig bytes.Buffer
	if err := openpgp.DetachSign(&sig, k.entity, strings.NewReader(sums), nil); err != nil {
		t.Fatal(err)
	}
	acctest.WriteFile(t, sumsFile+".sig", sig.String())
}

func newReleaseKey(t *testing.T) releaseKey {
	t.Helper()
	key, err := openpgp.NewEntity("videohost test release", "", "release@localhost", nil)
	if err != nil {
		t.Fatal(err)
	}
	var pub bytes.Buffer
	w, err := armor.Encode(&pub, openpgp.PublicKeyType, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := key.Serialize(w); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(t.TempDir(), "release-key.asc")
	acctest.WriteFile(t, keyFile, pub.String())
	return releaseKey{entity: key, publicFile: keyFile}
}
