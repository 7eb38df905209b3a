package emulator_test

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

func TestSeedsAreDeterministic(t *testing.T) {
	list := func() string {
		e := newEnv(t, emulator.Options{SeedVideos: 12, SeedLiveStreams: 3})
		v := e.api("GET", "/videos?pageSize=100", nil)
		l := e.api("GET", "/live-streams?pageSize=100", nil)
		var sb []string
		for _, it := range v.data() {
			sb = append(sb, fmt.Sprint(it["videoId"], it["title"], it["tags"], it["metadata"], it["source"]))
		}
		for _, it := range l.data() {
			sb = append(sb, fmt.Sprint(it["liveStreamId"], it["name"], it["streamKey"], it["restreams"]))
		}
		return fmt.Sprint(sb)
	}
	a, b := list(), list()
	if a != b {
		t.Errorf("two runs differ:\n%s\n%s", a, b)
	}
	e := newEnv(t, emulator.Options{SeedVideos: 12, SeedLiveStreams: 3})
	v := e.api("GET", "/videos/"+emulator.SeedVideoID(1), nil)
	expectStatus(t, v, http.StatusOK)
	if v.str("videoId") != "vi0000000001" || v.str("title") != "Seed video 1" {
		t.Errorf("seed video 1: %s", v.raw)
	}
	if r := e.api("GET", "/videos?pageSize=100", nil); len(r.data()) != 12 {
		t.Errorf("%d seed videos", len(r.data()))
	}
}

func TestVideoFields(t *testing.T) {
	e := newEnv(t, emulator.Options{SeedVideos: 5, SeedLiveStreams: 1})
	v := e.api("GET", "/videos/vi0000000005", nil)
	expectStatus(t, v, http.StatusOK)
	for _, k := range []string{"videoId", "title", "description", "language", "languageOrigin", "createdAt", "publishedAt", "updatedAt",
		"discarded", "public", "panoramic", "mp4Support", "tags", "metadata", "source", "assets"} {
		if _, ok := v.body[k]; !ok {
			t.Errorf("video lacks %s", k)
		}
	}
	// The contract leaves playerId out of a video without a player theme.
	if _, ok := v.body["playerId"]; ok {
		t.Errorf("a video without a player theme shows playerId: %s", v.raw)
	}
	for _, k := range []string{"createdAt", "publishedAt", "updatedAt"} {
		if !atomRe.MatchString(v.str(k)) {
			t.Errorf("%s = %q", k, v.str(k))
		}
	}
	src, _ := v.body["source"].(map[string]any)
	ls, _ := src["liveStream"].(map[string]any)
	if ls["liveStreamId"] != "li0000000001" {
		t.Errorf("video 5 source: %v", src)
	}
	assets, _ := v.body["assets"].(map[string]any)
	for _, k := range []string{"hls", "iframe", "player", "thumbnail", "mp4"} {
		if s, _ := assets[k].(string); s == "" {
			t.Errorf("assets.%s is empty", k)
		}
	}
	v1 := e.api("GET", "/videos/vi0000000001", nil)
	if src1, ok := v1.body["source"].(map[string]any); !ok || src1["liveStream"] != nil || src1["type"] != "upload" {
		t.Errorf("video 1 has a live stream source: %s", v1.raw)
	}
}

func TestVideoFilters(t *testing.T) {
	e := newEnv(t, emulator.Options{SeedVideos: 12, SeedLiveStreams: 2})
	q := func(params string) []string {
		t.Helper()
		r := e.api("GET", "/videos?pageSize=100&"+params, nil)
		expectStatus(t, r, http.StatusOK)
		return ids(r, "videoId")
	}
	vid := func(ns ...int) []string {
		var out []string
		for _, n := range ns {
			out = append(out, emulator.SeedVideoID(n))
		}
		return out
	}
	for _, tc := range []struct {
		params string
		want   []string
	}{
		{"title=" + url.QueryEscape("Seed video 1"), vid(1, 10, 11, 12)},
		{"title=" + url.QueryEscape("seed VIDEO 11"), vid(11)},
		{"description=" + url.QueryEscape("number 7."), vid(7)},
		{"tags[]=tutorial", vid(1, 4, 7, 10)},
		{"tags[]=tutorial&tags[]=featured", vid(4)},
		{"tags[]=seed&tags[]=news&tags[]=featured", vid(8)},
		{"tags%5B%5D=demo", vid(3, 6, 9, 12)},
		{"metadata[category]=sports", vid(3, 6, 9, 12)},
		{"metadata[category]=music&metadata[index]=4", vid(4)},
		{"liveStreamId=li0000000002", vid(10)},
		{"liveStreamId=li0000000001", vid(5)},
		{"sortBy=title&sortOrder=desc", vid(9, 8, 7, 6, 5, 4, 3, 2, 12, 11, 10, 1)},
		{"sortBy=createdAt&sortOrder=desc&tags[]=demo", vid(12, 9, 6, 3)},
		{"sortOrder=asc&tags[]=demo", vid(3, 6, 9, 12)},
		{"title=nothing", nil},
	} {
		if got := q(tc.params); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: %v, want %v", tc.params, got, tc.want)
		}
	}
	// Filters travel in the pagination links.
	r := e.api("GET", "/videos?pageSize=2&tags[]=seed&metadata[category]=music", nil)
	next, err := url.Parse(r.links()["next"])
	if err != nil || next.Query().Get("tags[]") != "seed" || next.Query().Get("metadata[category]") != "music" || next.Query().Get("currentPage") != "2" {
		t.Errorf("next link %q", r.links()["next"])
	}
	for _, bad := range []string{"sortBy=duration", "sortOrder=up", "tags=seed", "metadata[]=x", "title=a&title=b", "unknown=1"} {
		r := e.api("GET", "/videos?"+bad, nil)
		expectStatus(t, r, http.StatusBadRequest)
		if r.str("type") != "https://docs.api.video/reference/invalid-attribute" || len(r.problems()) == 0 {
			t.Errorf("%s: %s", bad, r.raw)
		}
	}
}
