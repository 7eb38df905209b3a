package emulator

import (
	"mime"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strings"
)

// The control API can create webhooks (after which the emulator POSTs wherever their url
// says), revoke tokens and move the clock. Without a control token it answers whoever reaches
// it, which on loopback is meant to be the developer and their tools; a web page open in the
// developer's browser reaches it too. Two ways, both closed here:
//
//   - a cross-site request: a page posts to http://127.0.0.1:<port>/_emulator/... The browser
//     sends the page's Origin, and a body that needs no preflight (text/plain, a form) is sent
//     at once, so the request is refused when its Origin is not the emulator's own or when a
//     body is not application/json (a JSON body from a page needs a preflight, which the
//     control API never answers);
//   - DNS rebinding: a page's own host name is made to resolve to 127.0.0.1, so its requests
//     are same-origin for the browser; they carry that name in Host, so the request is refused
//     when Host is neither the address the emulator was reached on nor a loopback name.
//
// ControlAllowHosts and ControlAllowOrigins (-control-allow-host, -control-allow-origin) allow
// more, for an emulator reached through a name or from a page of the developer's own.

// slugControlRefused is the error type of a control call refused here; the service has no
// control API, so it has no type of its own for it.
const slugControlRefused = "control-api-refused"

// controlRefusal returns why the control API refuses r, or "" when it serves it.
func (e *Emulator) controlRefusal(r *http.Request) string {
	if !e.controlHostAllowed(r) {
		return "The control API answers only requests addressed to the emulator's own address or a loopback name " +
			"(localhost, 127.0.0.0/8, [::1]); Host " + quoteForMessage(r.Host) + " is neither. Start the emulator with " +
			"-control-allow-host to allow it."
	}
	if origin := r.Header.Get("Origin"); origin != "" && !e.controlOriginAllowed(r, origin) {
		return "The control API refuses cross-site requests: Origin " + quoteForMessage(origin) + " is not the " +
			"emulator's own. Start the emulator with -control-allow-origin to allow it."
	}
	if !controlBodyJSON(r) {
		return "The control API takes JSON bodies only: send Content-Type: application/json (got " +
			quoteForMessage(r.Header.Get("Content-Type")) + ")."
	}
	return ""
}

// controlHostAllowed reports whether r's Host names the address the request arrived on, a
// loopback address or name, or a host that the options allow.
func (e *Emulator) controlHostAllowed(r *http.Request) bool {
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
	if host == "" {
		return false
	}
	if host == "localhost" || slices.Contains(e.opts.ControlAllowHosts, "*") || slices.ContainsFunc(e.opts.ControlAllowHosts, func(a string) bool {
		return strings.EqualFold(strings.TrimSuffix(a, "."), host)
	}) {
		return true
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return false
	}
	if ip.Unmap().IsLoopback() {
		return true
	}
	// The address the connection arrived on: an emulator listening on all interfaces is reached
	// on one of them. An address in Host is never a rebound name.
	if local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
		if ap, err := netip.ParseAddrPort(local.String()); err == nil && ap.Addr().Unmap() == ip.Unmap() {
			return true
		}
	}
	return false
}

// controlOriginAllowed reports whether origin is the emulator's own (its scheme and the
// request's Host, which controlHostAllowed has checked) or one that the options allow.
func (e *Emulator) controlOriginAllowed(r *http.Request, origin string) bool {
	scheme := "http://"
	if r.TLS != nil {
		scheme = "https://"
	}
	if strings.EqualFold(origin, scheme+r.Host) {
		return true
	}
	return slices.Contains(e.opts.ControlAllowOrigins, "*") || slices.ContainsFunc(e.opts.ControlAllowOrigins, func(a string) bool {
		return strings.EqualFold(strings.TrimSuffix(a, "/"), origin)
	})
}

// controlBodyJSON reports whether r has no body and no Content-Type, or says its body is JSON.
func controlBodyJSON(r *http.Request) bool {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return r.ContentLength == 0
	}
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && mt == "application/json"
}

// quoteForMessage quotes s for an error message, cut to 100 bytes.
func quoteForMessage(s string) string {
	if len(s) > 100 {
		s = s[:100] + "..."
	}
	return `"` + strings.Map(func(c rune) rune {
		if c < 0x20 || c == 0x7f || c == '"' {
			return '?'
		}
		return c
	}, s) + `"`
}
