package videohost

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

type item struct {
	N int `json:"n"`
}

// pagedItems serves total items at /items in pages of the requested size; linkFor writes the
// next link of a page (given the service's own address and the next page number).
func pagedItems(t *testing.T, total int, linkFor func(base string, next, size int) string, base *string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		size, _ := strconv.Atoi(q.Get("pageSize"))
		if size != 100 {
			t.Errorf("pageSize = %q, want 100", q.Get("pageSize"))
			size = 25
		}
		page := 1
		if v := q.Get("currentPage"); v != "" {
			page, _ = strconv.Atoi(v)
		}
		pages := (total + size - 1) / size
		data := []item{}
		for i := (page - 1) * size; i < min(page*size, total); i++ {
			data = append(data, item{N: i})
		}
		links := []map[string]string{
			{"rel": "self", "uri": fmt.Sprintf("/items?currentPage=%d&pageSize=%d", page, size)},
			{"rel": "first", "uri": fmt.Sprintf("/items?currentPage=1&pageSize=%d", size)},
			{"rel": "last", "uri": fmt.Sprintf("/items?currentPage=%d&pageSize=%d", pages, size)},
		}
		if page < pages {
			links = append(links, map[string]string{"rel": "next", "uri": linkFor(*base, page+1, size)})
		}
		writeJSON(w, http.StatusOK, map[string]any{"data": data, "pagination": map[string]any{
			"currentPage": page, "currentPageItems": len(data), "pageSize": size, "pagesTotal": pages,
			"itemsTotal": total, "links": links,
		}})
	}
}

func TestPaginateFollowsLinks(t *testing.T) {
	tests := []struct {
		name string
		link func(base string, next, size int) string
	}{
		{"relative path", func(_ string, next, size int) string {
			return fmt.Sprintf("/items?currentPage=%d&pageSize=%d", next, size)
		}},
		{"absolute URL", func(base string, next, size int) string {
			return fmt.Sprintf("%s/items?currentPage=%d&pageSize=%d", base, next, size)
		}},
		{"query only", func(_ string, next, size int) string {
			return fmt.Sprintf("?currentPage=%d&pageSize=%d", next, size)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var base string
			f := newFakeService(t, pagedItems(t, 1234, tt.link, &base))
			base = f.srv.URL
			c := f.client(t)
			got, err := collect(Paginate[item](t.Context(), c, "/items", nil))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1234 {
				t.Fatalf("items = %d, want 1234", len(got))
			}
			for i, it := range got {
				if it.N != i {
					t.Fatalf("item %d = %d: out of order or repeated", i, it.N)
				}
			}
			if n := f.count(http.MethodGet, "/items"); n != 13 {
				t.Fatalf("pages read = %d, want 13", n)
			}
		})
	}
}

func TestPaginateStopsOnARepeatingServer(t *testing.T) {
	tests := []struct {
		name string
		api  http.HandlerFunc
		want string
	}{
		{"same page twice", func(w http.ResponseWriter, r *http.Request) {
			// The service ignores currentPage and serves page 1 forever.
			writeJSON(w, http.StatusOK, map[string]any{"data": []item{{1}}, "pagination": map[string]any{
				"currentPage": 1, "pagesTotal": 5,
				"links": []map[string]string{{"rel": "next", "uri": "/items?currentPage=2&pageSize=100"}},
			}})
		}, "a page already read"},
		{"next link already visited", func(w http.ResponseWriter, r *http.Request) {
			page, _ := strconv.Atoi(r.URL.Query().Get("currentPage"))
			// Pages count up, but the next link always points back to page 2.
			writeJSON(w, http.StatusOK, map[string]any{"data": []item{{page}}, "pagination": map[string]any{
				"currentPage": page + 1, "pagesTotal": 50,
				"links": []map[string]string{{"rel": "next", "uri": "/items?currentPage=2&pageSize=100"}},
			}})
		}, "a page already read"},
		{"never ends", func(w http.ResponseWriter, r *http.Request) {
			n, _ := strconv.Atoi(r.URL.Query().Get("cursor"))
			// No currentPage, and a next link never seen before on every page.
			writeJSON(w, http.StatusOK, map[string]any{"data": []item{{n}}, "pagination": map[string]any{
				"pagesTotal": 2,
				"links":      []map[string]string{{"rel": "next", "uri": fmt.Sprintf("/items?cursor=%d", n+1)}},
			}})
		}, "served 4 pages of a list it said has 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeService(t, tt.api)
			c := f.client(t)
			_, err := collect(Paginate[item](t.Context(), c, "/items", nil))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one that says %q", err, tt.want)
			}
			if n := f.count(http.MethodGet, "/items"); n > 4 {
				t.Fatalf("read %d pages before stopping", n)
			}
		})
	}
}

