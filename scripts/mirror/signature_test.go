package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
)

// newKey makes a throwaway signing key (Ed25519, quick to make): no key is committed for tests.
func newKey(t *testing.T, config *packet.Config) *openpgp.Entity {
	t.Helper()
	if config == nil {
		config = &packet.Config{}
	}
	config.Algorithm = packet.PubKeyAlgoEdDSA
	e, err := openpgp.NewEntity("videohost mirror test", "", "mirror-test@localhost", config)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// releaseKeyOnce is the key fakeRelease signs with, one for the test binary.
var releaseKeyOnce = sync.OnceValues(func() (*openpgp.Entity, error) {
	return openpgp.NewEntity("videohost release test", "", "release-test@localhost", &packet.Config{Algorithm: packet.PubKeyAlgoEdDSA})
})

func releaseKey(t *testing.T) *openpgp.Entity {
	t.Helper()
	e, err := releaseKeyOnce()
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// sign writes path.sig, the binary detached signature of path by signer, as gpg --detach-sign
// and GoReleaser write it; config sets the signature's time when it is not nil.
func sign(t *testing.T, signer *openpgp.Entity, path string, config *packet.Config) {
	t.Helper()
	content, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var sig bytes.Buffer
	if err := openpgp.DetachSign(&sig, signer, bytes.NewReader(content), config); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path+".sig", sig.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// publicKeyFile writes the armored public keys of signers to a file, as gpg --armor --export
// writes a release's published keys, and returns its path.
func publicKeyFile(t *testing.T, signers ...*openpgp.Entity) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "keys.asc")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := armor.Encode(f, openpgp.PublicKeyType, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range signers {
		if err := e.Serialize(w); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// trusted reads the public keys of signers as the mirror reads -key: from an armored file.
func trusted(t *testing.T, signers ...*openpgp.Entity) openpgp.EntityList {
	t.Helper()
	keys, err := readKeys(publicKeyFile(t, signers...))
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// replaceZip puts other bytes in the place of a release's zip and rewrites the sums to match, as
// someone who replaced the binary would, leaving the signature as it was.
func replaceZip(t *testing.T, dist, version, platform string) {
	t.Helper()
	name := fmt.Sprintf("%s_%s_%s.zip", project, version, platform)
	replaced := []byte("PK a replaced provider")
	if err := os.WriteFile(filepath.Join(dist, name), replaced, 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(replaced)
	sums := fmt.Sprintf("%s  %s\n", hex.EncodeToString(sum[:]), name)
	if err := os.WriteFile(filepath.Join(dist, project+"_"+version+"_SHA256SUMS"), []byte(sums), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestMirrorVerifiesTheSignature: a release is made into a mirror only when its sums carry a
// binary detached signature by one of the keys named. A replaced zip with sums rewritten to match
// is refused with a garbage signature and with the release's own, now stale, signature; so is a
// release signed by another key, by an expired key, or signed in armor; and a refused release
// leaves the mirror's directory empty.
func TestMirrorVerifiesTheSignature(t *testing.T) {
	other := newKey(t, nil)
	// A key that lived for an hour two days ago, and a signature it made then.
	then := &packet.Config{
		Time:            func() time.Time { return time.Now().Add(-48 * time.Hour) },
		KeyLifetimeSecs: 3600,
	}
	expired := newKey(t, then)
	cases := []struct {
		name  string
		spoil func(t *testing.T, dist, sumsFile string)
		keys  func(t *testing.T) openpgp.EntityList
		want  string
	}{
		{
			name: "replaced zip, rewritten sums, garbage signature",
			spoil: func(t *testing.T, dist, sumsFile string) {
				replaceZip(t, dist, "9.9.9", "linux_amd64")
				if err := os.WriteFile(sumsFile+".sig", []byte("garbage, not a signature"), 0o644); err != nil {
					t.Fatal(err)
				}
			},
			want: "does not verify",
		},
		{
			name: "replaced zip, rewritten sums, the release's stale signature",
			spoil: func(t *testing.T, dist, _ string) {
				replaceZip(t, dist, "9.9.9", "linux_amd64")
			},
			want: "does not verify",
		},
		{
			name: "signed by a key not named",
			keys: func(t *testing.T) openpgp.EntityList { return trusted(t, other) },
			want: "made by none of them",
		},
		{
			name: "signed by an expired key",
			spoil: func(t *testing.T, _, sumsFile string) {
				sign(t, expired, sumsFile, then)
			},
			keys: func(t *testing.T) openpgp.EntityList { return trusted(t, expired) },
			want: "expired",
		},
		{
			name: "an armored signature",
			spoil: func(t *testing.T, _, sumsFile string) {
				content, err := os.ReadFile(sumsFile)
				if err != nil {
					t.Fatal(err)
				}
				var sig bytes.Buffer
				if err := openpgp.ArmoredDetachSign(&sig, releaseKey(t), bytes.NewReader(content), nil); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(sumsFile+".sig", sig.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			},
			want: "is armored",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dist := fakeRelease(t, "9.9.9", "linux_amd64", "darwin_arm64")
			sumsFile := filepath.Join(dist, project+"_9.9.9_SHA256SUMS")
			if tc.spoil != nil {
				tc.spoil(t, dist, sumsFile)
			}
			keys := trusted(t, releaseKey(t))
			if tc.keys != nil {
				keys = tc.keys(t)
			}
			out := t.TempDir()
			_, err := write(dist, out, keys)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("write: %v, want a refusal saying %q", err, tc.want)
			}
			t.Logf("refused: %v", err)
			if entries, err := os.ReadDir(out); err != nil || len(entries) != 0 {
				t.Errorf("a refused release left %d files in the mirror (%v)", len(entries), err)
			}
		})
	}
}

// TestMirrorTakesAnyOfTheKeysNamed: a key file may list a new key beside the old one, and a
// release signed by either is taken; the sums and signature published are those checked.
func TestMirrorTakesAnyOfTheKeysNamed(t *testing.T) {
	newer := newKey(t, nil)
	dist := fakeRelease(t, "0.2.0", "linux_amd64")
	sumsFile := filepath.Join(dist, project+"_0.2.0_SHA256SUMS")
	sign(t, newer, sumsFile, nil)
	out := t.TempDir()
	keys := trusted(t, releaseKey(t), newer)
	if _, err := write(dist, out, keys); err != nil {
		t.Fatalf("a release signed by the second of two keys named: %v", err)
	}
	// -verify-only names the key that signed, so that whoever checks a release sees which of the
	// published keys vouches for it.
	signed, err := verifySums(sumsFile, keys)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(signed.fingerprint, newer.PrimaryKey.Fingerprint) {
		t.Errorf("the signer's fingerprint is %X, want the second key's %X", signed.fingerprint, newer.PrimaryKey.Fingerprint)
	}
	for _, f := range []string{sumsFile, sumsFile + ".sig"} {
		want, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(out, filepath.Base(f)))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("the mirror's %s differs from the release's (%v)", filepath.Base(f), err)
		}
	}
}

// TestMirrorKeyFile: with no key, a missing key file (the project's published one or another), a
// file that is not a key, or a private key, the mirror refuses before reading the release, and
// says how to name a key.
func TestMirrorKeyFile(t *testing.T) {
	dir := t.TempDir()
	notKey := filepath.Join(dir, "not-a-key.asc")
	if err := os.WriteFile(notKey, []byte("-----BEGIN PGP PUBLIC KEY BLOCK-----\n\ngarbage\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	private := filepath.Join(dir, "private.asc")
	f, err := os.Create(private)
	if err != nil {
		t.Fatal(err)
	}
	w, err := armor.Encode(f, openpgp.PrivateKeyType, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := newKey(t, nil).SerializePrivate(w, nil); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir) // publishedKeys is read from the working directory, where it is missing.
	for path, want := range map[string]string{
		"":                             "-key FILE",
		publishedKeys:                  "publishes its release keys there",
		filepath.Join(dir, "none.asc"): "is missing",
		notKey:                         "holds no armored OpenPGP public key",
		private:                        "holds a private key",
	} {
		if _, err := readKeys(path); err == nil || !strings.Contains(err.Error(), want) || (!strings.Contains(err.Error(), "gpg") && !strings.Contains(err.Error(), "-key FILE")) {
			t.Errorf("readKeys(%q): %v, want a refusal saying %q and how to name a key", path, err, want)
		}
	}
}
