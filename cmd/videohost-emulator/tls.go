package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// tlsSetup is what -tls gives: the server's certificate, the file a client trusts it from, and
// the base64 SHA-256 of its public key (SubjectPublicKeyInfo), the form that Chromium's
// --ignore-certificate-errors-spki-list takes to trust exactly this certificate.
type tlsSetup struct {
	config   *tls.Config
	certPath string
	spki     string
	// cleanup removes the generated files; nil for files given with -tls-cert.
	cleanup func()
}

// setupTLS loads -tls-cert and -tls-key when given, or generates a certificate for the
// loopback names and listenHost, valid for 30 days, into a new temporary directory.
func setupTLS(certFile, keyFile, listenHost string) (*tlsSetup, error) {
	if (certFile == "") != (keyFile == "") {
		return nil, errors.New("-tls-cert and -tls-key go together: give both, or neither to have a certificate generated")
	}
	if certFile != "" {
		cert, err := tls.LoadX509KeyPair(certFile, keyFile)
		if err != nil {
			return nil, fmt.Errorf("loading -tls-cert and -tls-key: %w", err)
		}
		return newTLSSetup(cert, certFile, nil)
	}
	certPEM, keyPEM, err := generateCert(listenHost)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "videohost-emulator-tls-")
	if err != nil {
		return nil, err
	}
	cleanup := func() { _ = os.RemoveAll(dir) }
	certPath := filepath.Join(dir, "cert.pem")
	if err := os.WriteFile(certPath, certPEM, 0o644); err != nil { //nolint:gosec // A certificate is public.
		cleanup()
		return nil, err
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		cleanup()
		return nil, err
	}
	return newTLSSetup(cert, certPath, cleanup)
}

func newTLSSetup(cert tls.Certificate, certPath string, cleanup func()) (*tlsSetup, error) {
	leaf, err := x509.ParseCertificate(cert.Certificate[0])
	if err != nil {
		if cleanup != nil {
			cleanup()
		}
		return nil, fmt.Errorf("parsing the certificate: %w", err)
	}
	sum := sha256.Sum256(leaf.RawSubjectPublicKeyInfo)
	return &tlsSetup{
		config:   &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12},
		certPath: certPath,
		spki:     base64.StdEncoding.EncodeToString(sum[:]),
		cleanup:  cleanup,
	}, nil
}

// generateCert makes a self-signed ECDSA P-256 certificate (PEM) and its key (PEM) for
// localhost, 127.0.0.1, ::1 and host when it is another name or address.
func generateCert(host string) (certPEM, keyPEM []byte, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 120))
	if err != nil {
		return nil, nil, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "videohost-emulator"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(30 * 24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		// A CA of its own, so that a client can trust it as a root (SSL_CERT_FILE, NODE_EXTRA_CA_CERTS).
		IsCA:        true,
		DNSNames:    []string{"localhost"},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	if ip := net.ParseIP(host); ip != nil && !ip.IsLoopback() && !ip.IsUnspecified() {
		tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
	} else if ip == nil && host != "" && host != "localhost" {
		tmpl.DNSNames = append(tmpl.DNSNames, host)
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, err
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), nil
}
