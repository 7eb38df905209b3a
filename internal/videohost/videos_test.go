package videohost

import (
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"
)

// videoSample is a video as the public service writes it, with a member the client does not
// know.
const videoSample = `{
  "videoId": "vi4blUQJFrYWbaG44NChkH27",
  "title": "Maths video",
  "description": "An amazing video explaining the string theory",
  "language": "en",
  "playerId": "pl45KFKdlddgk654dspkze",
  "createdAt": "2019-12-16T08:25:51+00:00",
  "publishedAt": "2019-12-16T08:25:51Z",
  "updatedAt": "2019-12-16T09:25:51.5+01:00",
  "discarded": false, "public": true, "panoramic": false, "mp4Support": true,
  "tags": ["maths", "string theory"],
  "metadata": [{"key": "Author", "value": "John Doe"}],
  "source": {"uri": "/videos/vi4blUQJFrYWbaG44NChkH27/source", "type": "upload",
    "liveStream": {"liveStreamId": "li400mYKSgQ6xs7taUeSaEKr", "links": []}},
  "assets": {"hls": "https://cdn.test/hls/manifest.m3u8", "iframe": "<iframe></iframe>",
    "player": "https://embed.test/v", "thumbnail": "https://cdn.test/thumbnail.jpg", "mp4": "https://cdn.test/mp4/source.mp4"},
  "discardedAt": null,
  "somethingNew": {"x": 1}
}`

const liveStreamSample = `{
  "liveStreamId": "li400mYKSgQ6xs7taUeSaEKr",
  "name": "My Live Stream",
  "streamKey": "cc1b4df0-d1c5-4064-a8f9-9f0368385135",
  "public": true, "playerId": "pl4f4ferf5erfr5zed4fsdd", "broadcasting": true,
  "createdAt": "2020-01-31T10:17:47+00:00",
  "updatedAt": null,
  "assets": {"hls": "https://live.test/li4/hls/live.m3u8", "iframe": "<iframe></iframe>",
    "player": "https://embed.test/live/li4", "thumbnail": "https://cdn.test/li4/thumbnail.jpg"},
  "restreams": [{"name": "YouTube", "serverUrl": "rtmp://x.rtmp.youtube.com/live2", "streamKey": "dw-dew8-q6w9-k67w-1ws8"}]
}`

