package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
)

// TestPublishedKeysHoldNoPrivateKey: the repository's release-keys.asc holds public keys only
// (no private key material of any kind) and SECURITY.md gives every one's fingerprint. Before
// the first release there is no key file, and then no release may be recorded either.
func TestPublishedKeysHoldNoPrivateKey(t *testing.T) {
	fps, err := checkKeyFile("../../release-keys.asc", "../../SECURITY.md")
	if errors.Is(err, os.ErrNotExist) {
		versions, rerr := recordedVersions("../../releases")
		if rerr != nil || len(versions) > 0 {
			t.Fatalf("release-keys.asc is missing while releases %v are recorded (%v): publish the keys that signed them", versions, rerr)
		}
		t.Log("release-keys.asc is not there yet: no release is recorded, no key is published")
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("release-keys.asc: %d public key(s): %s", len(fps), strings.Join(fps, ", "))
}

// TestPublicKeysOnly: the check refuses every way a private key could be published by mistake,
// and takes a file of several public keys, the old key kept beside the new.
func TestPublicKeysOnly(t *testing.T) {
	old, newer := testKey(t, "old"), testKey(t, "new")
	public := armored(t, openpgp.PublicKeyType, func(w *bytes.Buffer) error {
		if err := old.Serialize(w); err != nil {
			return err
		}
		return newer.Serialize(w)
	})
	fps, err := publicKeysOnly(public)
	want := []string{fmt.Sprintf("%X", old.PrimaryKey.Fingerprint), fmt.Sprintf("%X", newer.PrimaryKey.Fingerprint)}
	if err != nil || strings.Join(fps, " ") != strings.Join(want, " ") {
		t.Fatalf("two public keys: %v, %v; want %v", fps, err, want)
	}
	// Two blocks, as two gpg --armor --export appended one after the other.
	two := append(armored(t, openpgp.PublicKeyType, func(w *bytes.Buffer) error { return old.Serialize(w) }),
		armored(t, openpgp.PublicKeyType, func(w *bytes.Buffer) error { return newer.Serialize(w) })...)
	if fps, err := publicKeysOnly(two); err != nil || len(fps) != 2 {
		t.Fatalf("two blocks of one key each: %v, %v; want both keys", fps, err)
	}

	private := armored(t, openpgp.PrivateKeyType, func(w *bytes.Buffer) error { return old.SerializePrivate(w, nil) })
	for _, tc := range []struct {
		name    string
		content []byte
		want    string
	}{
		{"gpg --armor --export-secret-keys", private, "holds a private key"},
		{"the private key appended to the public keys", append(append([]byte{}, public...), private...), "holds a private key"},
		{"secret key packets under a public label", bytes.ReplaceAll(private, []byte("PGP PRIVATE KEY BLOCK"), []byte("PGP PUBLIC KEY BLOCK")), "holds a secret key"},
		{"an SSH key pasted in", append(append([]byte{}, public...), "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n"...), "holds a private key"},
		{"a signature rather than a key", armored(t, openpgp.SignatureType, func(w *bytes.Buffer) error { return openpgp.DetachSign(w, old, strings.NewReader("x"), nil) }), "only PGP PUBLIC KEY BLOCKs belong there"},
		{"no key at all", []byte("keys come with the first release\n"), "holds no PGP PUBLIC KEY BLOCK"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := publicKeysOnly(tc.content)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error saying %q", err, tc.want)
			}
		})
	}
	// The secret subkey alone (gpg --export-secret-subkeys) is private material too.
	sub := armored(t, openpgp.PublicKeyType, func(w *bytes.Buffer) error {
		if err := old.PrimaryKey.Serialize(w); err != nil {
			return err
		}
		return old.Subkeys[0].PrivateKey.Serialize(w)
	})
	if _, err := publicKeysOnly(sub); err == nil || !strings.Contains(err.Error(), "holds a secret subkey") {
		t.Errorf("a secret subkey: %v, want it refused", err)
	}
}

// TestKeyFileFingerprintsInPolicy: every key of the file must have its fingerprint in the policy
// page, in whatever grouping gpg prints it; a key the page does not name is refused.
func TestKeyFileFingerprintsInPolicy(t *testing.T) {
	old, newer := testKey(t, "old"), testKey(t, "new")
	dir := t.TempDir()
	write(t, dir, "release-keys.asc", string(armored(t, openpgp.PublicKeyType, func(w *bytes.Buffer) error {
		if err := old.Serialize(w); err != nil {
			return err
		}
		return newer.Serialize(w)
	})))
	grouped := fmt.Sprintf("% X", old.PrimaryKey.Fingerprint[:2]) + " " + fmt.Sprintf("%X", old.PrimaryKey.Fingerprint[2:])
	write(t, dir, "SECURITY.md", "| `"+grouped+"` | 0.1.0 |\n")
	_, err := checkKeyFile(filepath.Join(dir, "release-keys.asc"), filepath.Join(dir, "SECURITY.md"))
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%X", newer.PrimaryKey.Fingerprint)) {
		t.Fatalf("the new key not in the policy: %v, want it named", err)
	}
	appendTo(t, dir, "SECURITY.md", fmt.Sprintf("| `%x` | 0.2.0 |\n", newer.PrimaryKey.Fingerprint))
	if fps, err := checkKeyFile(filepath.Join(dir, "release-keys.asc"), filepath.Join(dir, "SECURITY.md")); err != nil || len(fps) != 2 {
		t.Fatalf("both keys in the policy: %v, %v", fps, err)
	}
}

func testKey(t *testing.T, name string) *openpgp.Entity {
	t.Helper()
	e, err := openpgp.NewEntity("videohost "+name, "", name+"@localhost", &packet.Config{Algorithm: packet.PubKeyAlgoEdDSA})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// armored returns what body writes, in an armored block of the type given.
func armored(t *testing.T, blockType string, body func(w *bytes.Buffer) error) []byte {
	t.Helper()
	var inner, out bytes.Buffer
	if err := body(&inner); err != nil {
		t.Fatal(err)
	}
	w, err := armor.Encode(&out, blockType, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(inner.Bytes()); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	out.WriteByte('\n')
	return out.Bytes()
}
