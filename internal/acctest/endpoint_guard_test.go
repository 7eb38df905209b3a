package acctest

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// spyServer is a loopback server that is not an emulator: it answers every request as a tunnel
// to the service would (401 without a key, 404 with one) and keeps what it was sent.
type spyServer struct {
	URL  string
	mu   sync.Mutex
	seen []string // method, path and Authorization of each request
}

func newSpyServer(t *testing.T, addr string, h http.Handler) *spyServer {
	t.Helper()
	s := &spyServer{}
	if h == nil {
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") == "" {
				http.Error(w, `{"status":401,"title":"Unauthorized"}`, http.StatusUnauthorized)
				return
			}
			http.NotFound(w, r)
		})
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.seen = append(s.seen, r.Method+" "+r.URL.Path+" auth="+r.Header.Get("Authorization"))
		s.mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("listening on %s: %v", addr, err)
	}
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// requests is what the spy was sent.
func (s *spyServer) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.seen...)
}

// withKey is how many of the spy's requests carried an Authorization header.
func (s *spyServer) withKey() int {
	n := 0
	for _, r := range s.requests() {
		if !strings.HasSuffix(r, " auth=") {
			n++
		}
	}
	return n
}

// emulatorAt serves an emulator of opts on the loopback address addr and returns its URL and key.
func emulatorAt(t *testing.T, addr string, opts emulator.Options) (string, string) {
	t.Helper()
	emu, err := emulator.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(emu)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("listening on %s: %v", addr, err)
	}
	srv.Listener = ln
	srv.Start()
	t.Cleanup(func() { srv.Close(); _ = emu.Close() })
	return srv.URL, emu.APIKeys()[0]
}

