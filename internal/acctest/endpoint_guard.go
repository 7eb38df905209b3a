package acctest

// The guard of every program that sends a key to an endpoint the user names rather than to an
// emulator of its own: the acceptance tests' remote mode (VIDEOHOST_EMULATOR=0, and
// testacc-remote.sh through the sweep program's -check-endpoint) and `make sweep`. A key given
// for a sandbox may as well open a production workspace, where the tests create objects and the
// sweeper deletes them, so the endpoint must be the sandbox, or an emulator on loopback, unless
// the user says otherwise; and this is settled before any request that carries the key.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// EnvAllowProduction, set to 1, lets the acceptance tests' remote mode and testacc-remote.sh
// run against an endpoint that is neither the sandbox nor an emulator (the sweep program wants
// its own flag, -allow-production, since it deletes).
const EnvAllowProduction = "VIDEOHOST_ALLOW_PRODUCTION"

// probeTimeout bounds the question put to a loopback endpoint: an emulator answers at once.
const probeTimeout = 10 * time.Second

// GuardEndpoint says whether a program may send a key to baseURL: nil for the sandbox in its
// canonical form (https://sandbox.api.video, no port but 443, no path, no user information) or
// a loopback address (localhost, 127.0.0.0/8, [::1], written canonically) that answers as the
// emulator, and otherwise an error saying why and how to go on. allowProduction (the user's
// explicit word) lets any other https endpoint, or any loopback one, through. Whatever
// allowProduction says, a URL with user information, a query or a fragment is refused, and so is
// http:// to anything but loopback, which would send the key in clear. Only a loopback endpoint
// that is not allowed gets a request, which carries no key (probeEmulator); allow, what the user
// does to allow more, is named in the errors.
func GuardEndpoint(ctx context.Context, baseURL string, allowProduction bool, allow string) error {
	u, err := url.Parse(baseURL)
	if err != nil {
		// The URL is not repeated: it may hold a key where user information goes.
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err
		}
		return fmt.Errorf("the endpoint is not a URL (%v): give the sandbox's, %s, or an emulator's", err, videohost.SandboxURL)
	}
	// The endpoint as the errors show it: without its user information, which may be a key.
	bare := *u
	bare.User = nil
	shown := bare.String()
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("the endpoint %s is not an http(s) URL: give the sandbox's, %s, or an emulator's", shown, videohost.SandboxURL)
	case u.User != nil:
		return fmt.Errorf("the endpoint %s holds user information (user@ or user:password@, not shown here), which is no part of a base URL and may hide where it points: remove it", shown)
	case u.Opaque != "" || u.RawQuery != "" || u.Fragment != "" || u.ForceQuery || u.Host == "":
		return fmt.Errorf("the endpoint %s is not a base URL (a scheme, a host and at most a path): remove its query or fragment", shown)
	}
	if u.Scheme == "https" && (u.Host == "sandbox.api.video" || u.Host == "sandbox.api.video:443") && (u.Path == "" || u.Path == "/") {
		return nil
	}
	loopback, canonical := loopbackHost(u.Hostname())
	switch {
	case u.Scheme == "http" && !loopback:
		return fmt.Errorf("the endpoint %s is http:// and not on loopback: the key would cross the network in clear. Use https:// (the sandbox is %s)", shown, videohost.SandboxURL)
	case allowProduction:
		return nil
	case loopback && canonical:
		why := probeEmulator(ctx, u)
		if why == "" {
			return nil
		}
		return fmt.Errorf("the endpoint %s is on loopback but does not answer as the videohost emulator (%s): it may be a tunnel or proxy to a production workspace. "+
			"Start the emulator there (go run ./cmd/videohost-emulator), or %s if this workspace may be written to", shown, why, allow)
	case loopback:
		return fmt.Errorf("the endpoint %s names loopback in a form of its own (%s): write it localhost, 127.0.0.1 or [::1] as the emulator prints it, or %s if this workspace may be written to",
			shown, u.Hostname(), allow)
	}
	return fmt.Errorf("the endpoint %s is neither the sandbox (%s, written so) nor an emulator on loopback: its key may open a production workspace. %s if this workspace may be written to", shown, videohost.SandboxURL, upperFirst(allow))
}

