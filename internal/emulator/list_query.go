package emulator

import (
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// The query of a list endpoint: its filters, its order and its page, each read with the
// problems it has, in the order the endpoint lists them.

// listQuery is a valid query of a list endpoint: the records it keeps (all when keep is nil), in
// which order (the store's, creation order, when order is nil), the page, and the parameters
// that the pagination links repeat.
type listQuery[R any] struct {
	keep    func(*R) bool
	order   func(a, b *R) int
	page    pageParams
	filters url.Values
}

// parsePaging reads currentPage (minimum 1, default 1) and pageSize (1 to 100, default 25).
func (e *Emulator) parsePaging(q url.Values) (pageParams, []problem) {
	p := pageParams{page: 1, size: defaultPageSize}
	var probs []problem
	if vs, ok := q["currentPage"]; ok {
		n, err := strconv.Atoi(strings.TrimSpace(single(vs)))
		if err != nil || n < 1 || len(vs) != 1 {
			probs = append(probs, e.invalid("currentPage", "This attribute must be an integer greater than or equal to 1."))
		} else {
			p.page = n
		}
	}
	if vs, ok := q["pageSize"]; ok {
		n, err := strconv.Atoi(strings.TrimSpace(single(vs)))
		if err != nil || n < 1 || n > maxPageSize || len(vs) != 1 {
			probs = append(probs, e.invalid("pageSize", "This attribute must be an integer between 1 and 100."))
		} else {
			p.size = n
		}
	}
	return p, probs
}

// single returns the only value of a query parameter, or "" when it was repeated.
func single(vs []string) string {
	if len(vs) != 1 {
		return ""
	}
	return vs[0]
}

// listParams accepts the query parameters of a list endpoint: currentPage and pageSize, which
// every list takes, and names.
func listParams(names ...string) func(string) bool {
	return func(k string) bool {
		return k == "currentPage" || k == "pageSize" || slices.Contains(names, k)
	}
}

// unknownParams reports every query parameter that known does not accept.
func (e *Emulator) unknownParams(q url.Values, known func(string) bool) []problem {
	var names []string
	for k := range q {
		if !known(k) {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	probs := make([]problem, 0, len(names))
	for _, k := range names {
		probs = append(probs, e.invalid(k, "This parameter does not exist for this endpoint."))
	}
	return probs
}

// singleValues reads the text filters names, each of which may be given once: their values by
// name, and one problem for each given more than once. The filters read are kept in filters, to
// be repeated in the pagination links.
func (e *Emulator) singleValues(q, filters url.Values, names ...string) (map[string]string, []problem) {
	vals := map[string]string{}
	var probs []problem
	for _, name := range names {
		vs, ok := q[name]
		if !ok {
			continue
		}
		if len(vs) != 1 {
			probs = append(probs, e.invalid(name, "This attribute must be given once."))
			continue
		}
		filters[name] = vs
		vals[name] = vs[0]
	}
	return vals, probs
}

// sortKey is one value of a list's sortBy and the order it gives, ascending.
type sortKey[R any] struct {
	name    string
	compare func(a, b *R) int
}

// defaultSortKey is the order of a list without sortBy.
const defaultSortKey = "createdAt"

// parseOrder reads sortBy (the name of one of keys) and sortOrder (asc or desc) into the list's
// order, and keeps them in filters; without sortBy the order is by createdAt. Records that
// compare equal stay in creation order, descending too. A problem of sortBy comes before one
// of sortOrder.
func parseOrder[R any](e *Emulator, q, filters url.Values, keys []sortKey[R]) (func(a, b *R) int, []problem) {
	return parseOrderFrom(e, q, filters, keys, defaultSortKey)
}

// parseOrderFrom is parseOrder of a list whose order without sortBy is by the key named def.
func parseOrderFrom[R any](e *Emulator, q, filters url.Values, keys []sortKey[R], def string) (func(a, b *R) int, []problem) {
	var probs []problem
	sortBy := def
	if vs, ok := q["sortBy"]; ok {
		if len(vs) != 1 || !slices.ContainsFunc(keys, func(key sortKey[R]) bool { return key.name == vs[0] }) {
			names := make([]string, 0, len(keys))
			for _, key := range keys {
				names = append(names, key.name)
			}
			probs = append(probs, e.invalid("sortBy", "This attribute must be one of: "+strings.Join(names, ", ")+"."))
		} else {
			sortBy = vs[0]
			filters["sortBy"] = vs
		}
	}
	desc := false
	if vs, ok := q["sortOrder"]; ok {
		if len(vs) != 1 || (vs[0] != "asc" && vs[0] != "desc") {
			probs = append(probs, e.invalid("sortOrder", "This attribute must be asc or desc."))
		} else {
			desc = vs[0] == "desc"
			filters["sortOrder"] = vs
		}
	}
	compare := keys[slices.IndexFunc(keys, func(key sortKey[R]) bool { return key.name == sortBy })].compare
	return func(a, b *R) int {
		c := compare(a, b)
		if desc {
			c = -c
		}
		return c
	}, probs
}

// parseOrderAndPage reads sortBy, sortOrder and the paging into lq, after the endpoint's
// filters, and answers their problems in that order.
func parseOrderAndPage[R any](e *Emulator, q url.Values, lq *listQuery[R], keys []sortKey[R]) []problem {
	order, probs := parseOrder(e, q, lq.filters, keys)
	page, pageProbs := e.parsePaging(q)
	lq.order, lq.page = order, page
	return append(probs, pageProbs...)
}

// sortedListQuery reads the query of a list that has no filters, only sorting by keys and
// paging (player themes, upload tokens, watermarks).
func sortedListQuery[R any](e *Emulator, keys []sortKey[R]) func(url.Values) (listQuery[R], []problem) {
	return func(q url.Values) (listQuery[R], []problem) {
		lq := listQuery[R]{filters: url.Values{}}
		probs := e.unknownParams(q, listParams("sortBy", "sortOrder"))
		probs = append(probs, parseOrderAndPage(e, q, &lq, keys)...)
		return lq, probs
	}
}
