package main

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sign is computed here, not with videohost.Sign, so that the test checks the receiver against
// the specification (lowercase hex HMAC-SHA256 of the body) rather than against itself.
func sign(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

func TestReceiverVerifiesDeliveries(t *testing.T) {
	const secret = "sig-secret-do-not-print"
	ring := filepath.Join(t.TempDir(), "secrets.json")
	if err := os.WriteFile(ring, []byte(`{"webhook_a":"`+secret+`"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	rc := newReceiver(fileKeyRing(ring), &out)
	body := []byte(`{"type":"video.caption.generated","emittedAt":"2026-01-01T00:00:00Z","videoId":"vi1","captionId":"ca1","language":"en"}`)

	cases := []struct {
		name      string
		webhookID string
		signature string
		status    int
		verdict   string
	}{
		{"good signature", "webhook_a", sign(secret, body), http.StatusNoContent, "signature verified"},
		{"upper-case hex", "webhook_a", strings.ToUpper(sign(secret, body)), http.StatusNoContent, "signature verified"},
		{"signed with another secret", "webhook_a", sign("other", body), http.StatusUnauthorized, "SIGNATURE MISMATCH"},
		{"no signature", "webhook_a", "", http.StatusUnauthorized, "SIGNATURE MISMATCH"},
		{"unknown webhook", "webhook_b", sign(secret, body), http.StatusUnauthorized, "SIGNATURE MISMATCH (unknown webhook)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out.Reset()
			req := httptest.NewRequest(http.MethodPost, "/ai", bytes.NewReader(body))
			req.Header.Set(headerWebhookID, tc.webhookID)
			req.Header.Set(headerSignature, tc.signature)
			rec := httptest.NewRecorder()
			rc.ServeHTTP(rec, req)

			if rec.Code != tc.status {
				t.Errorf("status = %d, want %d", rec.Code, tc.status)
			}
			line := out.String()
			if !strings.HasSuffix(line, ": "+tc.verdict+"\n") {
				t.Errorf("log line %q does not end with verdict %q", line, tc.verdict)
			}
			for _, want := range []string{"webhook=" + tc.webhookID, "event=video.caption.generated", "captionId=ca1", "videoId=vi1", "/ai"} {
				if !strings.Contains(line, want) {
					t.Errorf("log line %q lacks %q", line, want)
				}
			}
			if strings.Contains(line, secret) {
				t.Errorf("log line %q holds the signature secret", line)
			}
		})
	}
}

func TestReceiverReadsKeyRingOnEveryDelivery(t *testing.T) {
	dir := t.TempDir()
	managed := filepath.Join(dir, "managed.json")
	if err := os.WriteFile(managed, []byte(`{"webhook_a":"a-secret"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	ring := filepath.Join(dir, "imported.json")
	var out bytes.Buffer
	rc := newReceiver(fileKeyRing(managed, ring), &out)
	body := []byte(`{"type":"live-stream.broadcast.started","liveStreamId":"li1"}`)

	deliver := func() int {
		req := httptest.NewRequest(http.MethodPost, "/live", bytes.NewReader(body))
		req.Header.Set(headerWebhookID, "webhook_late")
		req.Header.Set(headerSignature, sign("late-secret", body))
		rec := httptest.NewRecorder()
		rc.ServeHTTP(rec, req)
		return rec.Code
	}

	if got := deliver(); got != http.StatusUnauthorized {
		t.Fatalf("before the key ring exists: status = %d, want %d", got, http.StatusUnauthorized)
	}
	if err := os.WriteFile(ring, []byte(`{"webhook_late":"late-secret"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := deliver(); got != http.StatusNoContent {
		t.Fatalf("after the key ring was written: status = %d, want %d; log:\n%s", got, http.StatusNoContent, out.String())
	}
}

func TestReceiverRefusesBrokenKeyRingWithoutLeakingIt(t *testing.T) {
	ring := filepath.Join(t.TempDir(), "secrets.json")
	if err := os.WriteFile(ring, []byte(`["secret-in-a-list"]`), 0o600); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	rc := newReceiver(fileKeyRing(ring), &out)
	req := httptest.NewRequest(http.MethodPost, "/x", strings.NewReader(`{"type":"video.summary.generated"}`))
	req.Header.Set(headerWebhookID, "webhook_a")
	rec := httptest.NewRecorder()
	rc.ServeHTTP(rec, req)

	if rec.Code != http.StatusInternalServerError {
		t.Errorf("status = %d, want %d", rec.Code, http.StatusInternalServerError)
	}
	if !strings.Contains(out.String(), "SIGNATURE NOT CHECKED") {
		t.Errorf("log %q does not say the signature was not checked", out.String())
	}
	if strings.Contains(out.String(), "secret-in-a-list") {
		t.Errorf("log %q holds the key ring's content", out.String())
	}
}

func TestReceiverRefusesOtherMethods(t *testing.T) {
	rc := newReceiver(fileKeyRing(), &bytes.Buffer{})
	rec := httptest.NewRecorder()
	rc.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("GET: status = %d, want %d", rec.Code, http.StatusMethodNotAllowed)
	}
}
