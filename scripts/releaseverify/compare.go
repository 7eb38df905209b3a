package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// comparison is what a rebuild of a release gave against its recorded sums, file by file.
type comparison struct {
	same       []string
	differ     []string // "NAME: recorded HEX, rebuilt HEX"
	notRebuilt []string // recorded, absent from the rebuild
	extra      []string // rebuilt archives that the record does not list
}

// compareRebuild hashes every file the recorded sums list, taking it from dist, or from files
// when it is named there (the registry manifest, which the release copies from the repository
// rather than building), and lists the archives of dist that the sums do not list.
func compareRebuild(sumsPath, dist string, files map[string]string) (comparison, error) {
	recorded, err := readSums(sumsPath)
	if err != nil {
		return comparison{}, err
	}
	var c comparison
	for _, name := range slices.Sorted(maps.Keys(recorded)) {
		path, ok := files[name]
		if !ok {
			path = filepath.Join(dist, name)
		}
		got, err := fileSHA256(path)
		if errors.Is(err, os.ErrNotExist) {
			c.notRebuilt = append(c.notRebuilt, name)
			continue
		}
		if err != nil {
			return comparison{}, err
		}
		if got != recorded[name] {
			c.differ = append(c.differ, fmt.Sprintf("%s: recorded %s, rebuilt %s", name, recorded[name], got))
			continue
		}
		c.same = append(c.same, name)
	}
	entries, err := os.ReadDir(dist)
	if err != nil {
		return comparison{}, err
	}
	for _, e := range entries {
		n := e.Name()
		archive := strings.HasSuffix(n, ".zip") || strings.HasSuffix(n, ".tar.gz")
		if _, listed := recorded[n]; archive && e.Type().IsRegular() && !listed {
			c.extra = append(c.extra, n)
		}
	}
	return c, nil
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
