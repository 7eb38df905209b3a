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
// and yields its items. The walk ends at a page without a next link or one whose counts say it
// is the last; it stops with an error at a next link seen before, or past one page more than
// any page announced.
func Paginate[T any](ctx context.Context, c *Client, path string, query url.Values) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		q := url.Values{}
		for k, v := range query {
			q[k] = append([]string(nil), v...)
		}
		q.Set("pageSize", strconv.Itoa(maxPageSize))
		r := request{method: http.MethodGet, path: path, query: q}
		w := &pageWalk{c: c, here: c.address(r), seen: map[string]bool{}}
		w.seen[w.here.String()] = true
		for {
			var p page[T]
			err := c.do(ctx, r, &p)
			if err == nil {
				err = w.count(p.Pagination)
			}
			if err != nil {
				yield(zero, err)
				return
			}
			for _, item := range p.Data {
				if !yield(item, nil) {
					return
				}
			}
			u, err := w.next(p.Pagination)
			if err != nil {
				yield(zero, err)
			}
			if u == nil {
				return
			}
			r = request{method: http.MethodGet, link: u}
		}
	}
}

// pageWalk is where one walk of a list is, and what bounds it.
type pageWalk struct {
	c    *Client
	here *url.URL
	// seen holds the address of every page read and every next link as written: a link
	// relative to the page it is on ("items/2") resolves to a new address on every page, so a
	// service repeating such a page is known by the link's words.
	seen map[string]bool
	// read and announced bound a service that never repeats itself but never ends either: no
	// walk reads more pages than the most any page announced, plus one for a list that grew.
	read, announced int
}

// count counts a page read, and refuses one past the bound.
func (w *pageWalk) count(pg pagination) error {
	w.read++
	w.announced = max(w.announced, pg.PagesTotal)
	if w.read <= w.announced+1 {
		return nil
	}
	if w.announced == 0 {
		return fmt.Errorf("GET %s: the service served %d pages of a list without saying how many it has "+
			"(no pagesTotal); stopped instead of looping", w.c.shownPath(w.here), w.read)
	}
	return fmt.Errorf("GET %s: the service served %d pages of a list it said has %d; stopped instead of looping",
		w.c.shownPath(w.here), w.read, w.announced)
}

// next is the address of the page after pg, nil when pg is the last.
func (w *pageWalk) next(pg pagination) (*url.URL, error) {
	link := pg.next()
	if link == "" || (pg.PagesTotal > 0 && pg.CurrentPage >= pg.PagesTotal) {
		return nil, nil
	}
	u, err := w.c.resolveLink(w.here, link)
	if err != nil {
		return nil, err
	}
	if w.seen[u.String()] || w.seen["link "+link] {
		return nil, fmt.Errorf("GET %s: the service sent a next link to a page already read; "+
			"stopped instead of looping", w.c.shownPath(u))
	}
	w.seen[u.String()], w.seen["link "+link] = true, true
	w.here = u
	return u, nil
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
