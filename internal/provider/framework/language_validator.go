package framework

// This file holds the check of a language tag (a video's, a caption's or a chapter's language,
// and the language part of a caption's or chapter's import id) before any request. The service
// refuses a tag it does not know only once the request is sent, after a plan that looked fine,
// with no hint of the tag it wanted ("english" for "en"); checked against the IANA language
// subtag registry that golang.org/x/text/language holds, the mistake is a message on the
// attribute at plan time, with the tag the user most likely meant.

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"golang.org/x/text/language"
	"golang.org/x/text/language/display"
)

// languageTag is a tag of letters and dashes ("fr", "fr-BE"), the only form the service takes.
var languageTag = regexp.MustCompile(`^[A-Za-z]+(-[A-Za-z]+)*$`)

// notALanguage are primary subtags that the registry holds but that name no language: the
// uncoded, multiple-language and no-linguistic-content codes.
var notALanguage = map[string]bool{"mis": true, "mul": true, "zxx": true}

// LanguageTagProblem is why tag cannot be the language of a video, caption or chapter, or ""
// when it is a tag of letters and dashes of a known language in its usual form. why ends a
// sentence and, where it can, says which tag was meant.
func LanguageTagProblem(tag string) string {
	if !languageTag.MatchString(tag) {
		why := fmt.Sprintf("%q is not a language tag: it must contain only letters and dashes", tag)
		if meant := strings.NewReplacer("_", "-", " ", "-").Replace(tag); meant != tag && LanguageTagProblem(meant) == "" {
			why += fmt.Sprintf(`; did you mean %q?`, meant)
		}
		return why
	}
	parsed, err := language.Parse(tag)
	// Base guesses a language for a tag without one ("und", "x-klingon"): only an exact base
	// names one.
	base, sure := parsed.Base()
	private := base.String() >= "qaa" && base.String() <= "qtz"
	switch {
	case err != nil || sure != language.Exact || notALanguage[base.String()] || private:
		return fmt.Sprintf("%q is not a known language%s", tag, languageHint(tag))
	case !strings.EqualFold(parsed.String(), tag):
		// The registry's usual form of a deprecated or three-letter code ("eng", "iw"): the
		// service knows the languages by their usual tag only.
		return fmt.Sprintf("%q is not the usual tag of its language; did you mean %q?", tag, parsed.String())
	}
	return ""
}

// languageHint is "; did you mean "en"?" when tag, or its first subtag, is the English or own
// name of a language ("english", "deutsch"), and "" when no language has that name.
func languageHint(tag string) string {
	names := languageNameTags()
	first, _, _ := strings.Cut(tag, "-")
	for _, name := range []string{tag, first} {
		if code, ok := names[strings.ToLower(name)]; ok {
			return fmt.Sprintf(`; did you mean %q?`, code)
		}
	}
	return ""
}

// languageNameTags maps the lower-case English and own names of the languages that have a
// two-letter code to that code: "english" and "en" to "en", "deutsch" and "german" to "de".
// It is made once, when a tag is first refused.
var languageNameTags = sync.OnceValue(func() map[string]string {
	names := map[string]string{}
	for a := 'a'; a <= 'z'; a++ {
		for b := 'a'; b <= 'z'; b++ {
			tag, err := language.Parse(string([]rune{a, b}))
			if err != nil || tag.String() != string([]rune{a, b}) {
				continue
			}
			for _, name := range []string{display.English.Languages().Name(tag), display.Self.Name(tag)} {
				if name != "" {
					names[strings.ToLower(name)] = tag.String()
				}
			}
		}
	}
	return names
})

// LanguageTagValidator refuses a language that languageTagProblem refuses, at plan time.
func LanguageTagValidator() validator.String {
	return StringCheck{
		Desc:    `value must be an IETF language tag of a known language, of letters and dashes, such as "fr" or "fr-BE"`,
		Summary: "Invalid Language Tag",
		Check:   LanguageTagProblem,
		Detail: func(p, why string) string {
			return fmt.Sprintf(`Set %s to an IETF language tag such as "en", "fr" or "fr-BE": %s`, p, SentenceEnd(why))
		},
	}
}

// videoLanguages are the languages that the service takes for a video (at creation and in an
// update), as its published API lists them: bare primary subtags, a shorter list than the
// captions' and chapters' (which may be "fr-BE").
var videoLanguages = []string{"ar", "ca", "cs", "da", "de", "el", "en", "es", "fa", "fi", "fr", "he", "hi", "hr",
	"hu", "it", "ja", "ko", "ml", "nl", "nn", "no", "pl", "pt", "ru", "sk", "sl", "te", "tr", "uk", "ur", "vi", "zh"}

// videoLanguageProblem is why tag cannot be a video's language, or "": a tag that
// languageTagProblem takes must also be on the service's list of a video's languages.
func videoLanguageProblem(tag string) string {
	if why := LanguageTagProblem(tag); why != "" {
		return why
	}
	if slices.Contains(videoLanguages, tag) {
		return ""
	}
	why := fmt.Sprintf("%q is not one of the languages the service takes for a video (%s)", tag, strings.Join(videoLanguages, ", "))
	if base, _, _ := strings.Cut(tag, "-"); base != tag && slices.Contains(videoLanguages, strings.ToLower(base)) {
		why += fmt.Sprintf(`; did you mean %q?`, strings.ToLower(base))
	}
	return why
}

// VideoLanguageValidator refuses a video's language that videoLanguageProblem refuses, at plan
// time, where the service would refuse it only once the request is sent.
func VideoLanguageValidator() validator.String {
	return StringCheck{
		Desc:    "value must be one of the service's languages for a video: " + strings.Join(videoLanguages, ", "),
		Summary: "Invalid Language Tag",
		Check:   videoLanguageProblem,
		Detail: func(p, why string) string {
			return fmt.Sprintf(`Set %s to one of the languages the service takes for a video, such as "en" or "fr": %s`, p, SentenceEnd(why))
		},
	}
}
