package videohost

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
)

// maxBody bounds how much of one response the client reads. The largest is a page of 100
// items, a few hundred KiB; a runaway one (base_url pointing at a download) costs at most this.
const maxBody = 8 << 20

// shownBegin is how much of a response that is not JSON an error quotes.
const shownBegin = 80

// readBody reads at most maxBody bytes; the rest is left unread (closing the body then drops
// the connection rather than draining it).
func readBody(r io.Reader) (body []byte, tooLarge bool, err error) {
	body, err = io.ReadAll(io.LimitReader(r, maxBody+1))
	if len(body) > maxBody {
		return body[:maxBody], true, err
	}
	return body, false, err
}

// undecodableError explains a 2xx response that is not the API's JSON by its content type, size
// and beginning, so that an HTML page or a cut response is recognised at once. A token call's
// is not quoted: it may hold a token.
func (c *Client) undecodableError(r request, path string, a attempt, cause error) error {
	e := &DecodeError{Method: r.method, Path: path, Status: a.status, Err: cause}
	ct := a.header.Get("Content-Type")
	media, _, _ := mime.ParseMediaType(ct)
	empty := len(bytes.TrimSpace(a.body)) == 0
	var what string
	switch {
	case empty:
		what = fmt.Sprintf("the response (status %d) is empty where a JSON document was expected", a.status)
	case json.Valid(a.body):
		// JSON of another shape: the service changed, or base_url names another API.
		e.Problem = "decoding the response"
		return e
	case ct != "" && !isJSONMedia(media):
		what = fmt.Sprintf("the response (status %d) is %s, not JSON", a.status, ct)
	default:
		what = fmt.Sprintf("the response (status %d, %d bytes) is not valid JSON, as if it was cut short", a.status, len(a.body))
	}
	if !r.auth && !holdsSecrets(path) && !empty {
		what += fmt.Sprintf(" (it begins %q)", oneLine(cut(a.body, shownBegin)))
	}
	e.Problem = "decoding the response: " + what
	e.Hint = c.baseURLHint()
	return e
}

func (c *Client) tooLargeError(r request, path string, a attempt) error {
	return &DecodeError{Method: r.method, Path: path, Status: a.status, Problem: fmt.Sprintf(
		"the response (status %d, %s) is larger than %d MiB, the most the client reads of one response; it stopped reading",
		a.status, contentTypeOr(a.header), maxBody>>20), Hint: c.baseURLHint()}
}

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

func isJSONMedia(media string) bool {
	return media == "application/json" || strings.HasSuffix(media, "+json")
}
