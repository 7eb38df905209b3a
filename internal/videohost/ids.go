package videohost

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// ErrInvalidID marks an id that the client refused to put into a path: errors.Is(err,
// ErrInvalidID). No request was sent.
var ErrInvalidID = errors.New("videohost: not an id of the service")

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

// errEmptyID is returned before any request when an id is empty: the path would name the
// list instead of one record.
var errEmptyID = errors.New("videohost: the id is empty")

// checkPathSegments refuses a path with a segment that, once unescaped, could make it name
// another endpoint (see traversal). Callers escape ids with url.PathEscape; this is the one check
// that no id slips through whatever the caller did, made before any request is built.
func checkPathSegments(escaped string) error {
	for _, seg := range strings.Split(strings.TrimPrefix(escaped, "/"), "/") {
		id, err := url.PathUnescape(seg)
		if err != nil {
			return fmt.Errorf("%w: the path %q does not unescape: %w", ErrInvalidID, escaped, err)
		}
		if why := traversal(id); why != "" {
			return fmt.Errorf("%w: %s", ErrInvalidID, why)
		}
	}
	return nil
}
