package videohost

import (
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// largestVideo is a video at every bound the provider checks when it validates a
// configuration (a title of 1,000 characters, 200 tags of 255, 100 metadata pairs of 255 and
// 1,000), every character one that HTML escapes (<, > and &). Tags and keys are distinct, as a
// set and a map hold them: each ends with its index written in those three characters.
func largestVideo() (string, []string, []Metadata) {
	distinct := func(n, i int) string {
		var tail strings.Builder
		for range 5 {
			tail.WriteByte("<>&"[i%3])
			i /= 3
		}
		return strings.Repeat("<", n-5) + tail.String()
	}
	tags := make([]string, 200)
	for i := range tags {
		tags[i] = distinct(255, i)
	}
	meta := make([]Metadata, 100)
	for i := range meta {
		meta[i] = Metadata{Key: distinct(255, i), Value: strings.Repeat("<", 1000)}
	}
	return strings.Repeat("<", 1000), tags, meta
}

// TestLargestVideoBodyFitsTheServiceLimit: the create and the update of a video at the
// provider's bounds, made of characters that encoding/json's Marshal escapes as six bytes,
// reach the service as bodies of at most 1 MiB that decode to what was sent. With
// json.Marshal, as the client wrote bodies before, they were above the limit (checked too, so
// that the test keeps meaning something).
func TestLargestVideoBodyFitsTheServiceLimit(t *testing.T) {
	title, tags, meta := largestVideo()
	var sizes []int
	var got []VideoCreate
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		sizes = append(sizes, len(b))
		var v VideoCreate
		if len(b) > MaxBodyBytes || json.Unmarshal(b, &v) != nil {
			writeJSON(w, http.StatusBadRequest, map[string]any{"title": "The payload is invalid.", "status": 400})
			return
		}
		got = append(got, v)
		writeJSON(w, http.StatusOK, videoJSON("vi1", v.Title))
	})
	c := f.client(t, basic)
	create := VideoCreate{Title: title, Tags: tags, Metadata: meta}
	if _, err := c.CreateVideo(t.Context(), create); err != nil {
		t.Fatalf("the create at the provider's bounds was refused: %v", err)
	}
	update := VideoUpdate{Title: Value(title), Tags: Value(tags), Metadata: Value(meta)}
	if _, err := c.UpdateVideo(t.Context(), "vi1", update); err != nil {
		t.Fatalf("the update at the provider's bounds was refused: %v", err)
	}
	if len(got) != 2 || !reflect.DeepEqual(got[0], create) || !reflect.DeepEqual(got[1], create) {
		t.Fatal("the service did not read back the title, tags and metadata sent")
	}
	t.Logf("bodies of %v bytes, limit %d", sizes, MaxBodyBytes)
	for _, v := range []any{create, update} {
		n, err := BodySize(v)
		if err != nil || n > MaxBodyBytes {
			t.Errorf("BodySize = %d, %v; want at most %d", n, err, MaxBodyBytes)
		}
		if old, _ := json.Marshal(v); len(old) <= MaxBodyBytes {
			t.Errorf("json.Marshal writes %d bytes: the test no longer shows the escapes' cost", len(old))
		}
	}
}

// TestBodySizeCountsJSONEscapes: what JSON itself must escape still counts as its escape.
func TestBodySizeCountsJSONEscapes(t *testing.T) {
	for in, want := range map[string]int{`<>&`: 5, "\x01": 8, `"`: 4, "\t": 4, "é": 4} {
		if n, err := BodySize(in); err != nil || n != want {
			t.Errorf("BodySize(%q) = %d, %v; want %d", in, n, err, want)
		}
	}
}
