package main

import (
	"maps"
	"testing"
)

func TestParseDelivery(t *testing.T) {
	for _, tc := range []struct {
		line string
		ok   bool
		want delivery
	}{
		{
			line: "delivery 3 /encoding webhook=webhook_A event=video.encoding.quality.completed encoding=hls quality=480p videoId=vi1: signature verified",
			ok:   true,
			want: delivery{path: "/encoding", webhook: "webhook_A", event: "video.encoding.quality.completed", verified: true, fields: map[string]string{
				"webhook": "webhook_A", "event": "video.encoding.quality.completed", "encoding": "hls", "quality": "480p", "videoId": "vi1",
			}},
		},
		{
			line: "delivery 4 /live webhook=webhook_B event=live-stream.broadcast.started liveStreamId=li1: SIGNATURE MISMATCH (unknown webhook)",
			ok:   true,
			want: delivery{path: "/live", webhook: "webhook_B", event: "live-stream.broadcast.started", fields: map[string]string{
				"webhook": "webhook_B", "event": "live-stream.broadcast.started", "liveStreamId": "li1",
			}},
		},
		{line: "http://127.0.0.1:4321"},
		{line: ""},
		{line: "delivery 5 /ai webhook=webhook_C body=not-json"},
	} {
		got, ok := parseDelivery(tc.line)
		if ok != tc.ok {
			t.Errorf("%q: ok = %v, want %v", tc.line, ok, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		if got.path != tc.want.path || got.webhook != tc.want.webhook || got.event != tc.want.event ||
			got.verified != tc.want.verified || !maps.Equal(got.fields, tc.want.fields) || got.line != tc.line {
			t.Errorf("%q: got %+v, want %+v", tc.line, got, tc.want)
		}
	}
}

// TestFilterLeavesItsInput: the deliveries read once are filtered several ways (those of a
// video, those verified), so filtering must not change what it is given.
func TestFilterLeavesItsInput(t *testing.T) {
	ds := []delivery{{line: "a", verified: false}, {line: "b", verified: true}, {line: "c", verified: false}}
	kept := filter(ds, func(dl delivery) bool { return dl.verified })
	if len(kept) != 1 || kept[0].line != "b" {
		t.Errorf("kept %+v", kept)
	}
	if got := lines(ds); len(got) != 3 || got[0] != "a" || got[1] != "b" || got[2] != "c" {
		t.Errorf("the input became %q", got)
	}
}
