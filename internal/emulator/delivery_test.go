package emulator_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"sort"
	"strings"
	"sync"
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

// broadcasts starts a broadcast on n new live streams, one after the other, and returns their
// ids in that order: each start is one live-stream.broadcast.started event.
func broadcasts(t *testing.T, emu *emulator.Emulator, n int) []string {
	t.Helper()
	var ids []string
	for i := range n {
		id, err := emu.CreateLiveStream(fmt.Sprintf("s%d", i))
		if err != nil {
			t.Fatal(err)
		}
		if err := emu.SetBroadcasting(id, true); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}

// TestDeliveriesInOrderPerWebhook: a webhook receives its events in the order they happened,
// even when one of them needs a retry: the later ones wait behind it, though workers are free.
func TestDeliveriesInOrderPerWebhook(t *testing.T) {
	e := newEnv(t, emulator.Options{DeliveryRetryDelay: 20 * time.Millisecond, DeliveryWorkers: 4})
	rc := newReceiver(t, 200, 200, 500)
	if _, err := e.emu.CreateWebhook(rc.srv.URL, []string{"live-stream.broadcast.started"}); err != nil {
		t.Fatal(err)
	}
	ids := broadcasts(t, e.emu, 12)
	e.waitDeliveries()
	var got []string
	for _, n := range rc.notifications() {
		got = append(got, fmt.Sprint(n.fields["liveStreamId"]))
	}
	if fmt.Sprint(got) != fmt.Sprint(ids) {
		t.Errorf("received in the order\n%v\nwant\n%v", got, ids)
	}
	if st := e.emu.DeliveryStats(); st.Offered != 12 || st.Delivered != 12 || st.Pending != 0 || st.Dropped != 0 {
		t.Errorf("stats %+v", st)
	}
}

// blockingReceiver answers 200 once release is closed, and counts the requests it holds at
// once.
type blockingReceiver struct {
	srv           *httptest.Server
	release       chan struct{}
	mu            sync.Mutex
	now, max, all int
}

func newBlockingReceiver(t *testing.T) *blockingReceiver {
	b := &blockingReceiver{release: make(chan struct{})}
	b.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		b.mu.Lock()
		b.now++
		b.all++
		b.max = max(b.max, b.now)
		b.mu.Unlock()
		<-b.release
		b.mu.Lock()
		b.now--
		b.mu.Unlock()
	}))
	t.Cleanup(b.srv.Close)
	return b
}

func (b *blockingReceiver) held() (now, most, all int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.now, b.max, b.all
}

// TestDeliveryWorkersAndQueueBound: with 3 workers, 10 webhooks on a receiver that holds every
// request see 3 requests at once, not 10; with a queue of 10, of 40 deliveries offered 30 are
// dropped, counted in DeliveryStats and the control API's statistics, and logged; once the
// receiver answers, delivered + dropped = offered.
func TestDeliveryWorkersAndQueueBound(t *testing.T) {
	var logged bytes.Buffer
	log.SetOutput(&logged)
	t.Cleanup(func() { log.SetOutput(os.Stderr) })
	e := newEnv(t, emulator.Options{DeliveryWorkers: 3, DeliveryQueue: 10, MaxWebhooks: 10})
	rc := newBlockingReceiver(t)
	for range 10 {
		if _, err := e.emu.CreateWebhook(rc.srv.URL, []string{"live-stream.broadcast.started"}); err != nil {
			t.Fatal(err)
		}
	}
	broadcasts(t, e.emu, 4)
	// The workers take 3 deliveries and hold them; the 7 others are queued, the rest dropped.
	for now, _, _ := rc.held(); now < 3 && t.Context().Err() == nil; now, _, _ = rc.held() {
		time.Sleep(time.Millisecond)
	}
	st := e.emu.DeliveryStats()
	if st.Offered != 40 || st.Dropped != 30 || st.Pending != 10 || st.Workers != 3 || st.Queue != 10 {
		t.Errorf("while the receiver holds its requests: %+v", st)
	}
	stats := e.ctl("GET", "/stats", nil)
	if d, _ := stats.body["deliveries"].(map[string]any); d["dropped"] != float64(30) || d["offered"] != float64(40) {
		t.Errorf("control API statistics: %s", stats.raw)
	}
	close(rc.release)
	e.waitDeliveries()
	st = e.emu.DeliveryStats()
	if st.Delivered+st.Dropped != st.Offered || st.Delivered != 10 || st.Failed != 0 {
		t.Errorf("after the receiver answered: %+v", st)
	}
	if _, most, all := rc.held(); most != 3 || all != 10 {
		t.Errorf("the receiver held %d requests at once (want 3, the workers) and got %d (want 10)", most, all)
	}
	_ = e.emu.Close()
	if !strings.Contains(logged.String(), "30 deliveries dropped") {
		t.Errorf("the drops were not logged: %q", logged.String())
	}
}
