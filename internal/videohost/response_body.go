package videohost

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
)

// maxBody bounds how much of one answer the client reads. The largest answer of the service is
// one page of 100 items, a few hundred KiB at most; 8 MiB leaves a wide margin for long
// descriptions and metadata while a runaway answer (a proxy streaming a file, a misconfigured
// base_url pointing at a download) costs at most that much memory, not all of it.
const maxBody = 8 << 20

// shownBegin is how much of an answer that is not JSON an error quotes: enough to recognise an
// HTML page or a proxy's message.
const shownBegin = 80

// readBody reads at most maxBody bytes of an answer; tooLarge reports that there was more,
// which was left unread (closing the body then drops the connection rather than draining it).
func readBody(r io.Reader) (body []byte, tooLarge bool, err error) {
	body, err = io.ReadAll(io.LimitReader(r, maxBody+1))
	if len(body) > maxBody {
		return body[:maxBody], true, err
	}
	return body, false, err
}

// noRedirects is the CheckRedirect of every client: a redirect is returned as the answer, never
// followed. Following one would send the Authorization header, or the API key in the body of
// /auth/api-key (which 307 and 308 repeat), to an address the user never configured; Go drops
// the header only on a change of domain, and never drops a body.
func noRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// redirectError is the error of a 3xx answer: an *Error like every other non-2xx answer, whose
// hint names where the service pointed (without the query, which a hostile or careless server
// could fill with anything) and says what to do.
func (c *Client) redirectError(r request, path string, u *url.URL, a attempt) *Error {
	e := c.decodeError(r, path, a)
	loc := a.header.Get("Location")
	target, err := u.Parse(loc)
	switch {
	case loc == "":
		e.Hint = fmt.Sprintf("The service answered a redirect without a Location, and the client does not follow "+
			"redirects: check that base_url (%s) is the address of the API", c.base)
		return e
	case err != nil || (target.Scheme != "http" && target.Scheme != "https") || target.Host == "":
		e.Hint = fmt.Sprintf("The service answered a redirect to something that is not an http or https address, "+
			"and the client does not follow redirects: check that base_url (%s) is the address of the API", c.base)
		return e
	}
	shown := url.URL{Scheme: target.Scheme, Host: target.Host, Path: target.Path, RawPath: target.RawPath}
	e.Location = shown.String()
	advice := "set base_url to the address the API answers at"
	// When the redirect keeps the request's path under another address, that address is the
	// one to configure.
	if p := c.shownPath(u); p != "" && strings.HasSuffix(shown.EscapedPath(), p) {
		prefix := strings.TrimSuffix(shown.EscapedPath(), p)
		final := url.URL{Scheme: target.Scheme, Host: target.Host, RawPath: prefix}
		final.Path, _ = url.PathUnescape(prefix)
		advice = "set base_url to " + final.String()
	}
	e.Hint = fmt.Sprintf("The service answered with a redirect to %s; the client does not follow redirects, "+
		"which would carry the credentials to an address that was not configured: %s", shown.String(), advice)
	return e
}

// undecodableError explains a 2xx answer that is not the JSON the API sends: its content type,
// its size and how it begins, so that an HTML page or a cut answer is recognised at once. The
// beginning of an /auth/* answer is not quoted, since it is the one answer that may hold a token.
func (c *Client) undecodableError(r request, path string, a attempt, cause error) error {
	e := &DecodeError{Method: r.method, Path: path, Status: a.status, Err: cause}
	ct := a.header.Get("Content-Type")
	media, _, _ := mime.ParseMediaType(ct)
	empty := len(bytes.TrimSpace(a.body)) == 0
	var what string
	switch {
	case empty:
		what = fmt.Sprintf("the answer (status %d) is empty where a JSON document was expected", a.status)
	case json.Valid(a.body):
		// JSON of another shape: the service changed, or base_url names another API.
		e.Problem = "decoding the answer"
		return e
	case ct != "" && !isJSONMedia(media):
		what = fmt.Sprintf("the answer (status %d) is %s, not JSON", a.status, ct)
	default:
		what = fmt.Sprintf("the answer (status %d, %d bytes) is not valid JSON, as if it was cut short", a.status, len(a.body))
	}
	if !r.auth && !empty {
		what += fmt.Sprintf(" (it begins %q)", oneLine(cut(a.body, shownBegin)))
	}
	e.Problem = "decoding the answer: " + what
	e.Hint = c.baseURLHint()
	return e
}

// tooLargeError is the error of a 2xx answer larger than maxBody.
func (c *Client) tooLargeError(r request, path string, a attempt) error {
	return &DecodeError{Method: r.method, Path: path, Status: a.status, Problem: fmt.Sprintf(
		"the answer (status %d, %s) is larger than %d MiB, the most the client reads of one answer; it stopped reading",
		a.status, contentTypeOr(a.header), maxBody>>20), Hint: c.baseURLHint()}
}

// baseURLHint is the advice of a response that is not the API's.
func (c *Client) baseURLHint() string {
	return fmt.Sprintf("check that base_url (%s) is the address of the API and not of a web page or a proxy, "+
		"then re-run", c.base)
}

func contentTypeOr(h http.Header) string {
	if ct := h.Get("Content-Type"); ct != "" {
		return ct
	}
	return "no Content-Type"
}

// isJSONMedia accepts application/json and the +json types.
func isJSONMedia(media string) bool {
	return media == "application/json" || strings.HasSuffix(media, "+json")
}
