package emulator

import (
	"cmp"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// tagWire is one tag of GET /tags: its value and how many videos carry it.
type tagWire struct {
	Value      string `json:"value"`
	VideoCount int    `json:"videoCount"`
}

// tagSortKeys are the values of sortBy of GET /tags; the document makes value the default.
var tagSortKeys = []sortKey[tagWire]{
	{"value", func(a, b *tagWire) int { return cmp.Compare(a.Value, b.Value) }},
	{"videoCount", func(a, b *tagWire) int { return cmp.Compare(a.VideoCount, b.VideoCount) }},
}

// foldTag is s as the value filter compares it: without accents, in lower case.
func foldTag(s string) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	out, _, err := transform.String(t, s)
	if err != nil {
		out = s
	}
	return strings.ToLower(out)
}

// handleListTags serves GET /tags: the tags of the workspace's videos, each with the number of
// videos that carry it, filtered by a part of their value that ignores accents and case.
func (e *Emulator) handleListTags(w http.ResponseWriter, r *http.Request, _ string) {
	q := r.URL.Query()
	filters := url.Values{}
	probs := e.unknownParams(q, listParams("value", "sortBy", "sortOrder"))
	vals, valueProbs := e.singleValues(q, filters, "value")
	probs = append(probs, valueProbs...)
	order, orderProbs := parseOrderFrom(e, q, filters, tagSortKeys, "value")
	probs = append(probs, orderProbs...)
	page, pageProbs := e.parsePaging(q)
	probs = append(probs, pageProbs...)
	if len(probs) > 0 {
		writeError(w, e.attributeError(probs...))
		return
	}
	want := foldTag(vals["value"])
	var tags []*tagWire
	e.withFreshStore(func() {
		index := map[string]*tagWire{}
		for _, v := range e.st.Videos {
			for _, tag := range v.Tags {
				t, seen := index[tag]
				if !seen {
					t = &tagWire{Value: tag}
					index[tag] = t
					tags = append(tags, t)
				}
				t.VideoCount++
			}
		}
	})
	matched := make([]*tagWire, 0, len(tags))
	for _, t := range tags {
		if strings.Contains(foldTag(t.Value), want) {
			matched = append(matched, t)
		}
	}
	slices.SortStableFunc(matched, order)
	writeJSON(w, http.StatusOK, paginate(matched, page, "/tags", filters, func(t *tagWire) tagWire { return *t }))
}
