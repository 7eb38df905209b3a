package framework

import (
	"strings"
	"testing"
)

// TestLanguageTagProblem: tags of letters and dashes of a known language in their usual form
// pass; the rest is refused with why, and the tag meant where one can be told.
func TestLanguageTagProblem(t *testing.T) {
	for _, tag := range []string{"en", "fr-BE", "zh-Hant-TW", "EN", "pt-BR", "de"} {
		if why := LanguageTagProblem(tag); why != "" {
			t.Errorf("%q refused: %s", tag, why)
		}
	}
	for tag, want := range map[string]string{
		"english":   `"english" is not a known language; did you mean "en"?`,
		"French":    `"French" is not a known language; did you mean "fr"?`,
		"deutsch":   `"deutsch" is not a known language; did you mean "de"?`,
		"en_US":     `"en_US" is not a language tag: it must contain only letters and dashes; did you mean "en-US"?`,
		"xx":        `"xx" is not a known language`,
		"und":       `"und" is not a known language`,
		"zxx":       `"zxx" is not a known language`,
		"qaa":       `"qaa" is not a known language`,
		"x-klingon": `"x-klingon" is not a known language`,
		"eng":       `"eng" is not the usual tag of its language; did you mean "en"?`,
		"iw":        `did you mean "he"?`,
		"fr-":       "it must contain only letters and dashes",
		"e n":       "it must contain only letters and dashes",
		"":          "it must contain only letters and dashes",
		"en/..":     "it must contain only letters and dashes",
		"pt-1":      "it must contain only letters and dashes",
	} {
		if why := LanguageTagProblem(tag); !strings.Contains(why, want) {
			t.Errorf("%q: %q, want %q", tag, why, want)
		}
	}
}
