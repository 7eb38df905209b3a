package framework

// The small helpers that write the provider's messages: plurals, the case of a kind's name, the
// end of a sentence, a size in words.

import (
	"fmt"
	"strings"
)

// plural picks the singular or the plural of a phrase for n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// lower is a kind's name inside a sentence.
func lower(kind string) string { return strings.ToLower(kind) }

// titleCase is kind in Title Case, for a diagnostic's summary: "upload token" → "Upload Token".
func titleCase(kind string) string {
	words := strings.Fields(kind)
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, " ")
}

// UpperFirst starts a sentence with a capital letter.
func UpperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// SentenceEnd ends why with a full stop unless it ends with a question already.
func SentenceEnd(why string) string {
	if strings.HasSuffix(why, "?") {
		return why
	}
	return why + "."
}

// ApproxBytes writes a size in MiB with one decimal, or in bytes below 1 MiB.
func ApproxBytes(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}
