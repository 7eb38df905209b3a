// Command mirror writes a provider network mirror from a release: a directory that any static
// file server or bucket serves as the protocol of Terraform's and OpenTofu's
// provider_installation { network_mirror { url = "..." } }, so that a team installs the provider
// from its own host without the public registry.
//
//	go run ./scripts/mirror -dist dist -out mirror [-key release-keys.asc]
//	go run ./scripts/mirror -dist releases/X.Y.Z -verify-only [-key release-keys.asc]
//
// -dist is a release as GoReleaser writes it: terraform-provider-videohost_VERSION_OS_ARCH.zip
// files, terraform-provider-videohost_VERSION_SHA256SUMS and its binary detached OpenPGP
// signature (.sig). -key is the armored public key (or keys) the release must be signed by: the
// project's published keys, release-keys.asc, unless another is named. The signature is checked
// first, then every zip against the signed sums, and the release refused when the signature does
// not verify with those keys, a zip differs, or the sums list a zip that is missing: a mirror
// trusts nothing it cannot check, since the CLIs trust a mirror's hashes without a signature.
// -out receives, for one release or more (run it once per release into the same directory: the
// versions add up):
//
//	terraform-provider-videohost_VERSION_OS_ARCH.zip      the zips, once for both CLIs
//	terraform-provider-videohost_VERSION_SHA256SUMS(.sig) the signed sums, for people and scripts
//	HOST/videohost/videohost/index.json                   {"versions":{"VERSION":{},...}}
//	HOST/videohost/videohost/VERSION.json                 {"archives":{"OS_ARCH":{"url":...,"hashes":[...]}}}
//
// for HOST registry.terraform.io (Terraform's default host of videohost/videohost) and
// registry.opentofu.org (OpenTofu's). An archive's url is relative to its VERSION.json, so the
// directory can be served under any address; its hashes are the zip's h1: (the hash of its
// contents, which the CLIs write to .terraform.lock.hcl) and zh: (the SHA-256 of the zip, as in
// the signed sums).
package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/ProtonMail/go-crypto/openpgp"
)

const project = "terraform-provider-videohost"

// hosts are the registry hosts under which the CLIs ask a mirror for videohost/videohost.
var hosts = []string{"registry.terraform.io", "registry.opentofu.org"}

var zipName = regexp.MustCompile(`^` + project + `_([0-9]+\.[0-9]+\.[0-9]+[0-9A-Za-z.+-]*)_([a-z0-9]+)_([a-z0-9]+)\.zip$`)

type archive struct {
	URL    string   `json:"url"`
	Hashes []string `json:"hashes"`
}

func main() {
	dist := flag.String("dist", "", "the release's directory (GoReleaser's dist)")
	out := flag.String("out", "", "the mirror's directory, created when missing")
	keyFile := flag.String("key", publishedKeys, "the armored public key (or keys) that must have signed the release's SHA256SUMS")
	verifyOnly := flag.Bool("verify-only", false, "only verify the signature of -dist's SHA256SUMS with -key; write nothing")
	flag.Parse()
	if *dist == "" || (*out == "" && !*verifyOnly) {
		log.Fatal("mirror: -dist and -out are required: go run ./scripts/mirror -dist dist -out mirror")
	}
	keys, err := readKeys(*keyFile)
	if err != nil {
		log.Fatalf("mirror: %v", err)
	}
	if *verifyOnly {
		sumsFile, err := findSums(*dist)
		if err != nil {
			log.Fatalf("mirror: %v", err)
		}
		signer, err := verifySums(sumsFile, keys)
		if err != nil {
			log.Fatalf("mirror: %v", err)
		}
		fmt.Printf("mirror: %s.sig verifies %s: signed by the key %X of %s\n", sumsFile, filepath.Base(sumsFile), signer.fingerprint, *keyFile)
		return
	}
	version, err := write(*dist, *out, keys)
	if err != nil {
		log.Fatalf("mirror: %v", err)
	}
	fmt.Printf("mirror: %s of videohost/videohost, its signature verified with %s, written to %s for %s\n", version, *keyFile, *out, strings.Join(hosts, " and "))
}

