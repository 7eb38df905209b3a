package videohost

import (
	"fmt"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// CheckID returns an *IDError (errors.Is(err, ErrInvalidID)) when id cannot be the id of a
// record of the service, and nil when it can. The specification gives no format, so it refuses
// only what no id has and what could change the endpoint a path names: an empty id, a "." or
// ".." step, a slash or a backslash, invalid UTF-8, a control character, or white space around
// it. Other characters, Unicode included, are escaped into the path and left to the service.
func CheckID(id string) error {
	why := ""
	switch {
	case id == "":
		return errEmptyID
	case traversal(id) != "":
		why = traversal(id)
	case strings.ContainsAny(id, `/\`):
		why = fmt.Sprintf("the id %q holds a slash or a backslash, which no id of the service has", id)
	case !utf8.ValidString(id):
		why = fmt.Sprintf("the id %q is not valid UTF-8", id)
	case strings.IndexFunc(id, unicode.IsControl) >= 0:
		why = fmt.Sprintf("the id %q holds a control character, such as a line break", id)
	case strings.TrimSpace(id) != id:
		why = fmt.Sprintf("the id %q starts or ends with white space; remove it", id)
	default:
		return nil
	}
	return &IDError{Reason: why}
}

// traversal says why the unescaped path segment id could make a path name another endpoint,
// or returns "". Every id is escaped with url.PathEscape, so a slash in it is sent as %2F; but
// servers and proxies resolve "." and "..", and some decode %2F (or read a backslash as a
// slash) before routing, so an id with such a step could leave /webhooks/ for /videos or /.
// Without one, a decoded slash only adds depth under the collection the caller named.
func traversal(id string) string {
	for _, step := range strings.FieldsFunc(id, func(r rune) bool { return r == '/' || r == '\\' }) {
		if step == "." || step == ".." {
			return fmt.Sprintf("the id %q holds the path step %q, which could make the request name "+
				"another endpoint; use the id exactly as the service gives it", id, step)
		}
	}
	return ""
}

// checkPathSegments refuses a path with a segment that, once unescaped, could make it name
// another endpoint (see traversal). It is the request path's own net, whatever the caller did,
// and looser than CheckID: an id with a slash but no dot step is escaped into one segment and
// sent, since it cannot leave the collection.
func checkPathSegments(escaped string) error {
	for _, seg := range strings.Split(strings.TrimPrefix(escaped, "/"), "/") {
		id, err := url.PathUnescape(seg)
		if err != nil {
			return &IDError{Reason: fmt.Sprintf("the path %q does not unescape: %v", escaped, err)}
		}
		if why := traversal(id); why != "" {
			return &IDError{Reason: why}
		}
	}
	return nil
}
