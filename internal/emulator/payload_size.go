package emulator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"sort"
)

// maxExaminedBody bounds what is read of a JSON body beyond maxBodyBytes to tell which member
// made it too large; a body beyond it is refused naming the limit only.
const maxExaminedBody = 16 << 20

// refuseLargeJSONBody answers 400 "The payload is invalid." to a JSON body above maxBodyBytes,
// with a detail that names the limit, the body's size and its largest members, and returns
// true; otherwise it leaves r's body as it was (read into memory) and returns false. Before,
// the answer named neither the limit nor the member, and a client could not tell what to
// shorten.
func (e *Emulator) refuseLargeJSONBody(w http.ResponseWriter, r *http.Request) bool {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" || r.Body == nil {
		return false
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, maxExaminedBody+1))
	r.Body = io.NopCloser(bytes.NewReader(b))
	if err != nil || len(b) <= maxBodyBytes {
		return false
	}
	a := e.invalidPayload()
	a.Detail = fmt.Sprintf("The body is %s, above the limit of %d bytes (1 MiB).", bodySize(len(b)), maxBodyBytes)
	if largest := largestMembers(b); largest != "" {
		a.Detail += " Its largest members: " + largest + "."
	}
	writeError(w, a)
	return true
}

// bodySize is n bytes in words, "more than" when n is past what was read.
func bodySize(n int) string {
	if n > maxExaminedBody {
		return fmt.Sprintf("more than %d bytes", maxExaminedBody)
	}
	return fmt.Sprintf("%d bytes", n)
}

// largestMembers names the three largest members of a JSON object with their sizes, and for
// an array its count: "title (1000002 bytes), tags (10000 elements, 130001 bytes)"; "" when b
// is not an object.
func largestMembers(b []byte) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return ""
	}
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool {
		if len(m[names[i]]) != len(m[names[j]]) {
			return len(m[names[i]]) > len(m[names[j]])
		}
		return names[i] < names[j]
	})
	var out []byte
	for i, k := range names {
		if i == 3 {
			break
		}
		if i > 0 {
			out = append(out, ", "...)
		}
		var items []json.RawMessage
		if json.Unmarshal(m[k], &items) == nil {
			out = fmt.Appendf(out, "%s (%d elements, %d bytes)", k, len(items), len(m[k]))
		} else {
			out = fmt.Appendf(out, "%s (%d bytes)", k, len(m[k]))
		}
	}
	return string(out)
}
