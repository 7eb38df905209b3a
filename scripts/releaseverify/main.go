// Command releaseverify holds the logic of make release-verify (scripts/release-verify.sh), which
// rebuilds a recorded release from its commit and checks it against what was published:
//
//	go run ./scripts/releaseverify record [-releases releases] [-version X.Y.Z]
//	go run ./scripts/releaseverify compare -sums FILE -dist DIR [-file NAME=PATH]... [-partial]
//	go run ./scripts/releaseverify keys [-file release-keys.asc] [-policy SECURITY.md]
//
// record checks the release record releases/X.Y.Z/ (COMMIT, the SHA256SUMS as published and its
// signature; RELEASING.md describes it), the latest recorded one when -version is empty, and
// prints "VERSION COMMIT"; with no release recorded it prints nothing and exits 0.
//
// compare hashes every file the recorded sums list, from the rebuild's directory (or the path
// -file names for it), and says which differ, which were not rebuilt and which archives the
// rebuild made that the record does not list; it exits 1 on any of them. With -partial (a rebuild
// of some platforms only) files not rebuilt are reported and the exit status is 3 when there
// are some, so that the caller knows the mirror cannot be made from the rebuild.
//
// keys checks that the published key file holds public keys only, and that SECURITY.md gives
// every one's fingerprint; it prints the fingerprints.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
)

func main() {
	if len(os.Args) < 2 {
		fatal(errors.New("name a command: record, compare or keys"))
	}
	switch os.Args[1] {
	case "record":
		fs := flag.NewFlagSet("record", flag.ExitOnError)
		releases := fs.String("releases", "releases", "the directory of the release records")
		version := fs.String("version", "", "the version to check, X.Y.Z; the latest recorded when empty")
		_ = fs.Parse(os.Args[2:])
		rec, ok, err := readRecord(*releases, strings.TrimPrefix(*version, "v"))
		if err != nil {
			fatal(err)
		}
		if ok {
			fmt.Println(rec.version, rec.commit)
		}
	case "compare":
		fs := flag.NewFlagSet("compare", flag.ExitOnError)
		sums := fs.String("sums", "", "the recorded SHA256SUMS")
		dist := fs.String("dist", "", "the rebuild's directory (GoReleaser's dist)")
		partial := fs.Bool("partial", false, "the rebuild made some platforms only: files not rebuilt are no failure")
		files := map[string]string{}
		fs.Func("file", "NAME=PATH: take the file NAME of the sums from PATH rather than from -dist", func(v string) error {
			name, path, ok := strings.Cut(v, "=")
			if !ok || name == "" || path == "" {
				return errors.New("want NAME=PATH")
			}
			files[name] = path
			return nil
		})
		_ = fs.Parse(os.Args[2:])
		if *sums == "" || *dist == "" {
			fatal(errors.New("compare: -sums and -dist are required"))
		}
		os.Exit(report(*sums, *dist, files, *partial))
	case "keys":
		fs := flag.NewFlagSet("keys", flag.ExitOnError)
		file := fs.String("file", "release-keys.asc", "the published public keys")
		policy := fs.String("policy", "SECURITY.md", "the page that lists their fingerprints")
		_ = fs.Parse(os.Args[2:])
		fps, err := checkKeyFile(*file, *policy)
		if err != nil {
			fatal(err)
		}
		fmt.Printf("%s: %d public key(s), no private key material, each fingerprint in %s: %s\n", *file, len(fps), *policy, strings.Join(fps, ", "))
	default:
		fatal(fmt.Errorf("unknown command %q: record, compare or keys", os.Args[1]))
	}
}

// report prints the comparison of a rebuild with its recorded sums and returns the exit status.
func report(sums, dist string, files map[string]string, partial bool) int {
	c, err := compareRebuild(sums, dist, files)
	if err != nil {
		fatal(err)
	}
	total := len(c.same) + len(c.differ) + len(c.notRebuilt)
	for _, d := range c.differ {
		fmt.Printf("    DIFFERS      %s\n", d)
	}
	for _, n := range c.notRebuilt {
		fmt.Printf("    NOT REBUILT  %s\n", n)
	}
	for _, n := range c.extra {
		fmt.Printf("    NOT RECORDED %s: the rebuild made it, the recorded sums do not list it\n", n)
	}
	fmt.Printf("releaseverify: %d of the %d files of %s rebuilt with the recorded SHA-256\n", len(c.same), total, sums)
	switch {
	case len(c.differ) > 0 || len(c.extra) > 0:
		fmt.Fprintf(os.Stderr, "releaseverify: the rebuild is not the release: %d file(s) differ, %d archive(s) not recorded (listed above)\n", len(c.differ), len(c.extra))
		return 1
	case len(c.notRebuilt) > 0 && !partial:
		fmt.Fprintf(os.Stderr, "releaseverify: %d file(s) of the record were not rebuilt (listed above): the rebuild must make every platform the release published\n", len(c.notRebuilt))
		return 1
	case len(c.notRebuilt) > 0:
		return 3
	}
	return 0
}

// checkKeyFile checks the published key file (public keys only) and that the policy page gives
// the fingerprint of each key, in any grouping of its hex digits.
func checkKeyFile(file, policy string) ([]string, error) {
	content, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	fps, err := publicKeysOnly(content)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	page, err := os.ReadFile(policy)
	if err != nil {
		return nil, err
	}
	flat := strings.ToUpper(strings.NewReplacer(" ", "", "\u00a0", "").Replace(string(page)))
	for _, fp := range fps {
		if !strings.Contains(flat, fp) {
			return nil, fmt.Errorf("%s does not give the fingerprint of the key %s of %s: list every published key there, the old ones too", policy, fp, file)
		}
	}
	return fps, nil
}

func fatal(err error) {
	fmt.Fprintf(os.Stderr, "releaseverify: %v\n", err)
	os.Exit(1)
}
