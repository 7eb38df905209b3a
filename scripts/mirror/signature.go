package main

import (
	"bytes"
	"crypto"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ProtonMail/go-crypto/openpgp"
	pgperrors "github.com/ProtonMail/go-crypto/openpgp/errors"
)

// publishedKeys is the file of the project's release signing keys, in the repository's root: an
// armored public key block that may hold several keys, so that a new key can be listed beside
// the old one and both releases stay verifiable. -key names it unless told otherwise.
const publishedKeys = "release-keys.asc"

// sumsHashes are the digests a release's signature may use. The CLIs take a signature made with
// any of them; SHA-1 and older are refused, as a signature over them can be forged.
var sumsHashes = []crypto.Hash{crypto.SHA256, crypto.SHA384, crypto.SHA512}

// readKeys reads the armored public keys that a release must be signed by. A file that is missing
// or holds no key, or that holds a private key, is refused: the mirror never trusts a signature
// it cannot check.
func readKeys(path string) (openpgp.EntityList, error) {
	if path == "" {
		return nil, errors.New("no public key to check the release's signature with: name the armored public key of the release's signer with -key FILE (make mirror MIRROR_KEY=FILE)")
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		if path == publishedKeys {
			return nil, fmt.Errorf("%s is missing: the repository publishes its release keys there from its first release; name the armored public key of the release's signer with -key FILE (make mirror MIRROR_KEY=FILE)", path)
		}
		return nil, fmt.Errorf("the public key %s is missing: name an armored public key file with -key FILE (make mirror MIRROR_KEY=FILE)", path)
	}
	if err != nil {
		return nil, fmt.Errorf("the public key %s cannot be read: %w", path, err)
	}
	keys, err := openpgp.ReadArmoredKeyRing(bytes.NewReader(b))
	if err != nil || len(keys) == 0 {
		return nil, fmt.Errorf("%s holds no armored OpenPGP public key (%v): export one with gpg --armor --export FINGERPRINT", path, err)
	}
	for _, k := range keys {
		if k.PrivateKey != nil {
			return nil, fmt.Errorf("%s holds a private key: name the public key only (gpg --armor --export FINGERPRINT), and keep the private key out of files others read", path)
		}
	}
	return keys, nil
}

// signedSums is a release's SHA256SUMS whose detached signature was checked, with the bytes that
// were checked: the mirror parses and publishes these, never the file read a second time.
type signedSums struct {
	sums, sig []byte
	// fingerprint is the primary key's of the key that made the signature.
	fingerprint []byte
}

// verifySums checks that sumsFile.sig is a binary detached OpenPGP signature of sumsFile, as
// GoReleaser and HashiCorp's releases make it (gpg --detach-sign), by one of keys, unexpired and
// not revoked.
func verifySums(sumsFile string, keys openpgp.EntityList) (signedSums, error) {
	sums, err := os.ReadFile(sumsFile)
	if err != nil {
		return signedSums{}, err
	}
	sig, err := os.ReadFile(sumsFile + ".sig")
	if errors.Is(err, os.ErrNotExist) {
		return signedSums{}, fmt.Errorf("%s.sig is missing: a mirror carries the signed sums (sign the release first)", sumsFile)
	}
	if err != nil {
		return signedSums{}, err
	}
	if bytes.HasPrefix(bytes.TrimSpace(sig), []byte("-----BEGIN PGP")) {
		return signedSums{}, fmt.Errorf("%s.sig is armored: a release's signature is the binary detached signature that the CLIs read (gpg --detach-sign, without --armor)", sumsFile)
	}
	_, signer, err := openpgp.VerifyDetachedSignatureAndHash(keys, bytes.NewReader(sums), bytes.NewReader(sig), sumsHashes, nil)
	if err != nil {
		return signedSums{}, fmt.Errorf("refusing the release: %s.sig does not verify %s with the keys given (%s): %s", sumsFile, filepath.Base(sumsFile), fingerprints(keys), signatureProblem(err))
	}
	return signedSums{sums: sums, sig: sig, fingerprint: signer.PrimaryKey.Fingerprint}, nil
}

// signatureProblem says in words what the library's error means for the person running the
// mirror, and what to do.
func signatureProblem(err error) string {
	switch {
	case errors.Is(err, pgperrors.ErrUnknownIssuer):
		return "it was made by none of them, or it is not a signature; if you trust the key that signed the release, name it with -key FILE"
	case errors.Is(err, pgperrors.ErrKeyExpired):
		return "the key that made it has expired"
	case errors.Is(err, pgperrors.ErrKeyRevoked):
		return "the key that made it was revoked"
	case errors.Is(err, pgperrors.ErrSignatureExpired):
		return "the signature has expired"
	default:
		return err.Error() + "; the sums were changed after they were signed, or the signature is damaged: take the release again from where it was published"
	}
}

func fingerprints(keys openpgp.EntityList) string {
	fps := make([]string, 0, len(keys))
	for _, k := range keys {
		fps = append(fps, fmt.Sprintf("%X", k.PrimaryKey.Fingerprint))
	}
	return strings.Join(fps, ", ")
}
