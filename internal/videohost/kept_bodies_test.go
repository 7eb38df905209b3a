package videohost

import (
	"testing"
	"time"
)

func TestParseKeptBodies(t *testing.T) {
	w, err := ParseWebhook([]byte(`{"webhookId":"webhook_1","createdAt":"2026-11-26T10:37:06+00:00","events":["video.encoding.quality.completed"],"url":"https://example.com/hook","extra":1}` + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if w.ID != "webhook_1" || w.URL != "https://example.com/hook" || len(w.Events) != 1 || !w.CreatedAt.Equal(time.Date(2026, 11, 26, 10, 37, 6, 0, time.UTC)) || w.SignatureSecret != "" {
		t.Errorf("ParseWebhook = %+v", w)
	}
	w, err = ParseWebhook([]byte(`{"webhookId":"webhook_2","signatureSecret":"s3cr3t"}`))
	if err != nil || w.SignatureSecret != "s3cr3t" {
		t.Errorf("ParseWebhook with a secret = %+v, %v", w, err)
	}
	ls, err := ParseLiveStream([]byte(`{"liveStreamId":"li1","name":"studio","streamKey":"k","public":false,"restreams":[{"name":"YouTube","serverUrl":"rtmp://a/b","streamKey":"rk"}]}`))
	if err != nil || ls.ID != "li1" || ls.StreamKey != "k" || len(ls.Restreams) != 1 || ls.Restreams[0].StreamKey != "rk" {
		t.Errorf("ParseLiveStream = %+v, %v", ls, err)
	}
	p, err := ParsePlayerTheme([]byte(`{"playerId":"pt1","name":"brand","text":"rgba(1, 2, 3, 1)","enableApi":true}`))
	if err != nil || p.ID != "pt1" || p.Text != "rgba(1, 2, 3, 1)" {
		t.Errorf("ParsePlayerTheme = %+v, %v", p, err)
	}
	for _, bad := range []string{``, `null`, `[]`, `"x"`, `{"webhookId":`, `{"createdAt":"yesterday"}`, `{"events":"x"}`} {
		if _, err := ParseWebhook([]byte(bad)); err == nil {
			t.Errorf("ParseWebhook(%q) succeeded", bad)
		}
	}
}