// TestGuardEndpoint: the sandbox in its canonical form and emulators on loopback (one with a
// control token included, on any address of 127.0.0.0/8) are taken; every other endpoint is
// refused, saying how to allow it, before any request with a key: production and the sandbox's
// other spellings (upper case, a trailing dot, a port, a path), user information, a decimal IP,
// IPv4-mapped and other spellings of loopback, a loopback server that is not an emulator (at
// 127.1.2.3, as a tunnel to production would be, and one that redirects the probe to an
// emulator). http:// beyond loopback is refused even when allowed: the key would go in clear.
func TestGuardEndpoint(t *testing.T) {
	emu, _ := emulatorAt(t, "127.0.0.1:0", emulator.Options{})
	emuPort := emu[strings.LastIndex(emu, ":")+1:]
	locked, _ := emulatorAt(t, "127.0.0.1:0", emulator.Options{ControlToken: "ct"})
	emuFar, _ := emulatorAt(t, "127.3.4.5:0", emulator.Options{})
	tunnel := newSpyServer(t, "127.1.2.3:0", nil)
	index := newSpyServer(t, "127.0.0.1:0", http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte("a page that is not the emulator's index"))
	}))
	redirect := newSpyServer(t, "127.0.0.1:0", http.RedirectHandler(emu+"/_emulator/", http.StatusFound))
	for _, tc := range []struct {
		url             string
		ok, okIfAllowed bool
		says            string
	}{
		{videohost.SandboxURL, true, true, ""},
		{videohost.SandboxURL + "/", true, true, ""},
		{"https://sandbox.api.video:443", true, true, ""},
		{emu, true, true, ""},
		{"http://localhost:" + emuPort, true, true, ""},
		{locked, true, true, ""},
		{emuFar, true, true, ""},
		{"https://ws.api.video", false, true, "neither the sandbox"},
		{"https://SANDBOX.API.VIDEO", false, true, "neither the sandbox"},
		{"https://sandbox.api.video.", false, true, "neither the sandbox"},
		{"https://sandbox.api.video:8443", false, true, "neither the sandbox"},
		{"https://sandbox.api.video/v2", false, true, "neither the sandbox"},
		{"https://sandbox.example.com.evil.test", false, true, "neither the sandbox"},
		{"https://2130706433", false, true, "neither the sandbox"},
		{"https://WS.API.VIDEO.", false, true, "neither the sandbox"},
		{"https://key@sandbox.api.video", false, false, "user information"},
		{"https://sandbox.api.video@ws.api.video", false, false, "user information"},
		{"https://sandbox.api.video:x@ws.api.video", false, false, "user information"},
		{"https://sandbox.api.video?next=ws.api.video", false, false, "not a base URL"},
		{"https://sandbox.api.video#x", false, false, "not a base URL"},
		{"http://sandbox.api.video", false, false, "in clear"},
		{"HTTP://sandbox.api.video", false, false, "in clear"},
		{"http://ws.api.video", false, false, "in clear"},
		{"http://2130706433:" + emuPort, false, false, "in clear"},
		{"ftp://sandbox.api.video", false, false, "not an http(s) URL"},
		{"sandbox.api.video", false, false, "not an http(s) URL"},
		{tunnel.URL, false, true, "does not answer as the videohost emulator"},
		{index.URL, false, true, "does not answer as the videohost emulator"},
		{redirect.URL, false, true, "does not answer as the videohost emulator"},
		{"http://[::ffff:127.0.0.1]:" + emuPort, false, true, "form of its own"},
		{"http://LOCALHOST:" + emuPort, false, true, "form of its own"},
		{"http://localhost.:" + emuPort, false, true, "form of its own"},
	} {
		for _, allowed := range []bool{false, true} {
			err := GuardEndpoint(t.Context(), tc.url, allowed, "pass -allow-it")
			want := tc.ok || (allowed && tc.okIfAllowed)
			switch {
			case (err == nil) != want:
				t.Errorf("GuardEndpoint(%s, allowed %t) = %v, want taken %t", tc.url, allowed, err, want)
			case err != nil && !strings.Contains(err.Error(), tc.says):
				t.Errorf("GuardEndpoint(%s, allowed %t) = %v, want it to say %q", tc.url, allowed, err, tc.says)
			case err != nil && tc.okIfAllowed && !strings.Contains(strings.ToLower(err.Error()), "pass -allow-it"):
				t.Errorf("GuardEndpoint(%s) = %v: the refusal does not say how to allow it", tc.url, err)
			}
		}
	}
	// What may be a key never shows in a refusal: user information, or a URL that does not parse.
	for _, u := range []string{"https://sekret@ws.api.video", "https://user:sekret@sandbox.api.video", "https://sekret@ws.api.video/%zz", "http://[sekret"} {
		if err := GuardEndpoint(t.Context(), u, false, "pass -allow-it"); err == nil || strings.Contains(err.Error(), "sekret") {
			t.Errorf("GuardEndpoint(%s) = %v: want a refusal that does not show the user information", u, err)
		}
	}
	// The loopback servers that are not the emulator were asked once each (the probe, with no
	// key), and the redirect was not followed.
	for name, s := range map[string]*spyServer{"tunnel": tunnel, "index": index, "redirect": redirect} {
		if got := s.requests(); len(got) != 1 || got[0] != "GET /_emulator/ auth=" {
			t.Errorf("the %s server was sent %q, want the probe alone, without a key", name, got)
		}
	}
}

// TestRemoteTarget: the endpoint the remote mode guards is VIDEOHOST_BASE_URL, else production
// when VIDEOHOST_ENVIRONMENT says so (which the provider would then reach), else the sandbox.
func TestRemoteTarget(t *testing.T) {
	for _, tc := range []struct{ base, environment, want string }{
		{"http://127.0.0.1:1", "production", "http://127.0.0.1:1"},
		{"", "production", videohost.ProductionURL},
		{"", "Production", videohost.ProductionURL},
		{"", "", videohost.SandboxURL},
		{"", "sandbox", videohost.SandboxURL},
	} {
		t.Setenv("VIDEOHOST_BASE_URL", tc.base)
		t.Setenv("VIDEOHOST_ENVIRONMENT", tc.environment)
		if got := remoteTarget(); got != tc.want {
			t.Errorf("base %q, environment %q: the remote mode guards %s, want %s", tc.base, tc.environment, got, tc.want)
		}
	}
}
