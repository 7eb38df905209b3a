package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// buildToxiproxy builds Toxiproxy's server once per version from the Go module proxy into the
// cache (a tool line in go.mod would pull its modules into the project's graph).
func (b *bench) buildToxiproxy() {
	cache := os.Getenv("XDG_CACHE_HOME")
	if cache == "" {
		home, err := os.UserHomeDir()
		check(err)
		cache = filepath.Join(home, ".cache")
	}
	dir := filepath.Join(cache, "terraform-provider-videohost", "toxiproxy-"+toxiproxyVersion)
	b.toxiproxy = filepath.Join(dir, "server")
	if st, err := os.Stat(b.toxiproxy); err == nil && st.Mode()&0o111 != 0 {
		return
	}
	b.say("bench-upload: building Toxiproxy %s into %s (once)", toxiproxyVersion, dir)
	p, err := b.ps.start("toxiproxy-build", []string{"GOBIN=" + dir}, "go", "install", "github.com/Shopify/toxiproxy/v2/cmd/server@"+toxiproxyVersion)
	check(err)
	select {
	case <-p.done:
	case <-time.After(15 * time.Minute):
		b.ps.stop(p)
	}
	if rc := b.ps.wait(p); rc != 0 {
		fail("go install github.com/Shopify/toxiproxy/v2/cmd/server@%s failed: %s", toxiproxyVersion, b.tail("toxiproxy-build.err"))
	}
}

// freePort is a loopback port nothing listens on (Toxiproxy's API takes no port 0), below the
// kernel's range of ephemeral ports: a port the transfers' own connections hold as their local
// end cannot be listened on, and a run opens hundreds.
func freePort() int {
	low := 32768
	if data, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		if f := strings.Fields(string(data)); len(f) > 0 {
			if n, err := strconv.Atoi(f[0]); err == nil && n > 20001 {
				low = n
			}
		}
	}
	for range 50 {
		p := 20000 + rand.IntN(low-20000)
		c, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)), time.Second)
		if err != nil {
			return p
		}
		c.Close()
	}
	fail("no free loopback port found for Toxiproxy's API")
	return 0
}

// startProxy starts Toxiproxy on loopback with one proxy to the emulator and the model's toxics
// on it, and points terraform and curl at the proxy. It returns the Toxiproxy process.
func (b *bench) startProxy() *process {
	var p *process
	var api string
	// Another process may take the port between freePort and Toxiproxy's bind: then a new port.
	for try := 1; ; try++ {
		port := freePort()
		var err error
		p, err = b.ps.start("toxiproxy", nil, b.toxiproxy, "-host", "127.0.0.1", "-port", strconv.Itoa(port))
		check(err)
		api = fmt.Sprintf("http://127.0.0.1:%d", port)
		if b.answers(api+"/version", p) {
			break
		}
		b.say("bench-upload: Toxiproxy did not answer on port %d (try %d): %s", port, try, b.tail("toxiproxy.err"))
		b.ps.stop(p)
		if try == 5 {
			fail("Toxiproxy did not start on 5 ports")
		}
	}
	var proxy struct {
		Listen string `json:"listen"`
	}
	check(json.Unmarshal(b.toxi(api, "/proxies", map[string]any{"name": "emulator", "listen": "127.0.0.1:0",
		"upstream": strings.TrimPrefix(b.emuURL, "http://")}), &proxy))
	if !strings.HasPrefix(proxy.Listen, "127.0.0.1:") {
		fail("Toxiproxy's proxy listens on '%s'", proxy.Listen)
	}
	// Toxiproxy gives every connection its own copy of each toxic: 25 ms and 100 Mbit/s each way,
	// per connection, as a path where each TCP connection is held to its window over the round
	// trip.
	for _, stream := range []string{"upstream", "downstream"} {
		b.toxi(api, "/proxies/emulator/toxics", map[string]any{"name": "latency_" + stream, "stream": stream, "type": "latency",
			"attributes": map[string]int{"latency": 25}})
		b.toxi(api, "/proxies/emulator/toxics", map[string]any{"name": "bandwidth_" + stream, "stream": stream, "type": "bandwidth",
			"attributes": map[string]int{"rate": 12500}})
	}
	b.pointAt("http://" + proxy.Listen)
	return p
}

// answers waits at most 5 s for a GET of url to succeed while p runs.
func (b *bench) answers(url string, p *process) bool {
	for range 50 {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		resp, err := b.http.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		cancel()
		if err == nil && resp.StatusCode < 400 {
			return true
		}
		if !p.running() {
			return false
		}
		time.Sleep(100 * time.Millisecond)
	}
	return false
}

// toxi posts body to Toxiproxy's HTTP API and returns its answer.
func (b *bench) toxi(api, path string, body any) []byte {
	data, err := json.Marshal(body)
	check(err)
	resp, err := b.http.Post(api+path, "application/json", bytes.NewReader(data))
	if err != nil {
		fail("Toxiproxy: POST %s failed: %v", path, err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode >= 300 {
		fail("Toxiproxy: POST %s failed: %d %s", path, resp.StatusCode, out)
	}
	return out
}