// write copies one release, signed by one of keys, into the mirror at out and returns its
// version.
func write(dist, out string, keys openpgp.EntityList) (string, error) {
	sumsFile, err := findSums(dist)
	if err != nil {
		return "", err
	}
	if err := refuseOtherBuilds(out, sumsVersion(sumsFile)); err != nil {
		return "", err
	}
	version := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(sumsFile), project+"_"), "_SHA256SUMS")
	signed, err := verifySums(sumsFile, keys)
	if err != nil {
		return "", err
	}
	sums, err := parseSums(sumsFile, signed.sums)
	if err != nil {
		return "", err
	}
	archives := map[string]archive{}
	for name, sum := range sums {
		m := zipName.FindStringSubmatch(name)
		if m == nil || m[1] != version {
			continue
		}
		src := filepath.Join(dist, name)
		zh, err := fileSHA256(src)
		if err != nil {
			return "", fmt.Errorf("%s is in the sums but cannot be read: %w", name, err)
		}
		if zh != sum {
			return "", fmt.Errorf("%s has SHA-256 %s, the sums say %s: the release is not what was signed; build it again", name, zh, sum)
		}
		h1, err := hashZip(src)
		if err != nil {
			return "", fmt.Errorf("%s: %w", name, err)
		}
		if err := copyFile(src, filepath.Join(out, name)); err != nil {
			return "", err
		}
		// Three levels up from HOST/videohost/videohost/VERSION.json is the mirror's root.
		archives[m[2]+"_"+m[3]] = archive{URL: "../../../" + name, Hashes: []string{h1, "zh:" + zh}}
	}
	if len(archives) == 0 {
		return "", fmt.Errorf("%s lists no %s_%s_OS_ARCH.zip", sumsFile, project, version)
	}
	// The mirror publishes the bytes whose signature was checked, not the files read again.
	for name, b := range map[string][]byte{filepath.Base(sumsFile): signed.sums, filepath.Base(sumsFile) + ".sig": signed.sig} {
		if err := os.WriteFile(filepath.Join(out, name), b, 0o644); err != nil {
			return "", err
		}
	}
	for _, host := range hosts {
		dir := filepath.Join(out, host, "videohost", "videohost")
		if err := writeJSON(filepath.Join(dir, version+".json"), map[string]any{"archives": archives}); err != nil {
			return "", err
		}
		// The index lists every version the mirror holds, this one and earlier runs'.
		docs, err := filepath.Glob(filepath.Join(dir, "*.json"))
		if err != nil {
			return "", err
		}
		versions := map[string]struct{}{}
		for _, d := range docs {
			if v := strings.TrimSuffix(filepath.Base(d), ".json"); v != "index" {
				versions[v] = struct{}{}
			}
		}
		if err := writeJSON(filepath.Join(dir, "index.json"), map[string]any{"versions": versions}); err != nil {
			return "", err
		}
	}
	return version, nil
}

// findSums returns the path of the one terraform-provider-videohost_VERSION_SHA256SUMS of a
// release's directory.
func findSums(dist string) (string, error) {
	sumsFiles, err := filepath.Glob(filepath.Join(dist, project+"_*_SHA256SUMS"))
	if err != nil || len(sumsFiles) != 1 {
		return "", fmt.Errorf("%s must hold one %s_VERSION_SHA256SUMS, found %d: run it on a release's directory", dist, project, len(sumsFiles))
	}
	return sumsFiles[0], nil
}

// parseSums reads the content of a SHA256SUMS file, named path: "HEX  NAME" per line.
func parseSums(path string, content []byte) (map[string]string, error) {
	sums := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(content))
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok || len(sum) != 64 {
			return nil, fmt.Errorf("%s: %q is not a line of SHA256SUMS (HEX, two spaces, NAME)", path, sc.Text())
		}
		sums[name] = sum
	}
	return sums, sc.Err()
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashZip is the h1: hash of a provider package, the one the CLIs record in the lock file: the
// "dirhash" of golang.org/x/mod (Hash1) over the zip's files, that is the SHA-256 of the lines
// "SHA256HEX  NAME\n", one per file in the order of their names, in base64.
func hashZip(path string) (string, error) {
	z, err := zip.OpenReader(path)
	if err != nil {
		return "", err
	}
	defer z.Close()
	files := slices.Clone(z.File)
	slices.SortFunc(files, func(a, b *zip.File) int { return strings.Compare(a.Name, b.Name) })
	h := sha256.New()
	for _, f := range files {
		if strings.HasSuffix(f.Name, "/") {
			continue
		}
		if strings.Contains(f.Name, "\n") {
			return "", errors.New("a file name holds a newline")
		}
		r, err := f.Open()
		if err != nil {
			return "", err
		}
		fh := sha256.New()
		_, err = io.Copy(fh, r)
		r.Close()
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%x  %s\n", fh.Sum(nil), f.Name)
	}
	return "h1:" + base64.StdEncoding.EncodeToString(h.Sum(nil)), nil
}

func copyFile(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// writeJSON writes v indented, with its map keys sorted (encoding/json sorts them), so that the
// same release always gives the same bytes.
func writeJSON(path string, v any) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
