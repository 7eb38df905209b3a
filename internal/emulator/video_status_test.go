package emulator_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"slices"
	"testing"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// TestEncodingAdvancesAndNotifies: once the source is complete, ingest goes uploaded, ingesting,
// ingested (the language detected as the setting says), each quality waiting, encoding,
// encoded, playable with the first, and one signed event per quality reaches the webhook.
func TestEncodingAdvancesAndNotifies(t *testing.T) {
	ingest, encode := fastLimits()
	e := newEnv(t, emulator.Options{IngestDelay: ingest, EncodingDelay: encode, DetectedLanguage: "fr"})
	rc := newReceiver(t)
	hook := e.createWebhook(rc.srv.URL, "video.encoding.quality.completed")
	secret := hook.str("signatureSecret")
	if secret == "" {
		secret = e.emu.Webhooks()[0].SignatureSecret
	}
	id := e.createVideo(map[string]any{"title": "enc"})
	noMP4 := e.createVideo(map[string]any{"title": "hls only", "mp4Support": false, "language": "de"})
	seen := map[string]bool{}
	expectStatus(t, e.upload(id, "", fileParts(randomBytes(9, 100))), http.StatusCreated)
	expectStatus(t, e.upload(noMP4, "", fileParts(randomBytes(10, 100))), http.StatusCreated)
	done := e.waitStatus(id, func(s response) bool {
		seen[ingestStatus(s)] = true
		for _, q := range qualities(s) {
			seen[q["status"].(string)] = true //nolint:forcetypeassert // A missing status fails the test below.
		}
		qs := qualities(s)
		return len(qs) == 8 && !slices.ContainsFunc(qs, func(q map[string]any) bool { return q["status"] != "encoded" })
	})
	if member(done.body["encoding"], "playable") != true || ingestStatus(done) != "ingested" {
		t.Errorf("final status: %s", done.raw)
	}
	for _, st := range []string{"ingested", "encoded"} {
		if !seen[st] {
			t.Errorf("the status never showed %s", st)
		}
	}
	v := e.api("GET", "/videos/"+id, nil)
	if v.str("language") != "fr" || v.str("languageOrigin") != "auto" {
		t.Errorf("detected language: %s", v.raw)
	}
	other := e.waitStatus(noMP4, func(s response) bool {
		qs := qualities(s)
		return len(qs) > 0 && !slices.ContainsFunc(qs, func(q map[string]any) bool { return q["status"] != "encoded" })
	})
	if n := len(qualities(other)); n != 4 {
		t.Errorf("without mp4Support %d qualities: %s", n, other.raw)
	}
	if v := e.api("GET", "/videos/"+noMP4, nil); v.str("language") != "de" || v.str("languageOrigin") != "api" {
		t.Errorf("a given language was replaced: %s", v.raw)
	}
	e.waitDeliveries()
	got := map[string]int{}
	for _, n := range rc.notifications() {
		m := hmac.New(sha256.New, []byte(secret))
		m.Write(n.body)
		if n.signature != hex.EncodeToString(m.Sum(nil)) {
			t.Errorf("unsigned event %s", n.body)
		}
		if n.fields["type"] == "video.encoding.quality.completed" {
			got[n.fields["videoId"].(string)+" "+n.fields["encoding"].(string)+" "+n.fields["quality"].(string)]++ //nolint:forcetypeassert // The event's fields are strings.
		}
	}
	if len(got) != 12 {
		t.Errorf("%d distinct events, want 12 (8 + 4): %v", len(got), got)
	}
	for k, c := range got {
		if c != 1 {
			t.Errorf("event %s sent %d times", k, c)
		}
	}
	if got[id+" hls 1080p"] != 1 || got[id+" mp4 360p"] != 1 || got[noMP4+" hls 720p"] != 1 {
		t.Errorf("events %v", got)
	}
}
