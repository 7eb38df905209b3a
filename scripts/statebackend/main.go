// Command statebackend serves Terraform's http state backend from memory on a free loopback
// port, for the benchmarks: `make bench-scale` measures an apply whose state lives in a remote
// backend, which Terraform persists every 20 s, beside one in the local state file, which it
// rewrites whole and syncs to disk after every resource. The first line on stdout is the base
// URL; any path under it holds one state (GET, POST, DELETE). No locking: one terraform at a
// time. SIGINT or SIGTERM stops it.
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/serving"
)

// maxState bounds a state's size (3,000 resources are about 5 MiB).
const maxState = 256 << 20

func main() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("http://%s\n", ln.Addr())
	ctx, stop := serving.UntilSignal(context.Background())
	defer stop()
	if err := serving.Serve(ctx, ln, newStates(), 10*time.Second); err != nil {
		log.Fatal(err)
	}
}

type states struct {
	mu     sync.Mutex
	byPath map[string][]byte
}

func newStates() *states { return &states{byPath: map[string][]byte{}} }

func (s *states) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch r.Method {
	case http.MethodGet:
		b, ok := s.byPath[r.URL.Path]
		if !ok {
			// Terraform reads a missing state as an empty one.
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write(b)
	case http.MethodPost:
		b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxState))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s.byPath[r.URL.Path] = b
		fmt.Fprintf(os.Stderr, "%s stored %s: %d bytes\n", time.Now().Format(time.RFC3339Nano), r.URL.Path, len(b))
	case http.MethodDelete:
		delete(s.byPath, r.URL.Path)
	default:
		http.Error(w, "GET, POST or DELETE", http.StatusMethodNotAllowed)
	}
}
