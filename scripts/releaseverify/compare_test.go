package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCompareRebuild: every file of the sums is hashed from the rebuild (the manifest from the
// path given for it); a file whose SHA-256 differs is named with both sums, a recorded file the
// rebuild lacks is named, and so is an archive the rebuild made that the record does not list.
func TestCompareRebuild(t *testing.T) {
	dist := t.TempDir()
	files := map[string]string{
		"terraform-provider-videohost_0.1.0_linux_amd64.zip":  "provider",
		"terraform-provider-videohost_0.1.0_darwin_arm64.zip": "provider for darwin",
		"videohost-emulator_0.1.0_linux_amd64.tar.gz":         "emulator",
	}
	var sums strings.Builder
	for _, name := range slices.Sorted(maps.Keys(files)) {
		write(t, dist, name, files[name])
		fmt.Fprintf(&sums, "%s  %s\n", sha(files[name]), name)
	}
	manifest := filepath.Join(t.TempDir(), "terraform-registry-manifest.json")
	write(t, filepath.Dir(manifest), filepath.Base(manifest), `{"version":1}`)
	fmt.Fprintf(&sums, "%s  terraform-provider-videohost_0.1.0_manifest.json\n", sha(`{"version":1}`))
	sumsFile := filepath.Join(t.TempDir(), "terraform-provider-videohost_0.1.0_SHA256SUMS")
	write(t, filepath.Dir(sumsFile), filepath.Base(sumsFile), sums.String())
	extra := map[string]string{"terraform-provider-videohost_0.1.0_manifest.json": manifest}

	c, err := compareRebuild(sumsFile, dist, extra)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.same) != 4 || len(c.differ)+len(c.notRebuilt)+len(c.extra) != 0 {
		t.Fatalf("the same bytes: %+v, want 4 files the same and nothing else", c)
	}

	// The provider's zip rebuilt with other bytes, the emulator not rebuilt, one archive more.
	write(t, dist, "terraform-provider-videohost_0.1.0_linux_amd64.zip", "another provider")
	remove(t, dist, "videohost-emulator_0.1.0_linux_amd64.tar.gz")
	write(t, dist, "videohost-receiver_0.1.0_linux_amd64.tar.gz", "receiver")
	write(t, dist, "config.yaml", "GoReleaser's own files are no archives")
	c, err = compareRebuild(sumsFile, dist, extra)
	if err != nil {
		t.Fatal(err)
	}
	wantDiffer := fmt.Sprintf("terraform-provider-videohost_0.1.0_linux_amd64.zip: recorded %s, rebuilt %s", sha("provider"), sha("another provider"))
	if !slices.Equal(c.differ, []string{wantDiffer}) {
		t.Errorf("differ: %q, want %q", c.differ, wantDiffer)
	}
	if !slices.Equal(c.notRebuilt, []string{"videohost-emulator_0.1.0_linux_amd64.tar.gz"}) {
		t.Errorf("not rebuilt: %q, want the emulator's archive", c.notRebuilt)
	}
	if !slices.Equal(c.extra, []string{"videohost-receiver_0.1.0_linux_amd64.tar.gz"}) {
		t.Errorf("not recorded: %q, want the receiver's archive", c.extra)
	}
	if len(c.same) != 2 {
		t.Errorf("the same: %q, want the darwin zip and the manifest", c.same)
	}
	// report turns that into the exit status: a difference fails, even a partial rebuild.
	if got := quietly(t, func() int { return report(sumsFile, dist, extra, true) }); got != 1 {
		t.Errorf("report of a difference: exit %d, want 1", got)
	}
}

// TestReportPartial: a rebuild of some platforms whose files all match passes only as partial
// (3), so that no mirror is made from it; without -partial it fails.
func TestReportPartial(t *testing.T) {
	dist := t.TempDir()
	write(t, dist, "terraform-provider-videohost_0.1.0_linux_amd64.zip", "provider")
	sums := fmt.Sprintf("%s  terraform-provider-videohost_0.1.0_linux_amd64.zip\n%s  terraform-provider-videohost_0.1.0_windows_arm64.zip\n", sha("provider"), sha("windows"))
	sumsFile := filepath.Join(t.TempDir(), "terraform-provider-videohost_0.1.0_SHA256SUMS")
	write(t, filepath.Dir(sumsFile), filepath.Base(sumsFile), sums)
	if got := quietly(t, func() int { return report(sumsFile, dist, nil, true) }); got != 3 {
		t.Errorf("a partial rebuild that matches, -partial: exit %d, want 3", got)
	}
	if got := quietly(t, func() int { return report(sumsFile, dist, nil, false) }); got != 1 {
		t.Errorf("a partial rebuild without -partial: exit %d, want 1", got)
	}
	write(t, dist, "terraform-provider-videohost_0.1.0_windows_arm64.zip", "windows")
	if got := quietly(t, func() int { return report(sumsFile, dist, nil, false) }); got != 0 {
		t.Errorf("every file rebuilt the same: exit %d, want 0", got)
	}
}

// quietly runs f with its printing to stdout and stderr sent to a file of the test's.
func quietly(t *testing.T, f func() int) int {
	t.Helper()
	out, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	stdout, stderr := os.Stdout, os.Stderr
	os.Stdout, os.Stderr = out, out
	defer func() { os.Stdout, os.Stderr = stdout, stderr }()
	return f()
}

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
