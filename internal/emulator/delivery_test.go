package emulator_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// hexHMAC is the test's own signature computation.
func hexHMAC(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

func TestDeliveriesSignedAndComplete(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	rc := newReceiver(t)
	other := newReceiver(t)
	hook := e.ctl("POST", "/webhooks", map[string]any{"url": rc.srv.URL + "/in", "events": []string{
		"video.encoding.quality.completed", "live-stream.broadcast.started", "live-stream.broadcast.ended",
		"video.source.recorded", "video.caption.generated", "video.summary.generated"}})
	expectStatus(t, hook, http.StatusCreated)
	secret := hook.str("signatureSecret")
	if secret == "" {
		t.Fatalf("control create lacks the secret: %s", hook.raw)
	}
	// A webhook for summaries only must get just the summary.
	e.ctl("POST", "/webhooks", map[string]any{"url": other.srv.URL, "events": []string{"video.summary.generated"}})

	v := e.ctl("POST", "/videos", map[string]any{"title": "Demo", "duration": 12.5, "tags": []string{"a"}, "metadata": map[string]string{"k": "v"}})
	expectStatus(t, v, http.StatusCreated)
	videoID := v.str("videoId")
	ls := e.ctl("POST", "/live-streams", map[string]any{"name": "Show"})
	expectStatus(t, ls, http.StatusCreated)
	lsID := ls.str("liveStreamId")
	if b := e.ctl("POST", "/live-streams/"+lsID+"/broadcast/start", nil); b.body["broadcasting"] != true {
		t.Errorf("after start: %s", b.raw)
	}
	if g := e.api("GET", "/live-streams/"+lsID, nil); g.body["broadcasting"] != true {
		t.Errorf("service view after start: %s", g.raw)
	}
	if b := e.ctl("POST", "/live-streams/"+lsID+"/broadcast/end", nil); b.body["broadcasting"] != false {
		t.Errorf("after end: %s", b.raw)
	}
	rec := e.ctl("POST", "/live-streams/"+lsID+"/record", map[string]any{"duration": 20})
	expectStatus(t, rec, http.StatusCreated)
	recID := rec.str("videoId")
	got := e.api("GET", "/videos?liveStreamId="+lsID, nil)
	if fmt.Sprint(ids(got, "videoId")) != "["+recID+"]" {
		t.Errorf("recording not listed by liveStreamId: %s", got.raw)
	}
	capt := e.ctl("POST", "/videos/"+videoID+"/captions", map[string]any{"language": "fr-CA"})
	expectStatus(t, capt, http.StatusCreated)
	sum := e.ctl("POST", "/videos/"+videoID+"/summary", nil)
	expectStatus(t, sum, http.StatusCreated)
	e.waitDeliveries()

	ns := rc.notifications()
	var kinds []string
	for _, n := range ns {
		if n.webhookID != hook.str("webhookId") || n.contentType != "application/json" {
			t.Errorf("headers: %+v", n)
		}
		if want := hexHMAC(secret, n.body); n.signature != want {
			t.Errorf("signature %q, want %q", n.signature, want)
		}
		if _, err := time.Parse(time.RFC3339, fmt.Sprint(n.fields["emittedAt"])); err != nil {
			t.Errorf("emittedAt %v", n.fields["emittedAt"])
		}
		typ := fmt.Sprint(n.fields["type"])
		switch typ {
		case "video.encoding.quality.completed":
			kinds = append(kinds, fmt.Sprint(typ, " ", n.fields["encoding"], " ", n.fields["quality"]))
			if n.fields["videoId"] != videoID {
				t.Errorf("quality event %v", n.fields)
			}
		case "live-stream.broadcast.started", "live-stream.broadcast.ended":
			kinds = append(kinds, typ)
			if n.fields["liveStreamId"] != lsID {
				t.Errorf("%s: %v", typ, n.fields)
			}
		case "video.source.recorded":
			kinds = append(kinds, typ)
			if n.fields["liveStreamId"] != lsID || n.fields["videoId"] != recID {
				t.Errorf("%s: %v", typ, n.fields)
			}
		case "video.caption.generated":
			kinds = append(kinds, typ)
			if n.fields["videoId"] != videoID || n.fields["generationMode"] != "transcript" || n.fields["language"] != "fr-CA" ||
				n.fields["captionId"] != capt.str("captionId") {
				t.Errorf("%s: %v", typ, n.fields)
			}
		case "video.summary.generated":
			kinds = append(kinds, typ)
			if n.fields["videoId"] != videoID || n.fields["summaryId"] != sum.str("summaryId") || n.fields["summaryId"] == "" {
				t.Errorf("%s: %v", typ, n.fields)
			}
		default:
			t.Errorf("unexpected event %s", typ)
		}
	}
	sort.Strings(kinds)
	var want []string
	for _, q := range []string{"1080p", "240p", "360p", "480p", "720p"} {
		for _, enc := range []string{"hls", "mp4"} {
			want = append(want, "video.encoding.quality.completed "+enc+" "+q)
		}
	}
	want = append(want, "live-stream.broadcast.ended", "live-stream.broadcast.started", "video.caption.generated", "video.source.recorded", "video.summary.generated")
	sort.Strings(want)
	if fmt.Sprint(kinds) != fmt.Sprint(want) {
		t.Errorf("events\n%v\nwant\n%v", kinds, want)
	}
	if n := other.notifications(); len(n) != 1 || n[0].fields["type"] != "video.summary.generated" {
		t.Errorf("summary-only webhook got %d notifications", len(n))
	}

	// The control API lists every delivery and its outcome.
	d := e.ctl("GET", "/deliveries", nil)
	expectStatus(t, d, http.StatusOK)
	if len(d.list) != 16 {
		t.Fatalf("%d deliveries listed, want 16", len(d.list))
	}
	for _, it := range d.list {
		m, _ := it.(map[string]any)
		if m["delivered"] != true || m["attempts"] != float64(1) || m["lastStatus"] != float64(200) || m["pending"] != false ||
			m["webhookId"] == "" || m["url"] == "" || m["body"] == "" || m["type"] == "" {
			t.Errorf("delivery %v", m)
		}
	}
}

func TestDeliveryRetries(t *testing.T) {
	e := newEnv(t, emulator.Options{DeliveryRetryDelay: 20 * time.Millisecond})
	rc := newReceiver(t, 500, 503, 200)
	wh, err := e.emu.CreateWebhook(rc.srv.URL, []string{"video.summary.generated"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.emu.UploadVideo(emulator.VideoInput{Title: "x"}); err != nil {
		t.Fatal(err)
	}
	vid := e.api("GET", "/videos", nil).data()[0]["videoId"]
	start := time.Now()
	if _, err := e.emu.GenerateSummary(fmt.Sprint(vid)); err != nil {
		t.Fatal(err)
	}
	e.waitDeliveries()
	if el := time.Since(start); el < 40*time.Millisecond {
		t.Errorf("two retries took %v, less than two delays", el)
	}
	ds := e.emu.Deliveries()
	if len(ds) != 1 || !ds[0].Delivered || ds[0].Attempts != 3 || ds[0].LastStatus != 200 || ds[0].WebhookID != wh.WebhookID {
		t.Errorf("deliveries %+v", ds)
	}
	if n := rc.notifications(); len(n) != 1 || n[0].signature != hexHMAC(wh.SignatureSecret, n[0].body) {
		t.Errorf("notifications %+v", n)
	}
}

func TestDeliveryGivesUp(t *testing.T) {
	e := newEnv(t, emulator.Options{DeliveryRetries: 2, DeliveryRetryDelay: time.Millisecond, DeliveryTimeout: 100 * time.Millisecond})
	failing := newReceiver(t, 500, 500, 500, 500)
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Reading the body lets the server notice the client hanging up.
		_, _ = io.Copy(io.Discard, r.Body)
		select {
		case <-r.Context().Done():
		case <-time.After(2 * time.Second):
		}
	}))
	defer slow.Close()
	redirect := httptest.NewServer(http.RedirectHandler("http://127.0.0.1:1/", http.StatusFound))
	defer redirect.Close()
	for _, u := range []string{failing.srv.URL, slow.URL, redirect.URL} {
		if _, err := e.emu.CreateWebhook(u, []string{"live-stream.broadcast.started"}); err != nil {
			t.Fatal(err)
		}
	}
	id, err := e.emu.CreateLiveStream("x")
	if err != nil {
		t.Fatal(err)
	}
	if err := e.emu.SetBroadcasting(id, true); err != nil {
		t.Fatal(err)
	}
	e.waitDeliveries()
	ds := e.emu.Deliveries()
	if len(ds) != 3 {
		t.Fatalf("%d deliveries", len(ds))
	}
	byURL := map[string]emulator.Delivery{}
	for _, d := range ds {
		byURL[d.URL] = d
	}
	if d := byURL[failing.srv.URL]; d.Delivered || d.Attempts != 3 || d.LastStatus != 500 || d.Error == "" {
		t.Errorf("failing receiver: %+v", d)
	}
	if d := byURL[slow.URL]; d.Delivered || d.Attempts != 3 || d.LastStatus != 0 || d.Error == "" {
		t.Errorf("slow receiver: %+v", d)
	}
	if d := byURL[redirect.URL]; d.Delivered || d.LastStatus != http.StatusFound {
		t.Errorf("redirecting receiver: %+v", d)
	}
}

func TestCloseCancelsPendingDeliveries(t *testing.T) {
	emu, err := emulator.New(emulator.Options{DeliveryRetryDelay: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	rc := newReceiver(t, 500)
	if _, err := emu.CreateWebhook(rc.srv.URL, []string{"live-stream.broadcast.started"}); err != nil {
		t.Fatal(err)
	}
	id, _ := emu.CreateLiveStream("x")
	if err := emu.SetBroadcasting(id, true); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- emu.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not return while a retry was pending")
	}
	if ds := emu.Deliveries(); len(ds) != 1 || ds[0].Pending || ds[0].Delivered {
		t.Errorf("after Close: %+v", ds)
	}
}
