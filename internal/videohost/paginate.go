package videohost

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// maxPageSize is the largest page: fewer pages spend fewer reads of the rate limit.
const maxPageSize = 100

type page[T any] struct {
	Data       []T        `json:"data"`
	Pagination pagination `json:"pagination"`
	// Context is what the analytics' lists say of the query answered; other lists have none.
	Context json.RawMessage `json:"context"`
}

// pagination is the paging object of a list. The counts that the walk does not read are decoded
// all the same, so that a paging object whose counts are not numbers is refused.
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
	return paginate[T](ctx, c, path, query, nil)
}

// paginate is Paginate, handing the context of each page, when it has one, to onContext.
func paginate[T any](ctx context.Context, c *Client, path string, query url.Values, onContext func(json.RawMessage) error) iter.Seq2[T, error] {
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
			if err == nil && onContext != nil && p.Context != nil {
				err = onContext(p.Context)
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
	// seen holds the addresses read and the next links as written: a relative link ("items/2")
	// resolves anew on every page, so a repeated page is known by the link's words.
	seen map[string]bool
	// No walk reads more pages than the most any page announced, plus one for a list that grew.
	read, announced int
}

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

// resolveLink resolves a next link against the page just read. Only links to the base address's
// host are followed: the request carries the credentials.
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
