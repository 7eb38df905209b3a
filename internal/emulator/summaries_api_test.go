package emulator_test

import (
	"net/http"
	"testing"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

func TestSummaryLifecycle(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	videoID := e.createVideo(map[string]any{"title": "Quantum"})

	auto := e.api("POST", "/summaries", map[string]any{"videoId": videoID, "origin": "auto"})
	expectStatus(t, auto, http.StatusCreated)
	if auto.str("origin") != "auto" || auto.str("sourceStatus") != "completed" || auto.str("videoId") != videoID {
		t.Fatalf("automatic summary: %s", auto.raw)
	}
	id := auto.str("summaryId")
	src := e.api("GET", "/summaries/"+id+"/source", nil)
	expectStatus(t, src, http.StatusOK)
	if src.str("abstract") == "" || len(src.body["takeaways"].([]any)) != 3 {
		t.Fatalf("generated source: %s", src.raw)
	}

	again := e.api("POST", "/summaries", map[string]any{"videoId": videoID})
	expectError(t, again, http.StatusConflict, "summary-already-exists", "videoId")
	if again.str("title") != "A summary already exists or is being created on this video." {
		t.Errorf("409 title: %s", again.raw)
	}

	patched := e.api("PATCH", "/summaries/"+id+"/source", map[string]any{"abstract": "Mine.", "takeaways": []string{"one"}})
	expectStatus(t, patched, http.StatusCreated)
	if patched.str("abstract") != "Mine." {
		t.Errorf("patched: %s", patched.raw)
	}
	tooMany := e.api("PATCH", "/summaries/"+id+"/source", map[string]any{"takeaways": []string{"1", "2", "3", "4"}})
	expectError(t, tooMany, http.StatusBadRequest, "invalid-attribute", "takeaways")

	list := e.api("GET", "/summaries?videoId="+videoID+"&origin=auto", nil)
	expectStatus(t, list, http.StatusOK)
	if got := ids(list, "summaryId"); len(got) != 1 || got[0] != id {
		t.Errorf("list: %s", list.raw)
	}
	if r := e.api("GET", "/summaries?origin=manual", nil); r.status != http.StatusBadRequest {
		t.Errorf("origin=manual: %d %s", r.status, r.raw)
	}

	expectStatus(t, e.api("DELETE", "/summaries/"+id, nil), http.StatusNoContent)
	expectError(t, e.api("GET", "/summaries/"+id+"/source", nil), http.StatusNotFound, "resource-not-found", "summaryId")
	manual := e.api("POST", "/summaries", map[string]any{"videoId": videoID})
	expectStatus(t, manual, http.StatusCreated)
	if manual.str("origin") != "api" || manual.str("sourceStatus") != "missing" {
		t.Errorf("summary without origin: %s", manual.raw)
	}
	expectError(t, e.api("POST", "/summaries", map[string]any{"videoId": "vinope"}), http.StatusNotFound, "resource-not-found", "videoId")
}

func TestSummaryOfTranscriptSummaryAndDeletedVideo(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	videoID := e.createVideo(map[string]any{"title": "With summary", "transcriptSummary": true})
	list := e.api("GET", "/summaries?videoId="+videoID, nil)
	if got := ids(list, "summaryId"); len(got) != 1 {
		t.Fatalf("transcriptSummary made no summary: %s", list.raw)
	}
	expectError(t, e.api("POST", "/summaries", map[string]any{"videoId": videoID, "origin": "auto"}), http.StatusConflict, "summary-already-exists", "videoId")
	expectStatus(t, e.api("DELETE", "/videos/"+videoID, nil), http.StatusNoContent)
	if got := ids(e.api("GET", "/summaries", nil), "summaryId"); len(got) != 0 {
		t.Errorf("a deleted video's summary stayed: %v", got)
	}
}

func TestTags(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	e.createVideo(map[string]any{"title": "a", "tags": []string{"Maths", "école"}})
	e.createVideo(map[string]any{"title": "b", "tags": []string{"maths", "Ecole"}})
	e.createVideo(map[string]any{"title": "c", "tags": []string{"Maths"}})
	all := e.api("GET", "/tags", nil)
	expectStatus(t, all, http.StatusOK)
	if got := ids(all, "value"); len(got) != 4 || got[0] != "Ecole" {
		t.Errorf("tags by value: %v", got)
	}
	byCount := e.api("GET", "/tags?sortBy=videoCount&sortOrder=desc&value=ECOLE", nil)
	expectStatus(t, byCount, http.StatusOK)
	if got := ids(byCount, "value"); len(got) != 2 {
		t.Errorf("value=ECOLE ignoring accents and case: %v", got)
	}
	top := e.api("GET", "/tags?sortBy=videoCount&sortOrder=desc", nil).data()[0]
	if top["value"] != "Maths" || top["videoCount"] != float64(2) {
		t.Errorf("most used tag: %v", top)
	}
	expectError(t, e.api("GET", "/tags?sortBy=createdAt", nil), http.StatusBadRequest, "invalid-attribute", "sortBy")
	if r := e.api("GET", "/tags/maths", nil); r.status != http.StatusNotFound {
		t.Errorf("GET /tags/maths: %d", r.status)
	}
}
