package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
)

// The repository publishes its release signing keys in release-keys.asc, an armored block of
// public keys (gpg --armor --export), several when a new key was added beside an old one. Whoever
// adds a key with the wrong gpg command (--export-secret-keys) would publish the private half,
// and with it the power to sign a release: publicKeysOnly refuses any trace of one.

// publicKeysOnly checks the content of a key file: every armored block is a PGP PUBLIC KEY
// BLOCK whose packets hold no secret key or subkey, and no text names a private key of any kind
// (an SSH or PEM key pasted in by mistake). It returns the primary keys' fingerprints, upper-case
// hex, in the order of the file.
func publicKeysOnly(content []byte) ([]string, error) {
	if i := bytes.Index(content, []byte("PRIVATE KEY")); i >= 0 {
		start := bytes.LastIndexByte(content[:i], '\n') + 1
		return nil, fmt.Errorf("it holds a private key (%q at byte %d): publish the public key only, gpg --armor --export FINGERPRINT, and revoke the private key, which is no longer secret", firstLine(content[start:]), start)
	}
	const begin = "-----BEGIN PGP "
	var fingerprints []string
	rest := content
	for {
		i := bytes.Index(rest, []byte(begin))
		if i < 0 {
			break
		}
		block := rest[i:]
		end := bytes.Index(block, []byte("-----END PGP "))
		if end < 0 {
			return nil, errors.New("an armored block has no END line")
		}
		if next := bytes.IndexByte(block[end+5:], '\n'); next >= 0 {
			end += 5 + next + 1
		} else {
			end = len(block)
		}
		rest = block[end:]
		decoded, err := armor.Decode(bytes.NewReader(block[:end]))
		if err != nil {
			return nil, fmt.Errorf("an armored block cannot be read: %w", err)
		}
		if decoded.Type != "PGP PUBLIC KEY BLOCK" {
			return nil, fmt.Errorf("it holds a %s: only PGP PUBLIC KEY BLOCKs belong there (gpg --armor --export FINGERPRINT)", decoded.Type)
		}
		fps, err := publicPackets(decoded.Body)
		if err != nil {
			return nil, err
		}
		fingerprints = append(fingerprints, fps...)
	}
	if len(fingerprints) == 0 {
		return nil, errors.New("it holds no PGP PUBLIC KEY BLOCK: export the release key with gpg --armor --export FINGERPRINT")
	}
	return fingerprints, nil
}

// publicPackets reads every packet of a key block, refusing secret keys and subkeys (which a
// block labelled public may still carry), and returns the primary keys' fingerprints.
func publicPackets(body io.Reader) ([]string, error) {
	var fingerprints []string
	r := packet.NewReader(body)
	for {
		p, err := r.NextWithUnsupported()
		if errors.Is(err, io.EOF) {
			return fingerprints, nil
		}
		if err != nil {
			return nil, fmt.Errorf("a key block cannot be read: %w", err)
		}
		// A key of an algorithm the library does not know still says what packet it is: a secret
		// key of such an algorithm is refused like any other.
		if u, ok := p.(*packet.UnsupportedPacket); ok {
			p = u.IncompletePacket
		}
		switch k := p.(type) {
		case *packet.PrivateKey:
			what := "secret key"
			if k.IsSubkey {
				what = "secret subkey"
			}
			return nil, fmt.Errorf("it holds a %s (%X): publish the public key only, gpg --armor --export FINGERPRINT, and revoke the private key, which is no longer secret", what, k.Fingerprint)
		case *packet.PublicKey:
			if !k.IsSubkey {
				fingerprints = append(fingerprints, fmt.Sprintf("%X", k.Fingerprint))
			}
		}
	}
}

func firstLine(b []byte) string {
	line, _, _ := strings.Cut(string(b), "\n")
	return strings.TrimSpace(line)
}
