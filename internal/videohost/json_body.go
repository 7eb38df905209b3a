package videohost

import (
	"bytes"
	"encoding/json"
)

// MaxBodyBytes is the largest JSON request body the service takes (1 MiB); a larger one is
// refused 400 "The payload is invalid.".
const MaxBodyBytes = 1 << 20

// encodeBody writes v as the JSON of a request body. encoding/json's Marshal writes <, > and &
// as \u003c, \u003e and \u0026, six bytes each, so that the JSON can sit inside HTML; a request
// body never does, and a video's title, tags and metadata made of those characters grew six
// times over the service's body limit while their length was within the bounds a plan checks.
// JSON itself needs no escape for them, and the service reads them either way.
func encodeBody(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// BodySize is the size in bytes of the JSON body that the client sends for v (such as a
// VideoCreate or a VideoUpdate), for a caller that checks it against MaxBodyBytes before any
// request. Characters that JSON must escape still count as their escapes: a control character
// other than tab, line feed and carriage return is six bytes (\u0001), a quotation mark or a
// backslash two.
func BodySize(v any) (int, error) {
	b, err := encodeBody(v)
	return len(b), err
}