func TestPaginateEdges(t *testing.T) {
	page := func(cur, total int, next string) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) {
			links := []map[string]string{}
			if next != "" {
				links = append(links, map[string]string{"rel": "next", "uri": next})
			}
			writeJSON(w, http.StatusOK, map[string]any{"data": []item{{1}, {2}}, "pagination": map[string]any{
				"currentPage": cur, "pagesTotal": total, "links": links,
			}})
		}
	}
	t.Run("last page by count even with a next link", func(t *testing.T) {
		f := newFakeService(t, page(3, 3, "/items?currentPage=4&pageSize=100"))
		got, err := collect(Paginate[item](t.Context(), f.client(t), "/items", nil))
		if err != nil || len(got) != 2 || f.count(http.MethodGet, "/items") != 1 {
			t.Fatalf("got %v, %v after %d reads", got, err, f.count(http.MethodGet, "/items"))
		}
	})
	t.Run("link to another host is refused", func(t *testing.T) {
		f := newFakeService(t, page(1, 2, "http://elsewhere.test/items?currentPage=2&pageSize=100"))
		_, err := collect(Paginate[item](t.Context(), f.client(t), "/items", nil))
		if err == nil || !strings.Contains(err.Error(), "refusing to send credentials") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("bad link", func(t *testing.T) {
		f := newFakeService(t, page(1, 2, "http://[::1"))
		_, err := collect(Paginate[item](t.Context(), f.client(t), "/items", nil))
		if err == nil || !strings.Contains(err.Error(), "cannot be parsed") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("the caller stops early", func(t *testing.T) {
		f := newFakeService(t, page(1, 9, "/items?currentPage=2&pageSize=100"))
		for _, err := range Paginate[item](t.Context(), f.client(t), "/items", url.Values{"events": {"a"}}) {
			if err != nil {
				t.Fatal(err)
			}
			break
		}
		reqs := f.requests()
		if n := f.count(http.MethodGet, "/items"); n != 1 {
			t.Fatalf("pages read = %d, want 1", n)
		}
		if q := reqs[len(reqs)-1].query; q != "events=a&pageSize=100" {
			t.Fatalf("query = %q, want the filter and pageSize", q)
		}
	})
	t.Run("an error on a page ends the walk", func(t *testing.T) {
		f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Get("currentPage") == "2" {
				writeJSON(w, http.StatusBadRequest, map[string]any{"title": "Invalid attributes.", "status": 400})
				return
			}
			page(1, 2, "/items?currentPage=2&pageSize=100")(w, r)
		})
		var items int
		var err error
		for _, e := range Paginate[item](t.Context(), f.client(t), "/items", nil) {
			if e != nil {
				err = e
				break
			}
			items++
		}
		var ve *Error
		if items != 2 || !errors.As(err, &ve) || ve.Status != 400 {
			t.Fatalf("items %d, err %v", items, err)
		}
	})
}

func TestPaginateUnderABasePath(t *testing.T) {
	var base string
	f := newFakeService(t, nil)
	inner := pagedItems(t, 250, func(_ string, next, size int) string {
		// The service writes links from its own root, without the prefix of the base address.
		return fmt.Sprintf("/items?currentPage=%d&pageSize=%d", next, size)
	}, &base)
	f.api = func(w http.ResponseWriter, r *http.Request) {
		p, ok := strings.CutPrefix(r.URL.Path, "/v1")
		if !ok {
			http.NotFound(w, r)
			return
		}
		r.URL.Path = p
		inner(w, r)
	}
	c := f.client(t, basic, func(cfg *Config) { cfg.BaseURL = f.srv.URL + "/v1/" })
	got, err := collect(Paginate[item](t.Context(), c, "/items", nil))
	if err != nil || len(got) != 250 {
		t.Fatalf("got %d items, %v", len(got), err)
	}
	if n := f.count(http.MethodGet, "/v1/items"); n != 3 {
		t.Fatalf("pages read under /v1 = %d, want 3", n)
	}
}

// TestPaginateWithoutPagesTotal: a page that states no count but has a next link does not end
// the walk quietly, as if the list were complete; the walk follows it, and stops with an error
// at the bound of a list that announced no pages.
func TestPaginateWithoutPagesTotal(t *testing.T) {
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("currentPage"))
		writeJSON(w, http.StatusOK, map[string]any{"data": []item{{n}}, "pagination": map[string]any{
			"links": []map[string]string{{"rel": "next", "uri": fmt.Sprintf("/items?currentPage=%d", n+1)}},
		}})
	})
	got, err := collect(Paginate[item](t.Context(), f.client(t), "/items", nil))
	if err == nil || !strings.Contains(err.Error(), "no pagesTotal") || got != nil {
		t.Fatalf("got %v, %v; want an error that says the pages state no count", got, err)
	}
	if n := f.count(http.MethodGet, "/items"); n != 2 {
		t.Fatalf("pages read = %d, want 2", n)
	}
}
