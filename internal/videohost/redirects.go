package videohost

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// noRedirects returns a redirect as the response, never followed: following one would carry the
// Authorization header, or the API key in the body of /auth/api-key (which 307 and 308 repeat),
// to an address never configured; Go drops the header only on a change of domain, never a body.
func noRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// redirectError names where the service pointed, without the query (a hostile server could fill
// it with anything), and the base_url to set.
func (c *Client) redirectError(r request, path string, u *url.URL, a attempt) *Error {
	e := c.decodeError(r, path, a)
	loc := a.header.Get("Location")
	target, err := u.Parse(loc)
	switch {
	case loc == "":
		e.Hint = fmt.Sprintf("The service responded with a redirect without a Location, and the client does not follow "+
			"redirects: check that base_url (%s) is the address of the API", c.base)
		return e
	case err != nil || (target.Scheme != "http" && target.Scheme != "https") || target.Host == "":
		e.Hint = fmt.Sprintf("The service responded with a redirect to something that is not an http or https address, "+
			"and the client does not follow redirects: check that base_url (%s) is the address of the API", c.base)
		return e
	}
	shown := url.URL{Scheme: target.Scheme, Host: target.Host, Path: target.Path, RawPath: target.RawPath}
	e.Location = shown.String()
	advice := "set base_url to the address the API is served at"
	// A redirect that keeps the request's path names the address to configure.
	if p := c.shownPath(u); p != "" && strings.HasSuffix(shown.EscapedPath(), p) {
		prefix := strings.TrimSuffix(shown.EscapedPath(), p)
		final := url.URL{Scheme: target.Scheme, Host: target.Host, RawPath: prefix}
		final.Path, _ = url.PathUnescape(prefix)
		advice = "set base_url to " + final.String()
	}
	e.Hint = fmt.Sprintf("The service responded with a redirect to %s; the client does not follow redirects, "+
		"which would carry the credentials to an address that was not configured: %s", shown.String(), advice)
	return e
}
