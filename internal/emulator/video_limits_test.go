package emulator_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// TestVideoBoundsNamed: a title, tags or metadata beyond their bounds are refused naming the
// member and the bound, and a body beyond 1 MiB names the limit, its size and its largest
// member instead of a bare "The payload is invalid.".
func TestVideoBoundsNamed(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	many := func(n int, f func(int) any) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = f(i)
		}
		return out
	}
	for _, tc := range []struct {
		body       map[string]any
		name, want string
	}{
		{map[string]any{"title": strings.Repeat("x", 1001)}, "title", "1000 characters or less"},
		{map[string]any{"title": "t", "tags": many(201, func(i int) any { return fmt.Sprint(i) })}, "tags", "200 elements or less"},
		{map[string]any{"title": "t", "tags": []string{strings.Repeat("é", 256)}}, "tags", "1 to 255 characters"},
		{map[string]any{"title": "t", "metadata": many(101, func(i int) any { return map[string]string{"key": fmt.Sprint(i), "value": "v"} })}, "metadata", "100 elements or less"},
		{map[string]any{"title": "t", "metadata": []map[string]string{{"key": "k", "value": strings.Repeat("v", 1001)}}}, "metadata", "1000 characters or less"},
	} {
		r := e.api("POST", "/videos", tc.body)
		if r.status != http.StatusBadRequest || r.body["name"] != tc.name || !strings.Contains(string(r.raw), tc.want) {
			t.Errorf("%s: %d %s; want 400 naming %s and %q", tc.name, r.status, cutRaw(r.raw), tc.name, tc.want)
		}
	}
	big := map[string]any{"title": strings.Repeat("x", 1100000), "tags": many(10, func(i int) any { return fmt.Sprint(i) })}
	r := e.api("POST", "/videos", big)
	expectStatus(t, r, http.StatusBadRequest)
	if r.body["title"] != "The payload is invalid." {
		t.Errorf("title %v", r.body["title"])
	}
	detail, _ := r.body["detail"].(string)
	for _, want := range []string{"1048576 bytes (1 MiB)", "title (1100002 bytes)", "tags (10 elements"} {
		if !strings.Contains(detail, want) {
			t.Errorf("the detail does not say %q: %s", want, detail)
		}
	}
	if n := len(e.api("GET", "/videos", nil).data()); n != 0 {
		t.Errorf("%d videos stored by refused creates", n)
	}
}

func cutRaw(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "..."
	}
	return string(b)
}
