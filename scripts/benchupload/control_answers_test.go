package main

import (
	"slices"
	"strings"
	"testing"
)

// statsAnswer is an answer of GET /_emulator/stats as the emulator gives it.
const statsAnswer = `{"deliveries":{"offered":0,"delivered":0,"failed":0,"dropped":0,"pending":0,"queue":10000,"workers":8},
"rateLimits":{"earlyGraceMs":250,"uploads":{"requests":22,"tooManyRequests":1,"early":0,"first":"2026-11-29T09:00:00.25Z","last":"2026-11-29T09:00:09.75Z"},
"writes":{"requests":1,"tooManyRequests":0,"early":0,"first":"2026-11-29T09:00:00Z","last":"2026-11-29T09:00:00Z"},
"reads":{"requests":0,"tooManyRequests":0,"early":0,"first":null,"last":null}},
"requests":[{"method":"POST","path":"/videos","count":1}],"total":23,
"uploads":{"bytes":115343360,"videos":{"vi2b":5242880,"vi1a":110100480}}}`

func TestParseStats(t *testing.T) {
	s, err := parseStats([]byte(statsAnswer))
	if err != nil {
		t.Fatal(err)
	}
	u := s.RateLimits.Uploads
	if u.Requests != 22 || u.TooManyRequests != 1 || u.Early != 0 || s.Uploads.Bytes != 115343360 {
		t.Errorf("stats: %+v", s)
	}
	if ids := s.videoIDs(); !slices.Equal(ids, []string{"vi1a", "vi2b"}) {
		t.Errorf("video ids %v", ids)
	}
	first, err := s.uploadsFirst()
	if err != nil {
		t.Fatal(err)
	}
	last, err := s.uploadsLast()
	if err != nil {
		t.Fatal(err)
	}
	if got := last.Sub(first).Seconds(); got != 9.5 {
		t.Errorf("first → last %v s, want 9.5", got)
	}
	if _, err := parseStats([]byte("<html>")); err == nil {
		t.Error("an answer that is not JSON was read")
	}
}

func TestStatsBeforeAnyUpload(t *testing.T) {
	s, err := parseStats([]byte(`{"rateLimits":{"uploads":{"requests":0,"first":null,"last":null}},"uploads":{"bytes":0,"videos":{}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.uploadsFirst(); err == nil || !strings.Contains(err.Error(), "rateLimits.uploads.first") {
		t.Errorf("no first upload: %v", err)
	}
	if len(s.videoIDs()) != 0 {
		t.Error("video ids without uploads")
	}
}

func TestParseSource(t *testing.T) {
	s, err := parseSource([]byte(`{"videoId":"vi1a","complete":true,"size":67108864,"sha256":"ab12","completedAt":"2026-11-29T09:00:01.123456789Z"}`))
	if err != nil {
		t.Fatal(err)
	}
	at, err := s.completedAt()
	if err != nil || !s.Complete || s.sha256() != "ab12" || at.Nanosecond() != 123456789 {
		t.Errorf("source %+v at %v: %v", s, at, err)
	}
	s, err = parseSource([]byte(`{"videoId":"vi1a","complete":false,"size":null,"sha256":null,"completedAt":null}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.completedAt(); err == nil || s.sha256() != "" || s.Complete {
		t.Errorf("an incomplete source reads as complete: %+v", s)
	}
}

func TestInjectedUploadFaults(t *testing.T) {
	got, err := injectedUploadFaults([]byte(`{"errorRate":0,"uploadCommitThen500Rate":0.2,"uploadCuts":1,
"injected":{"error500":0,"readError500":0,"burst429":0,"commitThen500":0,"uploadCommitThen500":4,"uploadCut":1}}`))
	if err != nil || got != "uploadCommitThen500:4, uploadCut:1" {
		t.Errorf("got %q, %v", got, err)
	}
	if _, err := injectedUploadFaults([]byte(`{"errorRate":0}`)); err == nil {
		t.Error("an answer without injected was read")
	}
}

func TestItemsTotal(t *testing.T) {
	n, err := itemsTotal([]byte(`{"data":[{"videoId":"vi1a"}],"pagination":{"currentPage":1,"pageSize":1,"pagesTotal":2,"itemsTotal":2,"currentPageItems":1,"links":[]}}`))
	if err != nil || n != 2 {
		t.Errorf("got %d, %v", n, err)
	}
	if _, err := itemsTotal([]byte(`{"data":[]}`)); err == nil {
		t.Error("a list without pagination was read")
	}
}

func TestParseUploadLog(t *testing.T) {
	log := `2026-11-29T09:00:00.000Z [DEBUG] provider.terraform-provider-videohost: videohost uploading a source: chunk_size_mib=50 chunks_in_flight=4 @module=videohost
2026-11-29T09:00:01.000Z [DEBUG] provider.terraform-provider-videohost: videohost waiting for the rate limit: class=uploads reason="window full" wait_ms=300
2026-11-29T09:00:02.000Z [DEBUG] provider.terraform-provider-videohost: videohost waiting for the rate limit: class=uploads reason="429" wait_ms=900
2026-11-29T09:00:03.000Z [DEBUG] provider.terraform-provider-videohost: videohost waiting for the rate limit: class=uploads reason="window full" wait_ms=100
2026-11-29T09:00:04.000Z [DEBUG] provider.terraform-provider-videohost: videohost uploading a source: chunk_size_mib=12.5 chunks_in_flight=8 @module=videohost
`
	s, err := parseUploadLog(log)
	if err != nil {
		t.Fatal(err)
	}
	// The last upload's shape; the reasons counted and sorted.
	if s.inFlight != 8 || s.chunkMiB != "12.5" || s.held != `1 reason="429", 2 reason="window full"` {
		t.Errorf("shape %+v", s)
	}
	s, err = parseUploadLog("chunk_size_mib=50 chunks_in_flight=4\n")
	if err != nil || s.held != "none" {
		t.Errorf("nothing held: %+v, %v", s, err)
	}
	if _, err := parseUploadLog("no shape here\n"); err == nil {
		t.Error("a log without a shape line was read")
	}
}

func TestConfigurations(t *testing.T) {
	for _, tc := range []struct {
		setting   string
		want, not []string
	}{
		{"default", nil, []string{"upload_chunk_size_mib", "upload_chunks_in_flight"}},
		{"4", []string{"  upload_chunk_size_mib   = 50\n", "  upload_chunks_in_flight = 4\n"}, nil},
		{"8c", []string{"  upload_chunks_in_flight = 8\n"}, []string{"upload_chunk_size_mib"}},
	} {
		tf := videoConfig("/tmp/x/a.bin", 50, tc.setting, "bench-upload")
		for _, w := range append(tc.want, `source = "videohost/videohost"`, `source_file = "/tmp/x/a.bin"`, `title       = "bench-upload"`) {
			if !strings.Contains(tf, w) {
				t.Errorf("%s: %q lacks %q", tc.setting, tf, w)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(tf, n) {
				t.Errorf("%s: %q has %q", tc.setting, tf, n)
			}
		}
	}
	many := manyConfig("/tmp/x/media", 3, 50, "default")
	for _, w := range []string{"count       = 3", `source_file = "/tmp/x/media/many.${count.index}.bin"`, `title       = "bench-upload ${count.index}"`} {
		if !strings.Contains(many, w) {
			t.Errorf("many: %q lacks %q", many, w)
		}
	}
}
