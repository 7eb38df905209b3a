package emulator

import (
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Paging defaults and bounds of the specification.
const (
	defaultPageSize = 25
	maxPageSize     = 100
)

// pagination is the specification's pagination object.
type pagination struct {
	CurrentPage      int    `json:"currentPage"`
	CurrentPageItems int    `json:"currentPageItems"`
	PageSize         int    `json:"pageSize"`
	PagesTotal       int    `json:"pagesTotal"`
	ItemsTotal       int    `json:"itemsTotal"`
	Links            []link `json:"links"`
}

type link struct {
	Rel string `json:"rel"`
	URI string `json:"uri"`
}

// listResponse is the body of every list endpoint.
type listResponse[T any] struct {
	Data       []T        `json:"data"`
	Pagination pagination `json:"pagination"`
}

type pageParams struct {
	page, size int
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

// paginate cuts one page out of items and describes it. An empty list has one (empty) page, so
// pagesTotal is 1 and the links self, first and last all point to page 1. A page beyond the last
// is answered with no items, a previous link and no next link. Every link is a path relative to
// the service's address carrying currentPage, pageSize and the filters.
//
// Only the items of the page are turned into their wire form, by wire: a walk of 10,000 videos
// takes 100 requests, and converting the whole list for each of them made the walk quadratic.
func paginate[T, W any](items []T, p pageParams, path string, filters url.Values, wire func(T) W) listResponse[W] {
	total := len(items)
	pages := max(1, (total+p.size-1)/p.size)
	// Comparing before multiplying keeps a huge currentPage from overflowing.
	start := total
	if p.page-1 <= total/p.size {
		start = min(total, (p.page-1)*p.size)
	}
	end := min(total, start+p.size)
	data := make([]W, 0, end-start)
	for _, it := range items[start:end] {
		data = append(data, wire(it))
	}

	extra := filters.Encode()
	uri := func(page int) string {
		s := path + "?currentPage=" + strconv.Itoa(page) + "&pageSize=" + strconv.Itoa(p.size)
		if extra != "" {
			s += "&" + extra
		}
		return s
	}
	links := []link{{Rel: "self", URI: uri(p.page)}, {Rel: "first", URI: uri(1)}}
	if p.page > 1 {
		links = append(links, link{Rel: "previous", URI: uri(min(p.page-1, pages))})
	}
	if p.page < pages {
		links = append(links, link{Rel: "next", URI: uri(p.page + 1)})
	}
	links = append(links, link{Rel: "last", URI: uri(pages)})
	return listResponse[W]{
		Data: data,
		Pagination: pagination{
			CurrentPage:      p.page,
			CurrentPageItems: len(data),
			PageSize:         p.size,
			PagesTotal:       pages,
			ItemsTotal:       total,
			Links:            links,
		},
	}
}
