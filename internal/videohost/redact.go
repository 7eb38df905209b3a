package videohost

// The redaction of secrets (an upload token, above all) from what the client writes into its
// errors and logs: every request whose path or answer may hold one goes through it.

import (
	"fmt"
	"net/url"
	"strings"
)

// redacted stands for a secret in logs and errors.
const redacted = "REDACTED"

// redactSecret replaces secret, as written or escaped, in s.
func redactSecret(s, secret string) string {
	if secret == "" {
		return s
	}
	s = strings.ReplaceAll(s, secret, redacted)
	return strings.ReplaceAll(s, url.PathEscape(secret), redacted)
}

// redact removes secret from what the service and the client wrote into e.
func (e *Error) redact(secret string) {
	if secret == "" {
		return
	}
	for _, s := range []*string{&e.Path, &e.Title, &e.Name, &e.Detail, &e.Body, &e.Location, &e.Hint, &e.Type} {
		*s = redactSecret(*s, secret)
	}
	for i := range e.Problems {
		e.Problems[i].Title = redactSecret(e.Problems[i].Title, secret)
		e.Problems[i].Name = redactSecret(e.Problems[i].Name, secret)
	}
	for k, v := range e.Extra {
		if s, ok := v.(string); ok {
			e.Extra[k] = redactSecret(s, secret)
		} else if strings.Contains(fmt.Sprint(v), secret) {
			delete(e.Extra, k)
		}
	}
}
