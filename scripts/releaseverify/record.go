package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/mod/semver"
)

const project = "terraform-provider-videohost"

// A release record is the directory releases/X.Y.Z/ of the repository, written by the maintainer
// who cut the release (RELEASING.md), so that a clone finds every release and what was published
// for it even without tags:
//
//	COMMIT                                     the full hash of the commit the tag vX.Y.Z points at
//	terraform-provider-videohost_X.Y.Z_SHA256SUMS      the sums exactly as published
//	terraform-provider-videohost_X.Y.Z_SHA256SUMS.sig  their binary detached OpenPGP signature
//
// and nothing else: a file more is refused, so that nobody mistakes it for part of the release.
type record struct {
	version string
	commit  string
	// sums is the path of the recorded SHA256SUMS; its signature is sums + ".sig".
	sums string
}

// commitHash is a full commit hash: SHA-1 (40 hex digits) or, in a SHA-256 repository, 64.
var commitHash = regexp.MustCompile(`^([0-9a-f]{40}|[0-9a-f]{64})$`)

// recordedVersions lists the versions recorded under releases, oldest first; a directory there
// whose name is not a version is refused (a typo would otherwise hide a release from the CI's
// check of the latest one). Plain files (a README) are not records.
func recordedVersions(releases string) ([]string, error) {
	entries, err := os.ReadDir(releases)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var versions []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if !semver.IsValid("v"+e.Name()) || strings.Contains(e.Name(), "+") || strings.Count(e.Name(), ".") < 2 {
			return nil, fmt.Errorf("%s is not a release record: the directories of %s are named for a released version, X.Y.Z", filepath.Join(releases, e.Name()), releases)
		}
		versions = append(versions, e.Name())
	}
	slices.SortFunc(versions, func(a, b string) int { return semver.Compare("v"+a, "v"+b) })
	return versions, nil
}

// readRecord reads and checks the record of version under releases; an empty version names the
// latest release recorded. ok is false, with no error, when no release is recorded at all.
func readRecord(releases, version string) (rec record, ok bool, err error) {
	versions, err := recordedVersions(releases)
	if err != nil {
		return record{}, false, err
	}
	if version == "" {
		if len(versions) == 0 {
			return record{}, false, nil
		}
		version = versions[len(versions)-1]
	}
	if !slices.Contains(versions, version) {
		recorded := "none"
		if len(versions) > 0 {
			recorded = strings.Join(versions, ", ")
		}
		return record{}, false, fmt.Errorf("release %s is not recorded in %s (recorded: %s): VERSION names a released version, X.Y.Z without a v", version, releases, recorded)
	}
	dir := filepath.Join(releases, version)
	sumsName := project + "_" + version + "_SHA256SUMS"
	rec = record{version: version, sums: filepath.Join(dir, sumsName)}

	entries, err := os.ReadDir(dir)
	if err != nil {
		return record{}, false, err
	}
	want := []string{"COMMIT", sumsName, sumsName + ".sig"}
	for _, e := range entries {
		if !slices.Contains(want, e.Name()) {
			return record{}, false, fmt.Errorf("%s holds %s, which is no part of a release record (%s): remove it", dir, e.Name(), strings.Join(want, ", "))
		}
	}
	for _, name := range want {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			return record{}, false, fmt.Errorf("%s lacks %s: a release record holds %s (RELEASING.md)", dir, name, strings.Join(want, ", "))
		}
	}

	b, err := os.ReadFile(filepath.Join(dir, "COMMIT"))
	if err != nil {
		return record{}, false, err
	}
	rec.commit = strings.TrimSpace(string(b))
	if !commitHash.MatchString(rec.commit) {
		return record{}, false, fmt.Errorf("%s holds %q, not a full commit hash: write the output of git rev-parse v%s^{commit}", filepath.Join(dir, "COMMIT"), rec.commit, version)
	}

	sums, err := readSums(rec.sums)
	if err != nil {
		return record{}, false, err
	}
	zips := 0
	for name := range sums {
		if !strings.Contains(name, "_"+version+"_") {
			return record{}, false, fmt.Errorf("%s lists %s, which is not a file of release %s", rec.sums, name, version)
		}
		if strings.HasSuffix(name, ".sig") {
			return record{}, false, fmt.Errorf("%s lists the signature %s: the sums were changed after signing (the GoReleaser v2.15.0/v2.15.1 bug); record the sums as they were signed", rec.sums, name)
		}
		if strings.HasPrefix(name, project+"_"+version+"_") && strings.HasSuffix(name, ".zip") {
			zips++
		}
	}
	if zips == 0 {
		return record{}, false, fmt.Errorf("%s lists no %s_%s_OS_ARCH.zip: it is not the sums of a release of the provider", rec.sums, project, version)
	}

	sig, err := os.ReadFile(rec.sums + ".sig")
	if err != nil {
		return record{}, false, err
	}
	if bytes.HasPrefix(bytes.TrimSpace(sig), []byte("-----BEGIN PGP")) {
		return record{}, false, fmt.Errorf("%s.sig is armored: record the binary detached signature that was published (gpg --detach-sign, without --armor)", rec.sums)
	}
	return rec, true, nil
}

// readSums reads a SHA256SUMS file: "HEX  NAME" per line, each name once.
func readSums(path string) (map[string]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	sums := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok || len(sum) != 64 || strings.Trim(sum, "0123456789abcdef") != "" || name == "" {
			return nil, fmt.Errorf("%s: %q is not a line of SHA256SUMS (64 lowercase hex digits, two spaces, a name)", path, sc.Text())
		}
		if _, dup := sums[name]; dup {
			return nil, fmt.Errorf("%s lists %s twice", path, name)
		}
		sums[name] = sum
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(sums) == 0 {
		return nil, fmt.Errorf("%s is empty", path)
	}
	return sums, nil
}
