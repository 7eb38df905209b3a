package framework

import (
	"testing"
)

func TestWithoutToken(t *testing.T) {
	for in, want := range map[string]string{
		"https://vod.example/vi1/thumbnail.jpg?v=2&token=abc": "https://vod.example/vi1/thumbnail.jpg?v=2",
		"https://vod.example/vi1/thumbnail.jpg?token=abc":     "https://vod.example/vi1/thumbnail.jpg",
		"https://vod.example/vi1/thumbnail.jpg":               "https://vod.example/vi1/thumbnail.jpg",
	} {
		if got := withoutToken(in); got != want {
			t.Errorf("withoutToken(%q) = %q, want %q", in, got, want)
		}
	}
}
