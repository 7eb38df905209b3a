package emulator

import (
	"regexp"
	"strings"
)

// Values of a video's languageOrigin.
const (
	languageFromAPI  = "api"
	languageDetected = "auto"
)

// languageNames are the languages the emulator knows, each with its own name: the primary
// subtag of a video's language, a caption's or a chapter's must be one of them.
var languageNames = map[string]string{
	"ar": "العربية", "ca": "Català", "cs": "Čeština", "da": "Dansk", "de": "Deutsch",
	"el": "Ελληνικά", "en": "English", "es": "Español", "fi": "Suomi", "fr": "Français",
	"he": "עברית", "hi": "हिन्दी", "hu": "Magyar", "id": "Bahasa Indonesia", "it": "Italiano",
	"ja": "日本語", "ko": "한국어", "nl": "Nederlands", "no": "Norsk", "pl": "Polski",
	"pt": "Português", "ro": "Română", "ru": "Русский", "sv": "Svenska", "th": "ไทย",
	"tr": "Türkçe", "uk": "Українська", "vi": "Tiếng Việt", "zh": "中文",
}

// videoLanguages are the languages a video may be given at creation or in an update: the
// published document lists them, bare primary subtags, and they are not the same list as the
// captions' (a caption may be "fr-BE", a video's language may not).
var videoLanguages = map[string]bool{
	"ar": true, "ca": true, "cs": true, "da": true, "de": true, "el": true, "en": true, "es": true, "fa": true,
	"fi": true, "fr": true, "he": true, "hi": true, "hr": true, "hu": true, "it": true, "ja": true, "ko": true,
	"ml": true, "nl": true, "nn": true, "no": true, "pl": true, "pt": true, "ru": true, "sk": true, "sl": true,
	"te": true, "tr": true, "uk": true, "ur": true, "vi": true, "zh": true,
}

// videoLanguageProblem is the detail that refuses tag as a video's language, or "".
func videoLanguageProblem(tag string) string {
	if detail := languageProblem(tag); detail != "" {
		return detail
	}
	if !videoLanguages[tag] {
		return detailLanguageUnknown
	}
	return ""
}

// languageShape is a tag of letters and dashes, as captions and chapters require.
var languageShape = regexp.MustCompile(`^[A-Za-z]+(-[A-Za-z]+)*$`)

// Details of a refused language, word for word from the contract.
const (
	detailLanguageShape   = `The "language" attribute must contain only letters and dashes (for example "fr", "fr-BE").`
	detailLanguageUnknown = `The "language" attribute is not valid.`
)

// languageProblem is the detail that refuses tag, or "" when it is a known language of letters
// and dashes: a primary subtag of the list, then regions or scripts of two to four letters.
func languageProblem(tag string) string {
	if !languageShape.MatchString(tag) {
		return detailLanguageShape
	}
	parts := strings.Split(tag, "-")
	if _, ok := languageNames[strings.ToLower(parts[0])]; !ok {
		return detailLanguageUnknown
	}
	for _, p := range parts[1:] {
		if len(p) < 2 || len(p) > 4 {
			return detailLanguageUnknown
		}
	}
	return ""
}

// languageName is the own name of a known tag's language (that of its primary subtag).
func languageName(tag string) string {
	primary, _, _ := strings.Cut(tag, "-")
	return languageNames[strings.ToLower(primary)]
}
