package provider_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"
	"github.com/videohost/terraform-provider-videohost/internal/provider"
)

func TestTFLogLoggerMasksSecrets(t *testing.T) {
	const key = "sk-live-0123456789abcdef"
	const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ3cyJ9.c2lnbmF0dXJl"
	var buf bytes.Buffer
	ctx := tflogtest.RootLogger(t.Context(), &buf)
	l := provider.NewTFLogLogger(key)

	l.Debug(ctx, "request sent with "+key, map[string]any{
		"method":           "GET",
		"path":             "/webhooks",
		"status":           200,
		"attempt":          1,
		"authorization":    "Basic c2stbGl2ZQ==",
		"signature_secret": "whsec_abc",
		"note":             "key " + key + " and token " + jwt,
	})
	l.Info(ctx, "waiting for the rate limit", map[string]any{"class": "writes", "wait": "2s"})
	l.Warn(ctx, "token refresh refused: "+jwt, nil)

	out := buf.String()
	for _, secret := range []string{key, jwt, "c2stbGl2ZQ==", "whsec_abc"} {
		if strings.Contains(out, secret) {
			t.Errorf("log output holds the secret %q:\n%s", secret, out)
		}
	}

	lines, err := tflogtest.MultilineJSONDecode(&buf)
	if err != nil {
		t.Fatalf("decoding the log: %v", err)
	}
	if len(lines) != 3 {
		t.Fatalf("got %d log lines, want 3:\n%s", len(lines), out)
	}
	wantLevels := []string{"debug", "info", "warn"}
	for i, line := range lines {
		if line["@level"] != wantLevels[i] {
			t.Errorf("line %d: level %v, want %s", i, line["@level"], wantLevels[i])
		}
	}
	first := lines[0]
	for k, want := range map[string]any{"method": "GET", "path": "/webhooks", "status": float64(200), "attempt": float64(1)} {
		if first[k] != want {
			t.Errorf("field %s = %v, want %v (fields that are not secret stay readable)", k, first[k], want)
		}
	}
	if first["authorization"] != "***" || first["signature_secret"] != "***" {
		t.Errorf("secret fields not masked: authorization=%v signature_secret=%v", first["authorization"], first["signature_secret"])
	}
	if msg, _ := first["@message"].(string); !strings.Contains(msg, "***") || !strings.Contains(msg, "request sent with") {
		t.Errorf("the key in the message was not replaced by ***: %v", first["@message"])
	}
	if lines[1]["class"] != "writes" {
		t.Errorf("info line lost its fields: %v", lines[1])
	}
}

func TestTFLogLoggerWithoutKey(t *testing.T) {
	var buf bytes.Buffer
	ctx := tflogtest.RootLogger(t.Context(), &buf)
	provider.NewTFLogLogger("").Debug(ctx, "request", map[string]any{"path": "/videos"})
	lines, err := tflogtest.MultilineJSONDecode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 1 || lines[0]["path"] != "/videos" {
		t.Fatalf("an empty key must not mask everything: %v", lines)
	}
}
