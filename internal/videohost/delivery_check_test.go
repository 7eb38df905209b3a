package videohost

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/events"
)

func TestSampleEvent(t *testing.T) {
	now := time.Date(2026, 11, 26, 10, 37, 6, 0, time.FixedZone("CET", 3600))
	for _, name := range events.Names() {
		raw, err := SampleEvent(name, now)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var body map[string]string
		if err := json.Unmarshal(raw, &body); err != nil {
			t.Fatalf("%s: the body is not an object of strings: %v", name, err)
		}
		if body["type"] != name || body["emittedAt"] != "2026-11-26T09:37:06+00:00" || len(body) < 3 {
			t.Errorf("%s: body %s", name, raw)
		}
	}
	if _, err := SampleEvent("video.unknown", now); err == nil {
		t.Error("a sample of an unknown event")
	}
}

// receivedDelivery is what a test receiver got.
type receivedDelivery struct {
	header http.Header
	body   []byte
}

func TestSendDelivery(t *testing.T) {
	const secret = "sig-secret-1"
	var got []receivedDelivery
	verifying := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got = append(got, receivedDelivery{r.Header.Clone(), body})
		if r.Method != http.MethodPost || !Verify(secret, body, r.Header.Get(HeaderSignature)) {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer verifying.Close()
	c := &Client{userAgent: "terraform-provider-videohost/test"}
	body, err := SampleEvent(events.LiveStreamBroadcastEnded, time.Now())
	if err != nil {
		t.Fatal(err)
	}

	a, err := c.SendDelivery(t.Context(), verifying.URL+"/hooks", "webhook_1", Sign(secret, body), body, 0)
	if err != nil || !a.Accepted || a.Status != http.StatusNoContent {
		t.Fatalf("signed delivery: %+v, %v; want accepted with 204", a, err)
	}
	h := got[0].header
	if h.Get(HeaderWebhookID) != "webhook_1" || h.Get("Content-Type") != "application/json" || string(got[0].body) != string(body) {
		t.Errorf("the receiver got headers %v and body %s", h, got[0].body)
	}
	if h.Get(HeaderSignature) != Sign(secret, body) {
		t.Errorf("signature %q, want the lowercase hex HMAC-SHA256 of the body", h.Get(HeaderSignature))
	}

	forged := ForgedSignature(body)
	if len(forged) != 64 || forged == Sign(secret, body) || Verify(secret, body, forged) {
		t.Errorf("forged signature %q is not a 64-digit signature that fails to verify", forged)
	}
	a, err = c.SendDelivery(t.Context(), verifying.URL+"/hooks", "webhook_1", forged, body, 0)
	if err != nil || a.Accepted || a.Status != http.StatusUnauthorized {
		t.Errorf("forged delivery: %+v, %v; want refused with 401", a, err)
	}

	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
	}))
	defer failing.Close()
	if a, err := c.SendDelivery(t.Context(), failing.URL, "webhook_1", Sign(secret, body), body, 0); err != nil || a.Accepted || a.Status != 500 {
		t.Errorf("a receiver that answers 500: %+v, %v", a, err)
	}

	redirecting := httptest.NewServer(http.RedirectHandler(verifying.URL, http.StatusFound))
	defer redirecting.Close()
	before := len(got)
	if a, err := c.SendDelivery(t.Context(), redirecting.URL, "webhook_1", Sign(secret, body), body, 0); err != nil || a.Accepted || a.Status != http.StatusFound {
		t.Errorf("a redirect: %+v, %v; want it as the answer, not followed", a, err)
	}
	if len(got) != before {
		t.Error("the redirect was followed")
	}

	release := make(chan struct{})
	silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer silent.Close()
	defer close(release)
	if _, err := c.SendDelivery(t.Context(), silent.URL, "webhook_1", Sign(secret, body), body, 20*time.Millisecond); !errors.Is(err, ErrNoAnswer) {
		t.Errorf("a receiver that does not answer: %v, want ErrNoAnswer", err)
	}

	if _, err := c.SendDelivery(t.Context(), "http://127.0.0.1:1/hooks", "webhook_1", "x", body, 0); err == nil || errors.Is(err, ErrNoAnswer) {
		t.Errorf("an unreachable receiver: %v, want a connection error", err)
	}
}
