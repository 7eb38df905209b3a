package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A mirror never holds two builds of one version that differ only in their build metadata
// (0.1.0+dev.A and 0.1.0+dev.B, or 0.1.0 and 0.1.0+dev.A): semantic versioning ignores build
// metadata when it orders versions, so Terraform and OpenTofu see a tie and pick either build
// from one init to the next. Writing such a build is refused rather than replacing the one the
// mirror holds: a lock file records the exact build it installed, so a replacement would break
// every init of the configurations locked to the build it removed, on every machine that uses
// the mirror. Whoever publishes the mirror decides which build goes; the refusal names the files
// to remove.

// sumsVersion is the version a release's terraform-provider-videohost_VERSION_SHA256SUMS names.
func sumsVersion(sumsFile string) string {
	return strings.TrimSuffix(strings.TrimPrefix(filepath.Base(sumsFile), project+"_"), "_SHA256SUMS")
}

// coreVersion is version without its build metadata (the part from "+").
func coreVersion(version string) string {
	core, _, _ := strings.Cut(version, "+")
	return core
}

// mirroredVersions lists the versions the mirror at out holds, from the version documents of
// both hosts (HOST/videohost/videohost/VERSION.json), sorted, each once.
func mirroredVersions(out string) ([]string, error) {
	var versions []string
	for _, host := range hosts {
		docs, err := filepath.Glob(filepath.Join(out, host, "videohost", "videohost", "*.json"))
		if err != nil {
			return nil, err
		}
		for _, d := range docs {
			if v := strings.TrimSuffix(filepath.Base(d), ".json"); v != "index" && !slices.Contains(versions, v) {
				versions = append(versions, v)
			}
		}
	}
	slices.Sort(versions)
	return versions, nil
}

// refuseOtherBuilds returns an error when the mirror at out holds another build of version, one
// that differs from it only in build metadata, naming that build and every file of it to remove;
// nil when it holds none (the same build written again is not another).
func refuseOtherBuilds(out, version string) error {
	versions, err := mirroredVersions(out)
	if err != nil {
		return err
	}
	var others []string
	for _, v := range versions {
		if v != version && coreVersion(v) == coreVersion(version) {
			others = append(others, v)
		}
	}
	if len(others) == 0 {
		return nil
	}
	var files []string
	for _, v := range others {
		f, err := buildFiles(out, v)
		if err != nil {
			return err
		}
		files = append(files, f...)
	}
	return fmt.Errorf("%s already holds videohost/videohost %s, which differs from %s only in build metadata: "+
		"Terraform and OpenTofu ignore build metadata when they order versions, so they would pick either "+
		"build at random. Nothing was written. If no lock file names %s any more, remove its files and run "+
		"again:\n  rm %s\nor write %s into another mirror directory",
		out, strings.Join(others, " and "), version, strings.Join(others, " or "), strings.Join(files, " \\\n     "), version)
}

// buildFiles lists the files of one version in the mirror at out: its zips, its signed sums and
// its version document under each host. The index lists it until the next run rewrites it.
func buildFiles(out, version string) ([]string, error) {
	var files []string
	for _, pattern := range []string{
		project + "_" + version + "_*_*.zip",
		project + "_" + version + "_SHA256SUMS",
		project + "_" + version + "_SHA256SUMS.sig",
	} {
		found, err := filepath.Glob(filepath.Join(out, pattern))
		if err != nil {
			return nil, err
		}
		files = append(files, found...)
	}
	for _, host := range hosts {
		doc := filepath.Join(out, host, "videohost", "videohost", version+".json")
		if _, err := os.Stat(doc); err == nil {
			files = append(files, doc)
		}
	}
	return files, nil
}
