package videohost

import (
	"fmt"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// CheckID returns an *IDError (errors.Is(err, ErrInvalidID)) when id cannot be the id of a
// record. The specification gives no format, so it refuses only what no id has and what could
// change the endpoint a path names: empty, a "." or ".." step, a slash or a backslash, invalid
// UTF-8, a control character, white space around it. Anything else is escaped and sent.
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

// traversal says why the unescaped segment id could make a path name another endpoint, or
// returns "". A slash in an id is sent as %2F, but some proxies decode it (or read a backslash
// as a slash) and resolve "." and ".." before routing: /webhooks/..%2Fvideos would leave the
// collection. Without a dot step, a decoded slash only adds depth under it.
func traversal(id string) string {
	for _, step := range strings.FieldsFunc(id, func(r rune) bool { return r == '/' || r == '\\' }) {
		if step == "." || step == ".." {
			return fmt.Sprintf("the id %q holds the path step %q, which could make the request name "+
				"another endpoint; use the id exactly as the service gives it", id, step)
		}
	}
	return ""
}

// checkPathSegments is the request path's own net, whatever the caller did: looser than CheckID,
// it refuses only a traversal.
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
