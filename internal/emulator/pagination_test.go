package emulator_test

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

func TestPagination(t *testing.T) {
	e := newEnv(t, emulator.Options{Limits: emulator.Limits{Writes: 100, Reads: 200}})
	var want []string
	for i := range 7 {
		want = append(want, e.createWebhook(fmt.Sprintf("https://r.test/%d", i), "video.summary.generated").str("webhookId"))
	}
	e.createWebhook("https://r.test/other", "video.caption.generated")
	const filter = "&events=video.summary.generated"
	uri := func(page int) string {
		return fmt.Sprintf("/webhooks?currentPage=%d&pageSize=3%s", page, filter)
	}
	for _, tc := range []struct {
		page, items int
		links       map[string]string
	}{
		{1, 3, map[string]string{"self": uri(1), "first": uri(1), "last": uri(3), "next": uri(2)}},
		{2, 3, map[string]string{"self": uri(2), "first": uri(1), "last": uri(3), "next": uri(3), "previous": uri(1)}},
		{3, 1, map[string]string{"self": uri(3), "first": uri(1), "last": uri(3), "previous": uri(2)}},
		{4, 0, map[string]string{"self": uri(4), "first": uri(1), "last": uri(3), "previous": uri(3)}},
	} {
		r := e.api("GET", uri(tc.page), nil)
		expectStatus(t, r, http.StatusOK)
		p := r.pagination()
		got := fmt.Sprint(p["currentPage"], p["currentPageItems"], p["pageSize"], p["pagesTotal"], p["itemsTotal"])
		if exp := fmt.Sprint(tc.page, tc.items, 3, 3, 7); got != exp {
			t.Errorf("page %d: pagination %s, want %s", tc.page, got, exp)
		}
		if fmt.Sprint(r.links()) != fmt.Sprint(tc.links) {
			t.Errorf("page %d: links %v, want %v", tc.page, r.links(), tc.links)
		}
		if len(r.data()) != tc.items {
			t.Errorf("page %d: %d items", tc.page, len(r.data()))
		}
	}

	// Walking the next links from the first page yields every item once, in order.
	var got []string
	next := "/webhooks?pageSize=3" + filter
	for next != "" {
		r := e.api("GET", next, nil)
		expectStatus(t, r, http.StatusOK)
		for _, it := range r.data() {
			got = append(got, fmt.Sprint(it["webhookId"]))
		}
		next = r.links()["next"]
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("walked %v, want %v", got, want)
	}

	// Defaults: page 1 of 25.
	r := e.api("GET", "/webhooks", nil)
	if p := r.pagination(); p["currentPage"] != float64(1) || p["pageSize"] != float64(25) || p["pagesTotal"] != float64(1) {
		t.Errorf("defaults: %v", p)
	}
}

func TestPaginationEmpty(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	r := e.api("GET", "/webhooks?events=video.source.recorded", nil)
	expectStatus(t, r, http.StatusOK)
	if items, ok := r.body["data"].([]any); !ok || len(items) != 0 {
		t.Errorf("data of an empty list: %s", r.raw)
	}
	p := r.pagination()
	if p["pagesTotal"] != float64(1) || p["itemsTotal"] != float64(0) || p["currentPageItems"] != float64(0) {
		t.Errorf("empty pagination: %v", p)
	}
	links := r.links()
	if _, has := links["next"]; has {
		t.Error("empty list has a next link")
	}
	if _, has := links["previous"]; has {
		t.Error("empty list has a previous link")
	}
	self, err := url.Parse(links["self"])
	if err != nil || self.Path != "/webhooks" || self.Query().Get("currentPage") != "1" ||
		self.Query().Get("pageSize") != "25" || self.Query().Get("events") != "video.source.recorded" {
		t.Errorf("self link %q", links["self"])
	}
}