func TestVideoEndpoints(t *testing.T) {
	var query url.Values
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/videos":
			query = r.URL.Query()
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"data":[` + videoSample + `],"pagination":{"currentPage":1,"pagesTotal":1,"links":[]}}`))
		case "/videos/vi4blUQJFrYWbaG44NChkH27":
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(videoSample))
		default:
			writeJSON(w, http.StatusNotFound, map[string]any{"title": "The requested resource could not be found.", "name": "videoId", "status": 404})
		}
	})
	c := f.client(t)
	ts := func(s string) *time.Time {
		v, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		return &v
	}
	want := Video{
		ID: "vi4blUQJFrYWbaG44NChkH27", Title: "Maths video", Description: "An amazing video explaining the string theory",
		Language: "en", PlayerID: "pl45KFKdlddgk654dspkze",
		CreatedAt: ts("2019-12-16T08:25:51Z"), PublishedAt: ts("2019-12-16T08:25:51Z"), UpdatedAt: ts("2019-12-16T08:25:51.5Z"),
		Public: true, MP4Support: true, Tags: []string{"maths", "string theory"},
		Metadata: []Metadata{{Key: "Author", Value: "John Doe"}},
		Source: &VideoSource{URI: "/videos/vi4blUQJFrYWbaG44NChkH27/source", Type: "upload",
			LiveStream: &VideoSourceLiveStream{LiveStreamID: "li400mYKSgQ6xs7taUeSaEKr"}},
		Assets: &VideoAssets{HLS: "https://cdn.test/hls/manifest.m3u8", IFrame: "<iframe></iframe>",
			Player: "https://embed.test/v", Thumbnail: "https://cdn.test/thumbnail.jpg", MP4: "https://cdn.test/mp4/source.mp4"},
	}
	got, err := c.GetVideo(t.Context(), want.ID)
	if err != nil {
		t.Fatal(err)
	}
	checkVideo(t, got, want)

	list, err := c.ListVideos(t.Context(), VideoFilter{
		Title: "Maths video", Tags: []string{"maths", "string theory"},
		Metadata:    map[string]string{"Author": "John Doe", "Level": "2"},
		Description: "d", LiveStreamID: "li4", SortBy: "publishedAt", SortOrder: "desc",
	})
	if err != nil || len(list) != 1 {
		t.Fatalf("ListVideos = %d videos, %v", len(list), err)
	}
	checkVideo(t, list[0], want)
	wantQuery := url.Values{
		"title": {"Maths video"}, "tags[]": {"maths", "string theory"}, "metadata[Author]": {"John Doe"},
		"metadata[Level]": {"2"}, "description": {"d"}, "liveStreamId": {"li4"}, "sortBy": {"publishedAt"},
		"sortOrder": {"desc"}, "pageSize": {"100"},
	}
	if !reflect.DeepEqual(query, wantQuery) {
		t.Errorf("query = %v\nwant %v", query, wantQuery)
	}
	if _, err := c.ListVideos(t.Context(), VideoFilter{}); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(query, url.Values{"pageSize": {"100"}}) {
		t.Errorf("an empty filter sent %v", query)
	}
}

func checkVideo(t *testing.T, got, want Video) {
	t.Helper()
	for _, p := range []struct {
		name string
		a, b *time.Time
	}{{"createdAt", got.CreatedAt, want.CreatedAt}, {"publishedAt", got.PublishedAt, want.PublishedAt}, {"updatedAt", got.UpdatedAt, want.UpdatedAt}} {
		if p.a == nil || !p.a.Equal(*p.b) {
			t.Errorf("%s = %v, want %v", p.name, p.a, p.b)
		}
	}
	got.CreatedAt, got.PublishedAt, got.UpdatedAt = want.CreatedAt, want.PublishedAt, want.UpdatedAt
	if !reflect.DeepEqual(got, want) {
		t.Errorf("video\n %+v\nwant\n %+v", got, want)
	}
}

func TestLiveStreamEndpoints(t *testing.T) {
	var query url.Values
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/live-streams":
			query = r.URL.Query()
			_, _ = w.Write([]byte(`{"data":[` + liveStreamSample + `],"pagination":{"currentPage":1,"pagesTotal":1,"links":[]}}`))
		case "/live-streams/li400mYKSgQ6xs7taUeSaEKr":
			_, _ = w.Write([]byte(liveStreamSample))
		default:
			writeJSON(w, http.StatusNotFound, map[string]any{"title": "The requested resource could not be found.", "name": "liveStreamId", "status": 404})
		}
	})
	log := &captureLogger{}
	c := f.client(t, func(cfg *Config) { cfg.Logger = log })
	created := time.Date(2020, 1, 31, 10, 17, 47, 0, time.UTC)
	want := LiveStream{
		ID: "li400mYKSgQ6xs7taUeSaEKr", Name: "My Live Stream", StreamKey: "cc1b4df0-d1c5-4064-a8f9-9f0368385135",
		Public: true, PlayerID: "pl4f4ferf5erfr5zed4fsdd", Broadcasting: true,
		Assets: &LiveStreamAssets{HLS: "https://live.test/li4/hls/live.m3u8", IFrame: "<iframe></iframe>",
			Player: "https://embed.test/live/li4", Thumbnail: "https://cdn.test/li4/thumbnail.jpg"},
		Restreams: []Restream{{Name: "YouTube", ServerURL: "rtmp://x.rtmp.youtube.com/live2", StreamKey: "dw-dew8-q6w9-k67w-1ws8"}},
	}
	check := func(got LiveStream) {
		t.Helper()
		if got.CreatedAt == nil || !got.CreatedAt.Equal(created) || got.UpdatedAt != nil {
			t.Errorf("times = %v, %v", got.CreatedAt, got.UpdatedAt)
		}
		got.CreatedAt = nil
		if !reflect.DeepEqual(got, want) {
			t.Errorf("live stream\n %+v\nwant\n %+v", got, want)
		}
	}
	got, err := c.GetLiveStream(t.Context(), want.ID)
	if err != nil {
		t.Fatal(err)
	}
	check(got)
	list, err := c.ListLiveStreams(t.Context(), LiveStreamFilter{
		Name: "My Live Stream", StreamKey: want.StreamKey, SortBy: "name", SortOrder: "asc",
	})
	if err != nil || len(list) != 1 {
		t.Fatalf("ListLiveStreams = %d, %v", len(list), err)
	}
	check(list[0])
	wantQuery := url.Values{"name": {"My Live Stream"}, "streamKey": {want.StreamKey}, "sortBy": {"name"},
		"sortOrder": {"asc"}, "pageSize": {"100"}}
	if !reflect.DeepEqual(query, wantQuery) {
		t.Errorf("query = %v", query)
	}
	if strings.Contains(log.text(), want.StreamKey) {
		t.Errorf("the stream key of the filter reached the log:\n%s", log.text())
	}
}

// videoJSON is a video as the specification writes it, with the language detected.
func videoJSON(id, title string) map[string]any {
	return map[string]any{
		"videoId": id, "title": title, "language": "en", "languageOrigin": "auto", "public": true,
		"mp4Support": true, "tags": []string{}, "metadata": []any{},
		"createdAt": "2024-08-08T14:12:18+00:00", "updatedAt": "2024-08-08T14:12:18+00:00",
		"source": map[string]any{"uri": "/videos/" + id + "/source"},
	}
}

func decodeBody(t *testing.T, body string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatalf("body %q: %v", body, err)
	}
	return m
}

func TestCreateVideoSendsOnlyWhatIsSet(t *testing.T) {
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusAccepted, videoJSON("vi1", "Intro"))
	})
	c := f.client(t)
	no := false
	v, err := c.CreateVideo(t.Context(), VideoCreate{
		Title: "Intro", Public: &no, Tags: []string{"a"}, Metadata: []Metadata{{Key: "k", Value: "v"}},
		Source: "https://example.org/v.mp4", Clip: &VideoClip{StartTimecode: "00:00:01", EndTimecode: "00:00:05"},
		Watermark:                   &VideoWatermark{ID: "watermark_1", Top: "10px", Opacity: "50%"},
		TranscriptSummaryAttributes: []string{"abstract"},
	})
	if err != nil || v.ID != "vi1" || v.LanguageOrigin != "auto" {
		t.Fatalf("CreateVideo = %+v, %v", v, err)
	}
	reqs := f.requests()
	got := decodeBody(t, reqs[len(reqs)-1].body)
	want := map[string]any{
		"title": "Intro", "public": false, "tags": []any{"a"}, "metadata": []any{map[string]any{"key": "k", "value": "v"}},
		"source": "https://example.org/v.mp4", "clip": map[string]any{"startTimecode": "00:00:01", "endTimecode": "00:00:05"},
		"watermark":                   map[string]any{"id": "watermark_1", "top": "10px", "opacity": "50%"},
		"transcriptSummaryAttributes": []any{"abstract"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("body = %v\nwant %v", got, want)
	}
	if _, err := c.CreateVideo(t.Context(), VideoCreate{Title: "Bare"}); err != nil {
		t.Fatal(err)
	}
	reqs = f.requests()
	if b := reqs[len(reqs)-1].body; strings.TrimSpace(b) != `{"title":"Bare"}` {
		t.Fatalf("a bare create sent %s", b)
	}
}

func TestUpdateVideoSendsPresentFields(t *testing.T) {
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, videoJSON("vi1", "New"))
	})
	c := f.client(t)
	in := VideoUpdate{Title: Value("New"), PlayerID: Null[string](), Tags: Value[[]string](nil), Public: Value(false),
		TranscriptSummaryAttributes: Value([]string{"takeaways"})}
	if in.IsEmpty() || !(VideoUpdate{}).IsEmpty() || (VideoUpdate{TranscriptSummaryAttributes: Value([]string{"abstract"})}).IsEmpty() {
		t.Fatal("IsEmpty is wrong")
	}
	v, err := c.UpdateVideo(t.Context(), "vi1", in)
	if err != nil || v.Title != "New" {
		t.Fatalf("UpdateVideo = %+v, %v", v, err)
	}
	reqs := f.requests()
	got := decodeBody(t, reqs[len(reqs)-1].body)
	want := map[string]any{"title": "New", "playerId": nil, "tags": []any{}, "public": false, "transcriptSummaryAttributes": []any{"takeaways"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("body = %v\nwant %v", got, want)
	}
}

func TestVideoThumbnailTimecode(t *testing.T) {
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodPatch && r.URL.Path == "/videos/vi1/thumbnail":
			writeJSON(w, http.StatusOK, videoJSON("vi1", "t"))
		default:
			writeJSON(w, http.StatusNotFound, map[string]any{"title": "Not found.", "status": 404})
		}
	})
	c := f.client(t)
	if _, err := c.SetVideoThumbnailTimecode(t.Context(), "vi1", "00:00:02.5"); err != nil {
		t.Fatal(err)
	}
	reqs := f.requests()
	if got := decodeBody(t, reqs[len(reqs)-1].body); !reflect.DeepEqual(got, map[string]any{"timecode": "00:00:02.5"}) {
		t.Fatalf("thumbnail body = %v", got)
	}
}
