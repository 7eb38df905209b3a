package emulator

import (
	"net/url"
	"strconv"
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
