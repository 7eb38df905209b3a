package videohost

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"testing"
)

func TestSummaryCalls(t *testing.T) {
	var (
		query   url.Values
		bodies  []map[string]any
		patches int
	)
	summary := map[string]any{"summaryId": "summary_1", "videoId": "vi1", "origin": "auto", "sourceStatus": "completed",
		"createdAt": "2024-07-14T23:36:07+00:00", "updatedAt": "2024-07-14T23:36:07+00:00"}
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		if b, _ := io.ReadAll(r.Body); len(b) > 0 {
			_ = json.Unmarshal(b, &body)
			bodies = append(bodies, body)
		}
		switch r.Method + " " + r.URL.Path {
		case "POST /summaries":
			writeJSON(w, http.StatusCreated, summary)
		case "GET /summaries":
			query = r.URL.Query()
			writeJSON(w, http.StatusOK, map[string]any{"data": []any{summary},
				"pagination": map[string]any{"currentPage": 1, "pagesTotal": 1, "links": []any{}}})
		case "GET /summaries/summary_1/source":
			writeJSON(w, http.StatusOK, map[string]any{"abstract": "A.", "takeaways": []string{"1", "2"}})
		case "PATCH /summaries/summary_1/source":
			// A PATCH sets absolute values: a 502 is retried like a read.
			if patches++; patches == 1 {
				writeJSON(w, http.StatusBadGateway, map[string]any{"title": "Bad gateway.", "status": 502})
				return
			}
			writeJSON(w, http.StatusCreated, map[string]any{"abstract": "B."})
		case "DELETE /summaries/summary_1":
			w.WriteHeader(http.StatusNoContent)
		default:
			writeJSON(w, http.StatusNotFound, map[string]any{"title": "Not found.", "status": 404})
		}
	})
	c := f.client(t)
	s, err := c.CreateSummary(t.Context(), SummaryCreate{VideoID: "vi1", Origin: "auto"})
	if err != nil || s.ID != "summary_1" || s.CreatedAt == nil || s.SourceStatus != "completed" {
		t.Fatalf("CreateSummary = %+v, %v", s, err)
	}
	if _, sent := bodies[0]["attributes"]; sent || bodies[0]["origin"] != "auto" {
		t.Errorf("create body %v", bodies[0])
	}
	list, err := c.ListSummaries(t.Context(), SummaryFilter{VideoID: "vi1", Origin: "auto", SortBy: "videoId"})
	if err != nil || len(list) != 1 || query.Get("videoId") != "vi1" || query.Get("origin") != "auto" || query.Get("sortBy") != "videoId" {
		t.Fatalf("ListSummaries = %+v, %v (query %v)", list, err, query)
	}
	src, err := c.GetSummarySource(t.Context(), "summary_1")
	if err != nil || src.Abstract != "A." || len(src.Takeaways) != 2 {
		t.Fatalf("GetSummarySource = %+v, %v", src, err)
	}
	abstract := "B."
	if src, err = c.UpdateSummarySource(t.Context(), "summary_1", SummarySourceUpdate{Abstract: &abstract}); err != nil || src.Abstract != "B." {
		t.Fatalf("UpdateSummarySource = %+v, %v", src, err)
	}
	if last := bodies[len(bodies)-1]; last["abstract"] != "B." || last["takeaways"] != nil {
		t.Errorf("patch body %v", last)
	}
	if err := c.DeleteSummary(t.Context(), "summary_1"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetSummarySource(t.Context(), "summary_2"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("source of an absent summary: %v", err)
	}
}

func TestTagCalls(t *testing.T) {
	var query url.Values
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		query = r.URL.Query()
		writeJSON(w, http.StatusOK, map[string]any{"data": []any{map[string]any{"value": "maths", "videoCount": 33}},
			"pagination": map[string]any{"currentPage": 1, "pagesTotal": 1, "links": []any{}}})
	})
	tags, err := f.client(t).ListTags(t.Context(), TagFilter{Value: "math", SortBy: "videoCount", SortOrder: "desc"})
	if err != nil || len(tags) != 1 || tags[0].VideoCount != 33 {
		t.Fatalf("ListTags = %+v, %v", tags, err)
	}
	if query.Get("value") != "math" || query.Get("sortBy") != "videoCount" || query.Get("sortOrder") != "desc" {
		t.Errorf("query %v", query)
	}
}
