package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeRelease writes a fake release of version into the mirror at out and returns write's error.
func writeRelease(t *testing.T, out, version string) error {
	t.Helper()
	_, err := write(fakeRelease(t, version, "linux_amd64", "darwin_arm64"), out, trusted(t, releaseKey(t)))
	return err
}

// TestMirrorRefusesAnotherBuildOfTheSameVersion: a development build of a version the mirror
// already holds as another build (0.1.0+dev.B beside 0.1.0+dev.A, or the release 0.1.0 beside
// it) is refused before anything is written, with a message that names the build the mirror
// holds and every file of it; once those files are removed the new build goes in, and the
// mirror lists it alone. The same build written again, and another version, are accepted.
func TestMirrorRefusesAnotherBuildOfTheSameVersion(t *testing.T) {
	out := t.TempDir()
	for _, v := range []string{"0.1.0+dev.aaaaaaaaaaaa", "0.1.0+dev.aaaaaaaaaaaa", "0.2.0+dev.cccccccccccc"} {
		if err := writeRelease(t, out, v); err != nil {
			t.Fatalf("writing %s: %v", v, err)
		}
	}
	for _, v := range []string{"0.1.0+dev.bbbbbbbbbbbb", "0.1.0"} {
		err := writeRelease(t, out, v)
		if err == nil {
			t.Fatalf("%s was written beside 0.1.0+dev.aaaaaaaaaaaa", v)
		}
		msg := err.Error()
		if !strings.Contains(msg, "already holds videohost/videohost 0.1.0+dev.aaaaaaaaaaaa") || !strings.Contains(msg, "build metadata") {
			t.Errorf("%s: the refusal does not name the build the mirror holds and why: %v", v, err)
		}
		if got, _ := filepath.Glob(filepath.Join(out, project+"_"+v+"_*")); len(got) != 0 {
			t.Errorf("%s was refused but %v were written", v, got)
		}
	}
	if got, err := mirroredVersions(out); err != nil || strings.Join(got, " ") != "0.1.0+dev.aaaaaaaaaaaa 0.2.0+dev.cccccccccccc" {
		t.Fatalf("after the refusals the mirror holds %v (%v), want the two builds written", got, err)
	}

	// The files the refusal names are the whole build: removed, the new build goes in alone.
	err := writeRelease(t, out, "0.1.0+dev.bbbbbbbbbbbb")
	files := refusedFiles(t, err)
	if len(files) != 2+2+len(hosts) {
		t.Errorf("the refusal names %d files, want 2 zips, the sums, their signature and a document per host: %v", len(files), files)
	}
	for _, f := range files {
		if err := os.Remove(f); err != nil {
			t.Fatalf("removing a file the refusal named: %v", err)
		}
	}
	if err := writeRelease(t, out, "0.1.0+dev.bbbbbbbbbbbb"); err != nil {
		t.Fatalf("after removing the named files: %v", err)
	}
	for _, host := range hosts {
		var index struct {
			Versions map[string]struct{} `json:"versions"`
		}
		readJSON(t, filepath.Join(out, host, "videohost", "videohost", "index.json"), &index)
		if _, old := index.Versions["0.1.0+dev.aaaaaaaaaaaa"]; old || len(index.Versions) != 2 {
			t.Errorf("%s index.json lists %v, want 0.1.0+dev.bbbbbbbbbbbb and 0.2.0+dev.cccccccccccc", host, index.Versions)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(out, project+"_0.1.0+dev.aaaaaaaaaaaa_*")); len(left) != 0 {
		t.Errorf("files of the removed build are left: %v", left)
	}
}

// refusedFiles is the list of files after "rm" in a refusal.
func refusedFiles(t *testing.T, err error) []string {
	t.Helper()
	if err == nil {
		t.Fatal("the build was not refused")
	}
	_, rest, ok := strings.Cut(err.Error(), "\n  rm ")
	if !ok {
		t.Fatalf("the refusal names no files to remove: %v", err)
	}
	list, _, _ := strings.Cut(rest, "\nor ")
	var files []string
	for _, f := range strings.Fields(list) {
		if f != "\\" {
			files = append(files, f)
		}
	}
	return files
}
