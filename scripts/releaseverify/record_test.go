package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const testCommit = "0123456789abcdef0123456789abcdef01234567"

// writeRecord writes a well-formed record of version under releases and returns its directory.
func writeRecord(t *testing.T, releases, version string) string {
	t.Helper()
	dir := filepath.Join(releases, version)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	sums := fmt.Sprintf("%s  %s_%s_linux_amd64.zip\n%s  %s_%s_manifest.json\n",
		strings.Repeat("a", 64), project, version, strings.Repeat("b", 64), project, version)
	files := map[string]string{
		"COMMIT":                                    testCommit + "\n",
		project + "_" + version + "_SHA256SUMS":     sums,
		project + "_" + version + "_SHA256SUMS.sig": "\x88\x75binary",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestRecordLatest: with no record, or no releases directory, nothing is recorded and that is no
// error (CI runs the verify from the first commit); otherwise the latest is the highest version
// in semantic order (0.10.0 after 0.9.0), and a README beside the records is not one.
func TestRecordLatest(t *testing.T) {
	releases := filepath.Join(t.TempDir(), "releases")
	if _, ok, err := readRecord(releases, ""); ok || err != nil {
		t.Fatalf("no releases directory: ok %v, err %v; want neither", ok, err)
	}
	if err := os.MkdirAll(releases, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(releases, "README.md"), []byte("records"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := readRecord(releases, ""); ok || err != nil {
		t.Fatalf("an empty releases directory: ok %v, err %v; want neither", ok, err)
	}
	for _, v := range []string{"0.9.0", "0.10.0", "0.2.1"} {
		writeRecord(t, releases, v)
	}
	rec, ok, err := readRecord(releases, "")
	if err != nil || !ok || rec.version != "0.10.0" || rec.commit != testCommit {
		t.Fatalf("latest: %+v, ok %v, err %v; want 0.10.0 at %s", rec, ok, err, testCommit)
	}
	rec, ok, err = readRecord(releases, "0.2.1")
	if err != nil || !ok || rec.version != "0.2.1" {
		t.Fatalf("0.2.1: %+v, ok %v, err %v", rec, ok, err)
	}
	_, _, err = readRecord(releases, "0.3.0")
	if err == nil || !strings.Contains(err.Error(), "release 0.3.0 is not recorded") || !strings.Contains(err.Error(), "0.2.1, 0.9.0, 0.10.0") {
		t.Errorf("a version not recorded: %v; want it refused, naming the recorded ones in order", err)
	}
}

// TestRecordRefused: a record that is not what RELEASING.md describes is refused, saying what is
// wrong, before anything is built from it.
func TestRecordRefused(t *testing.T) {
	sumsName := project + "_0.1.0_SHA256SUMS"
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, dir string)
		want   string
	}{
		{"a directory not named for a version", func(t *testing.T, dir string) {
			if err := os.Mkdir(filepath.Join(filepath.Dir(dir), "v0.2.0"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, "v0.2.0 is not a release record"},
		{"no signature", func(t *testing.T, dir string) { remove(t, dir, sumsName+".sig") }, "lacks " + sumsName + ".sig"},
		{"no COMMIT", func(t *testing.T, dir string) { remove(t, dir, "COMMIT") }, "lacks COMMIT"},
		{"a short commit", func(t *testing.T, dir string) { write(t, dir, "COMMIT", "0123456\n") }, "not a full commit hash"},
		{"a file more", func(t *testing.T, dir string) { write(t, dir, "NOTES.md", "x") }, "holds NOTES.md, which is no part of a release record"},
		{"an armored signature", func(t *testing.T, dir string) {
			write(t, dir, sumsName+".sig", "-----BEGIN PGP SIGNATURE-----\n")
		}, ".sig is armored"},
		{"sums that list the signature", func(t *testing.T, dir string) {
			appendTo(t, dir, sumsName, strings.Repeat("c", 64)+"  "+sumsName+".sig\n")
		}, "lists the signature"},
		{"sums of another version", func(t *testing.T, dir string) {
			appendTo(t, dir, sumsName, strings.Repeat("c", 64)+"  "+project+"_0.0.9_linux_arm64.zip\n")
		}, "which is not a file of release 0.1.0"},
		{"sums without a provider zip", func(t *testing.T, dir string) {
			write(t, dir, sumsName, strings.Repeat("c", 64)+"  "+project+"_0.1.0_manifest.json\n")
		}, "lists no " + project + "_0.1.0_OS_ARCH.zip"},
		{"a line that is not a sum", func(t *testing.T, dir string) { appendTo(t, dir, sumsName, "deadbeef  x.zip\n") }, "is not a line of SHA256SUMS"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			releases := t.TempDir()
			dir := writeRecord(t, releases, "0.1.0")
			if _, ok, err := readRecord(releases, "0.1.0"); err != nil || !ok {
				t.Fatalf("the record before it was damaged: ok %v, %v", ok, err)
			}
			tc.damage(t, dir)
			_, _, err := readRecord(releases, "")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error saying %q", err, tc.want)
			}
		})
	}
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func appendTo(t *testing.T, dir, name, content string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	write(t, dir, name, string(b)+content)
}

func remove(t *testing.T, dir, name string) {
	t.Helper()
	if err := os.Remove(filepath.Join(dir, name)); err != nil {
		t.Fatal(err)
	}
}

// TestRecordedReleases: every record the repository holds is well formed, and a repository that
// records a release publishes the keys that verify it (release-keys.asc, its fingerprints in
// SECURITY.md, no private key material: keys_test.go). make release-verify checks the signature.
func TestRecordedReleases(t *testing.T) {
	versions, err := recordedVersions("../../releases")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range versions {
		if _, _, err := readRecord("../../releases", v); err != nil {
			t.Errorf("the record of %s: %v", v, err)
		}
	}
	if _, err := os.Stat("../../release-keys.asc"); len(versions) > 0 && err != nil {
		t.Errorf("releases %v are recorded but the keys that verify them are not published: %v", versions, err)
	}
}
