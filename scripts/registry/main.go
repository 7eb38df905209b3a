// Command registry serves provider releases over the provider registry protocol, on a free
// loopback port over HTTPS, for `make release-check`: Terraform and OpenTofu install a release
// built by GoReleaser from it exactly as they do from a public registry, with no dev_overrides,
// checking the SHA256SUMS file's GPG signature and the zip's checksum.
//
// Each subdirectory of -root is a namespace holding one release as GoReleaser writes it:
// terraform-provider-TYPE_VERSION_OS_ARCH.zip files, terraform-provider-TYPE_VERSION_SHA256SUMS,
// its detached signature (.sig) and terraform-provider-TYPE_VERSION_manifest.json, whose
// protocol_versions the registry announces, as the public registries do. Every namespace is
// announced as signed by the key of -key (ASCII-armored) and -key-id; several namespaces let one
// registry serve a good release beside a tampered one.
//
// With -static DIR instead of -root, it serves DIR's files as they are, as any static file server
// or bucket would: the provider network mirror that scripts/mirror writes, for
// provider_installation { network_mirror { url = "https://localhost:PORT/" } }.
//
// It writes a self-signed certificate for localhost and 127.0.0.1 to -cert, for the CLI's
// SSL_CERT_FILE, and prints its base URL (https://localhost:PORT) as the first line on stdout.
// It logs each request on stderr and stops at SIGINT, SIGTERM, or when -timeout has passed.
package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"errors"
	"flag"
	"fmt"
	"log"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/serving"
)

func main() {
	root := flag.String("root", "", "directory whose subdirectories are namespaces, each holding one release")
	keyFile := flag.String("key", "", "ASCII-armored public GPG key that signed the releases")
	keyID := flag.String("key-id", "", "the key's ID (16 hex digits)")
	certFile := flag.String("cert", "", "file to write the server's certificate to (PEM), for SSL_CERT_FILE")
	static := flag.String("static", "", "serve this directory's files as they are (a network mirror) instead of a registry")
	timeout := flag.Duration("timeout", 15*time.Minute, "stop after this long, whatever happens")
	flag.Parse()
	if *static == "" && (*root == "" || *keyFile == "" || *keyID == "") || *certFile == "" {
		log.Fatal("registry: -cert is required, with -static DIR, or with -root, -key and -key-id")
	}
	var armor []byte
	if *static == "" {
		var err error
		if armor, err = os.ReadFile(*keyFile); err != nil {
			log.Fatal(err)
		}
	}
	cert, err := selfSigned(*certFile)
	if err != nil {
		log.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	_, port, err := net.SplitHostPort(ln.Addr().String())
	if err != nil {
		log.Fatal(err)
	}
	// The provider sources name the registry localhost:PORT, a host with a port that Terraform
	// and OpenTofu accept as a registry's; the certificate names localhost.
	base := "https://localhost:" + port
	fmt.Println(base)

	ctx, stop := serving.UntilSignal(context.Background())
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	var handler http.Handler
	if *static != "" {
		handler = http.FileServer(http.Dir(*static))
	} else {
		reg := &registry{root: *root, base: base, key: key{ID: *keyID, ASCIIArmor: string(armor)}}
		handler = reg.routes()
	}
	tlsLn := tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
	if err := serving.Serve(ctx, tlsLn, logged(handler), 10*time.Second); err != nil {
		log.Fatal(err)
	}
}

// selfSigned makes a key pair and a certificate for localhost and 127.0.0.1 that is its own
// authority, so that the PEM written to path is all the CLI needs to trust the server.
func selfSigned(path string) (tls.Certificate, error) {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return tls.Certificate{}, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "localhost"},
		NotBefore:             now.Add(-time.Minute),
		NotAfter:              now.Add(24 * time.Hour),
		DNSNames:              []string{"localhost"},
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &priv.PublicKey, priv)
	if err != nil {
		return tls.Certificate{}, err
	}
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	if err := os.WriteFile(path, certPEM, 0o644); err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: priv}, nil
}

// key is one entry of signing_keys.gpg_public_keys.
type key struct {
	ID         string `json:"key_id"`
	ASCIIArmor string `json:"ascii_armor"`
}

type registry struct {
	root string
	base string
	key  key
}

