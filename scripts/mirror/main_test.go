package main

import (
	"archive/zip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/sumdb/dirhash"
)

// fakeRelease writes a release directory as GoReleaser lays it out: one zip per platform, the
// sums of them, and their binary detached signature by releaseKey.
func fakeRelease(t *testing.T, version string, platforms ...string) string {
	t.Helper()
	dist := t.TempDir()
	var sums strings.Builder
	for _, p := range platforms {
		name := fmt.Sprintf("%s_%s_%s.zip", project, version, p)
		f, err := os.Create(filepath.Join(dist, name))
		if err != nil {
			t.Fatal(err)
		}
		z := zip.NewWriter(f)
		for _, file := range []string{project + "_v" + version, "LICENSE"} {
			w, err := z.Create(file)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(w, "%s for %s", file, p)
		}
		if err := z.Close(); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dist, name))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		fmt.Fprintf(&sums, "%s  %s\n", hex.EncodeToString(sum[:]), name)
	}
	sumsFile := filepath.Join(dist, fmt.Sprintf("%s_%s_SHA256SUMS", project, version))
	if err := os.WriteFile(sumsFile, []byte(sums.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	sign(t, releaseKey(t), sumsFile, nil)
	return dist
}

// TestMirrorDocuments: the version documents name every platform with a relative address that
// resolves to the zip, and with the h1: hash that Terraform computes (golang.org/x/mod's
// dirhash, which the CLIs use) and the zh: hash of the sums; the index lists every release
// written into the same directory, under both CLIs' hosts.
func TestMirrorDocuments(t *testing.T) {
	out := t.TempDir()
	for _, v := range []string{"0.1.0", "0.2.0"} {
		got, err := write(fakeRelease(t, v, "linux_amd64", "darwin_arm64"), out, trusted(t, releaseKey(t)))
		if err != nil || got != v {
			t.Fatalf("write: %q, %v", got, err)
		}
	}
	for _, host := range hosts {
		dir := filepath.Join(out, host, "videohost", "videohost")
		var index struct {
			Versions map[string]struct{} `json:"versions"`
		}
		readJSON(t, filepath.Join(dir, "index.json"), &index)
		if len(index.Versions) != 2 {
			t.Errorf("%s index.json lists %v, want 0.1.0 and 0.2.0", host, index.Versions)
		}
		var doc struct {
			Archives map[string]archive `json:"archives"`
		}
		readJSON(t, filepath.Join(dir, "0.2.0.json"), &doc)
		if len(doc.Archives) != 2 {
			t.Fatalf("%s 0.2.0.json has %d archives, want 2", host, len(doc.Archives))
		}
		for platform, a := range doc.Archives {
			zipPath := filepath.Join(dir, filepath.FromSlash(a.URL))
			want, err := dirhash.HashZip(zipPath, dirhash.Hash1)
			if err != nil {
				t.Fatalf("%s %s: the url %s does not resolve to a zip: %v", host, platform, a.URL, err)
			}
			b, err := os.ReadFile(zipPath)
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(b)
			if len(a.Hashes) != 2 || a.Hashes[0] != want || a.Hashes[1] != "zh:"+hex.EncodeToString(sum[:]) {
				t.Errorf("%s %s: hashes %v, want [%s zh:%x]", host, platform, a.Hashes, want, sum)
			}
		}
	}
	for _, f := range []string{project + "_0.2.0_SHA256SUMS", project + "_0.2.0_SHA256SUMS.sig"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("the mirror has no %s: %v", f, err)
		}
	}
}

// TestMirrorRefusesWhatWasNotSigned: a zip that differs from the sums, and a release without a
// signature, are refused with a message that says what is wrong, and nothing is published.
func TestMirrorRefusesWhatWasNotSigned(t *testing.T) {
	dist := fakeRelease(t, "0.1.0", "linux_amd64")
	zipPath := filepath.Join(dist, project+"_0.1.0_linux_amd64.zip")
	f, err := os.OpenFile(zipPath, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprint(f, "x")
	f.Close()
	out := t.TempDir()
	if _, err := write(dist, out, trusted(t, releaseKey(t))); err == nil || !strings.Contains(err.Error(), "the sums say") {
		t.Errorf("a tampered zip: %v, want a refusal naming the sums", err)
	}
	if _, err := os.Stat(filepath.Join(out, "registry.terraform.io")); !os.IsNotExist(err) {
		t.Errorf("a refused release still wrote documents (%v)", err)
	}

	dist = fakeRelease(t, "0.1.0", "linux_amd64")
	if err := os.Remove(filepath.Join(dist, project+"_0.1.0_SHA256SUMS.sig")); err != nil {
		t.Fatal(err)
	}
	if _, err := write(dist, t.TempDir(), trusted(t, releaseKey(t))); err == nil || !strings.Contains(err.Error(), ".sig is missing") {
		t.Errorf("no signature: %v, want a refusal naming the .sig", err)
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
