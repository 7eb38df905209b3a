package videohost

import (
	"context"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// maxPageSize is the largest page the service serves; fewer pages mean fewer reads spent
// against the rate limit.
const maxPageSize = 100

// page is one answer of a list endpoint.
type page[T any] struct {
	Data       []T        `json:"data"`
	Pagination pagination `json:"pagination"`
}

// pagination is the paging object of every list answer. The walk reads currentPage,
// pagesTotal and links; the other members are decoded all the same, so that a paging object
// whose counts are not numbers is refused as the malformed answer it is.
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

// next is the uri of the next link, or empty on the last page.
func (p pagination) next() string {
	for _, l := range p.Links {
		if l.Rel == "next" {
			return l.URI
		}
	}
	return ""
}

// Paginate walks a list endpoint (path plus query) with pageSize 100, following next links,
// and yields its items; it stops with an error on a server that repeats a page.
func Paginate[T any](ctx context.Context, c *Client, path string, query url.Values) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		q := url.Values{}
		for k, v := range query {
			q[k] = append([]string(nil), v...)
		}
		q.Set("pageSize", strconv.Itoa(maxPageSize))
		r := request{method: http.MethodGet, path: path, query: q}
		here := c.address(r)
		seenLinks := map[string]bool{here.String(): true}
		// seenNext holds the next links as written: a link relative to the page it is on
		// ("items/2") resolves to a new address on every page, so that a service repeating a
		// page without a currentPage would otherwise be walked forever.
		seenNext := map[string]bool{}
		seenPages := map[int]bool{}
		// read and announced bound a service that never repeats itself but never ends either
		// (no currentPage, a new next link on every page): no walk reads more pages than the
		// most any page announced, plus one for a list that grew during the walk.
		read, announced := 0, 0
		for {
			var p page[T]
			if err := c.do(ctx, r, &p); err != nil {
				yield(zero, err)
				return
			}
			read++
			pg := p.Pagination
			announced = max(announced, pg.PagesTotal)
			if read > announced+1 {
				yield(zero, fmt.Errorf("GET %s: the service served %d pages of a list it said has %d; "+
					"stopped instead of looping", c.shownPath(here), read, announced))
				return
			}
			if pg.CurrentPage != 0 {
				if seenPages[pg.CurrentPage] {
					yield(zero, fmt.Errorf("GET %s: the service served page %d twice; stopped instead of looping",
						c.shownPath(here), pg.CurrentPage))
					return
				}
				seenPages[pg.CurrentPage] = true
			}
			for _, item := range p.Data {
				if !yield(item, nil) {
					return
				}
			}
			next := pg.next()
			if next == "" || pg.CurrentPage >= pg.PagesTotal {
				return
			}
			u, err := c.resolveLink(here, next)
			if err != nil {
				yield(zero, err)
				return
			}
			if seenLinks[u.String()] {
				yield(zero, fmt.Errorf("GET %s: the service sent a next link to a page already read; "+
					"stopped instead of looping", c.shownPath(u)))
				return
			}
			if seenNext[next] {
				yield(zero, fmt.Errorf("GET %s: the service sent the same next link on two pages; "+
					"stopped instead of looping", c.shownPath(here)))
				return
			}
			seenNext[next] = true
			seenLinks[u.String()] = true
			here = u
			r = request{method: http.MethodGet, link: u}
		}
	}
}

// resolveLink turns a next link into an address: a full URL as it is, a path or a query
// against the page just read. Only links to the base address's host are followed, since the
// request carries the credentials.
func (c *Client) resolveLink(here *url.URL, raw string) (*url.URL, error) {
	ref, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("GET %s: the next link cannot be parsed: %w", c.shownPath(here), err)
	}
	if !ref.IsAbs() && strings.HasPrefix(ref.Path, "/") {
		// A path from the service's root: keep the base address's own prefix, if any.
		if prefix := c.base.Path; prefix != "" && !strings.HasPrefix(ref.Path, prefix+"/") {
			ref.Path = prefix + ref.Path
			ref.RawPath = ""
		}
	}
	u := here.ResolveReference(ref)
	if !strings.EqualFold(u.Scheme, c.base.Scheme) || !strings.EqualFold(u.Host, c.base.Host) {
		return nil, fmt.Errorf("GET %s: the next link leads to %s://%s, not to %s: refusing to send "+
			"credentials there", c.shownPath(here), u.Scheme, u.Host, c.base.Host)
	}
	u.Fragment = ""
	return u, nil
}

// collect gathers every item of a walk.
func collect[T any](seq iter.Seq2[T, error]) ([]T, error) {
	out := []T{}
	for item, err := range seq {
		if err != nil {
			return nil, err
		}
		out = append(out, item)
	}
	return out, nil
}