func (g *registry) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/terraform.json", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, map[string]string{"providers.v1": "/v1/providers/"})
	})
	mux.HandleFunc("GET /v1/providers/{namespace}/{type}/versions", g.versions)
	mux.HandleFunc("GET /v1/providers/{namespace}/{type}/{version}/download/{os}/{arch}", g.download)
	mux.HandleFunc("GET /files/{namespace}/{name}", func(w http.ResponseWriter, r *http.Request) {
		dir, ok := g.namespace(r.PathValue("namespace"))
		if !ok || strings.ContainsAny(r.PathValue("name"), `/\`) {
			http.NotFound(w, r)
			return
		}
		http.ServeFile(w, r, filepath.Join(dir, r.PathValue("name")))
	})
	return mux
}

// namespace returns the directory of a namespace, if it is one.
func (g *registry) namespace(name string) (string, bool) {
	if name == "" || strings.ContainsAny(name, `/\.`) {
		return "", false
	}
	dir := filepath.Join(g.root, name)
	st, err := os.Stat(dir)
	return dir, err == nil && st.IsDir()
}

// release is what a namespace's files say of one version of a provider.
type release struct {
	version   string
	sums      string            // the SHA256SUMS file's name
	zips      map[string]string // "os_arch" to the zip's name
	shasums   map[string]string // the zip's name to its SHA-256, from the sums file
	protocols []string
}

var sumsName = regexp.MustCompile(`^terraform-provider-([a-z0-9-]+)_([^_]+)_SHA256SUMS$`)

// releases reads every release of a provider type in a namespace directory.
func releases(dir, typ string) ([]release, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []release
	for _, e := range entries {
		m := sumsName.FindStringSubmatch(e.Name())
		if m == nil || m[1] != typ {
			continue
		}
		rel, err := readRelease(dir, typ, m[2], e.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, rel)
	}
	return out, nil
}

// readRelease reads the sums file and the manifest of one version.
func readRelease(dir, typ, version, sums string) (release, error) {
	rel := release{version: version, sums: sums, zips: map[string]string{}, shasums: map[string]string{}}
	b, err := os.ReadFile(filepath.Join(dir, sums))
	if err != nil {
		return rel, err
	}
	prefix := "terraform-provider-" + typ + "_" + version + "_"
	for line := range strings.Lines(string(b)) {
		sum, name, ok := strings.Cut(strings.TrimSpace(line), "  ")
		if !ok || !strings.HasPrefix(name, prefix) || !strings.HasSuffix(name, ".zip") {
			continue
		}
		rel.shasums[name] = sum
		rel.zips[strings.TrimSuffix(strings.TrimPrefix(name, prefix), ".zip")] = name
	}
	manifest, err := os.ReadFile(filepath.Join(dir, prefix+"manifest.json"))
	if err != nil {
		return rel, fmt.Errorf("the release has no manifest: %w", err)
	}
	var m struct {
		Metadata struct {
			ProtocolVersions []string `json:"protocol_versions"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(manifest, &m); err != nil || len(m.Metadata.ProtocolVersions) == 0 {
		return rel, errors.Join(errors.New("the manifest names no protocol_versions"), err)
	}
	rel.protocols = m.Metadata.ProtocolVersions
	return rel, nil
}

type platform struct {
	OS   string `json:"os"`
	Arch string `json:"arch"`
}

// requested returns the releases of the namespace and type of the request's path; it answers
// the request and returns false when there are none to read.
func (g *registry) requested(w http.ResponseWriter, r *http.Request) ([]release, bool) {
	dir, ok := g.namespace(r.PathValue("namespace"))
	if !ok {
		http.NotFound(w, r)
		return nil, false
	}
	rels, err := releases(dir, r.PathValue("type"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return nil, false
	}
	return rels, true
}

func (g *registry) versions(w http.ResponseWriter, r *http.Request) {
	rels, ok := g.requested(w, r)
	if !ok {
		return
	}
	type version struct {
		Version   string     `json:"version"`
		Protocols []string   `json:"protocols"`
		Platforms []platform `json:"platforms"`
	}
	out := []version{}
	for _, rel := range rels {
		v := version{Version: rel.version, Protocols: rel.protocols, Platforms: []platform{}}
		for osArch := range rel.zips {
			goos, arch, _ := strings.Cut(osArch, "_")
			v.Platforms = append(v.Platforms, platform{OS: goos, Arch: arch})
		}
		out = append(out, v)
	}
	writeJSON(w, map[string]any{"versions": out})
}

func (g *registry) download(w http.ResponseWriter, r *http.Request) {
	rels, ok := g.requested(w, r)
	if !ok {
		return
	}
	ns := r.PathValue("namespace")
	for _, rel := range rels {
		name, ok := rel.zips[r.PathValue("os")+"_"+r.PathValue("arch")]
		if rel.version != r.PathValue("version") || !ok {
			continue
		}
		files := g.base + "/files/" + ns + "/"
		writeJSON(w, map[string]any{
			"protocols":             rel.protocols,
			"os":                    r.PathValue("os"),
			"arch":                  r.PathValue("arch"),
			"filename":              name,
			"download_url":          files + name,
			"shasums_url":           files + rel.sums,
			"shasums_signature_url": files + rel.sums + ".sig",
			"shasum":                rel.shasums[name],
			"signing_keys":          map[string]any{"gpg_public_keys": []key{g.key}},
		})
		return
	}
	http.NotFound(w, r)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	if err := json.NewEncoder(w).Encode(v); err != nil {
		log.Print(err)
	}
}

// logged logs each request and its status on stderr, for the check's failure output.
func logged(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(rec, r)
		fmt.Fprintf(os.Stderr, "%s %s %s %d\n", time.Now().Format(time.RFC3339), r.Method, r.URL.Path, rec.status)
	})
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}