// loopbackHost says whether host names loopback (localhost, an address of 127.0.0.0/8 or ::1,
// an IPv4-mapped one included) and whether it is written canonically: the emulator prints its
// address canonically, and a name in another form (LOCALHOST, localhost., ::ffff:127.0.0.1,
// 0:0:0:0:0:0:0:1) is someone's own routing, not the emulator's.
func loopbackHost(host string) (loopback, canonical bool) {
	if strings.EqualFold(strings.TrimSuffix(host, "."), "localhost") {
		return true, host == "localhost"
	}
	ip, err := netip.ParseAddr(host)
	if err != nil || !ip.Unmap().IsLoopback() {
		return false, false
	}
	return true, ip.Zone() == "" && !ip.Is4In6() && ip.String() == host
}

// probeEmulator asks the endpoint u for the emulator's control API index, with no key and no
// proxy, following no redirect, and returns "" when it answers as the emulator does (the index,
// or the refusal of an emulator started with -control-token), or what it answered instead. The
// service has no path under /_emulator/.
func probeEmulator(ctx context.Context, u *url.URL) string {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	probe := *u
	probe.Path, probe.RawPath = strings.TrimSuffix(u.Path, "/")+"/_emulator/", ""
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, probe.String(), nil)
	if err != nil {
		return err.Error()
	}
	transport := http.DefaultTransport.(*http.Transport).Clone() //nolint:forcetypeassert // The standard library's own type.
	transport.Proxy = nil
	defer transport.CloseIdleConnections()
	client := &http.Client{Transport: transport, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		return "asking GET " + probe.Path + ": " + err.Error()
	}
	defer func() { _ = resp.Body.Close() }()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	index, _, _ := strings.Cut(emulator.ControlIndex, "\n")
	switch {
	case resp.StatusCode == http.StatusOK && strings.HasPrefix(string(body), index):
		return ""
	case resp.StatusCode == http.StatusUnauthorized && strings.Contains(string(body), "The control API needs Authorization: Bearer"):
		return ""
	}
	return fmt.Sprintf("GET %s answered %s, not the emulator's control API", probe.Path, resp.Status)
}

// upperFirst is s with its first letter in upper case, for a hint that starts a sentence.
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// remoteGuards keeps GuardEndpoint's answer per endpoint and allowance, so that the tests of a
// binary ask a loopback endpoint once.
var remoteGuards sync.Map

// remoteTarget is where the provider of a remote test sends its requests when the test leaves
// it to its environment: VIDEOHOST_BASE_URL, or the address of VIDEOHOST_ENVIRONMENT.
func remoteTarget() string {
	if base := os.Getenv(framework.EnvBaseURL); base != "" {
		return base
	}
	if strings.EqualFold(os.Getenv(framework.EnvEnvironment), videohost.EnvironmentProduction) {
		return videohost.ProductionURL
	}
	return videohost.SandboxURL
}

// guardRemote is GuardEndpoint for the acceptance tests' remote mode: the endpoint base, allowed
// by VIDEOHOST_ALLOW_PRODUCTION=1.
func guardRemote(base string) error {
	allowed := os.Getenv(EnvAllowProduction) == "1"
	key := fmt.Sprintf("%t %s", allowed, base)
	if err, ok := remoteGuards.Load(key); ok {
		return errOrNil(err)
	}
	err := GuardEndpoint(context.Background(), base, allowed, "set "+EnvAllowProduction+"=1")
	remoteGuards.Store(key, err)
	return err
}

// errOrNil is the error that remoteGuards keeps in v, nil for an endpoint that was taken.
func errOrNil(v any) error {
	err, _ := v.(error)
	return err
}
