package emulator_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// jwtParts decodes a JWT's header and claims without checking the signature.
func jwtParts(t *testing.T, token string) (map[string]any, map[string]any) {
	t.Helper()
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		t.Fatalf("access token has %d parts, want 3", len(parts))
	}
	dec := func(s string) map[string]any {
		b, err := base64.RawURLEncoding.DecodeString(s)
		if err != nil {
			t.Fatalf("token part is not base64url: %v", err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("token part is not JSON: %v", err)
		}
		return m
	}
	return dec(parts[0]), dec(parts[1])
}

func TestEnvironmentKeys(t *testing.T) {
	t.Run("generated key is usable", func(t *testing.T) {
		e := newEnv(t, emulator.Options{})
		if len(e.key) < 20 {
			t.Fatalf("generated key %q is short", e.key)
		}
		expectStatus(t, e.api("GET", "/webhooks", nil), http.StatusOK)
	})
	for _, tc := range []struct{ env, other string }{{"sandbox", "production"}, {"production", "sandbox"}} {
		t.Run(tc.env, func(t *testing.T) {
			e := newEnv(t, emulator.Options{Environment: tc.env, APIKeys: []string{"mine1", "mine2"}, OtherEnvironmentKeys: []string{"theirs"}})
			expectStatus(t, e.do("GET", "/webhooks", basic("mine2"), nil), http.StatusOK)
			r := e.do("GET", "/webhooks", basic("theirs"), nil)
			expectStatus(t, r, http.StatusUnauthorized)
			if !strings.Contains(r.str("title"), tc.other+" environment") || r.num("status") != 401 {
				t.Errorf("other-environment 401 does not name the environment: %s", r.raw)
			}
			r = e.do("POST", "/auth/api-key", "", map[string]any{"apiKey": "theirs"})
			expectStatus(t, r, http.StatusUnauthorized)
			if !strings.Contains(r.str("title"), tc.other) {
				t.Errorf("auth with other-environment key: %s", r.raw)
			}
			r = e.do("GET", "/webhooks", basic("nobody"), nil)
			expectStatus(t, r, http.StatusUnauthorized)
			if r.body == nil || r.num("status") != 401 || r.str("type") == "" {
				t.Errorf("unknown key 401 is not a JSON error: %s", r.raw)
			}
			rateHeaders(t, r)
		})
	}
	if _, err := emulator.New(emulator.Options{Environment: "staging"}); err == nil {
		t.Error("New accepted environment staging")
	}
}

func TestAuthTokens(t *testing.T) {
	e := newEnv(t, emulator.Options{TokenTTL: 90 * time.Second})
	r := e.tokens()
	if r.str("token_type") != "Bearer" || r.num("expires_in") != 90 || r.str("refresh_token") == "" {
		t.Fatalf("token response: %s", r.raw)
	}
	access := r.str("access_token")
	hdr, claims := jwtParts(t, access)
	if hdr["alg"] != "HS256" {
		t.Errorf("alg %v, want HS256", hdr["alg"])
	}
	exp, _ := claims["exp"].(float64)
	iat, _ := claims["iat"].(float64)
	if exp-iat != 90 || claims["jti"] == "" || claims["jti"] == nil {
		t.Errorf("claims exp-iat = %v, jti %v; want 90 and an id", exp-iat, claims["jti"])
	}
	if now := float64(time.Now().Unix()); exp < now+89 || exp > now+92 {
		t.Errorf("exp %v is not about now+90 (%v)", exp, now)
	}
	if strings.Contains(string(r.raw), e.key) {
		t.Error("the token response contains the API key")
	}

	// The access token works on every API endpoint, as does Basic.
	for _, p := range []string{"/webhooks", "/videos", "/live-streams"} {
		expectStatus(t, e.do("GET", p, "Bearer "+access, nil), http.StatusOK)
		expectStatus(t, e.do("GET", p, basic(e.key), nil), http.StatusOK)
	}
	wr := e.do("POST", "/webhooks", "Bearer "+access, map[string]any{"url": "https://x.test/h", "events": []string{"video.summary.generated"}})
	expectStatus(t, wr, http.StatusCreated)
	expectStatus(t, e.do("GET", "/webhooks/"+wr.str("webhookId"), "Bearer "+access, nil), http.StatusOK)
	expectStatus(t, e.do("DELETE", "/webhooks/"+wr.str("webhookId"), "Bearer "+access, nil), http.StatusNoContent)

	// A tampered token is refused.
	tampered := access[:len(access)-2] + "xx"
	expectStatus(t, e.do("GET", "/webhooks", "Bearer "+tampered, nil), http.StatusUnauthorized)
	// A raw key is not a bearer token.
	expectStatus(t, e.do("GET", "/webhooks", "Bearer "+e.key, nil), http.StatusUnauthorized)
	// Basic needs the empty password.
	expectStatus(t, e.do("GET", "/webhooks", "Basic "+base64.StdEncoding.EncodeToString([]byte(e.key+":pw")), nil), http.StatusUnauthorized)
	expectStatus(t, e.do("GET", "/webhooks", "", nil), http.StatusUnauthorized)
	expectStatus(t, e.do("GET", "/webhooks", "Digest abc", nil), http.StatusUnauthorized)

	// Refresh: a new pair; the old refresh token is single use.
	refresh := r.str("refresh_token")
	r2 := e.do("POST", "/auth/refresh", "", map[string]any{"refreshToken": refresh})
	expectStatus(t, r2, http.StatusOK)
	if r2.str("access_token") == access || r2.str("refresh_token") == refresh {
		t.Error("refresh returned the same tokens")
	}
	expectStatus(t, e.do("POST", "/auth/refresh", "", map[string]any{"refreshToken": refresh}), http.StatusUnauthorized)
	expectStatus(t, e.do("GET", "/webhooks", "Bearer "+r2.str("access_token"), nil), http.StatusOK)

	// Expiry follows the emulator's clock.
	e.emu.AdvanceClock(91 * time.Second)
	exp401 := e.do("GET", "/webhooks", "Bearer "+r2.str("access_token"), nil)
	expectStatus(t, exp401, http.StatusUnauthorized)
	if !strings.Contains(exp401.str("title"), "expired") {
		t.Errorf("expired token answer: %s", exp401.raw)
	}
	// The refresh token outlives the access token.
	expectStatus(t, e.do("POST", "/auth/refresh", "", map[string]any{"refreshToken": r2.str("refresh_token")}), http.StatusOK)
}

func TestAuthRevoke(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	r := e.tokens()
	expectStatus(t, e.do("GET", "/webhooks", "Bearer "+r.str("access_token"), nil), http.StatusOK)
	expectStatus(t, e.do("POST", "/_emulator/tokens/revoke", "", nil), http.StatusNoContent)
	expectStatus(t, e.do("GET", "/webhooks", "Bearer "+r.str("access_token"), nil), http.StatusUnauthorized)
	expectStatus(t, e.do("POST", "/auth/refresh", "", map[string]any{"refreshToken": r.str("refresh_token")}), http.StatusUnauthorized)
	// A new pair works after the revocation; Basic was never affected.
	r = e.tokens()
	expectStatus(t, e.do("GET", "/webhooks", "Bearer "+r.str("access_token"), nil), http.StatusOK)
	e.emu.RevokeTokens()
	expectStatus(t, e.do("GET", "/webhooks", "Bearer "+r.str("access_token"), nil), http.StatusUnauthorized)
	expectStatus(t, e.api("GET", "/webhooks", nil), http.StatusOK)
}

func TestBadCredentialsAreRateLimited(t *testing.T) {
	e := newEnv(t, emulator.Options{Limits: emulator.Limits{Reads: 2}})
	for i := range 2 {
		r := e.do("GET", "/webhooks", basic("wrong"), nil)
		expectStatus(t, r, http.StatusUnauthorized)
		if l, rem, _ := rateHeaders(t, r); l != 2 || rem != 1-i {
			t.Errorf("401 number %d: limit %d remaining %d", i, l, rem)
		}
	}
	expectStatus(t, e.do("GET", "/webhooks", "", nil), http.StatusTooManyRequests)
	// The key's own bucket is untouched.
	r := e.api("GET", "/webhooks", nil)
	expectStatus(t, r, http.StatusOK)
	if _, rem, _ := rateHeaders(t, r); rem != 1 {
		t.Errorf("key bucket remaining %d after anonymous requests, want 1", rem)
	}
}

func TestAuthEndpointErrors(t *testing.T) {
	e := newEnv(t, emulator.Options{Limits: emulator.Limits{Reads: 1, Writes: 1}})
	for _, tc := range []struct {
		name, method, path string
		body               any
		status             int
		title              string
	}{
		{name: "get is 405", method: "GET", path: "/auth/api-key", status: 405, title: "Method is not allowed for this route."},
		{name: "no body", method: "POST", path: "/auth/api-key", status: 400, title: "The payload is invalid."},
		{name: "not json", method: "POST", path: "/auth/refresh", body: "{", status: 400, title: "The payload is invalid."},
		{name: "missing apiKey", method: "POST", path: "/auth/api-key", body: map[string]any{}, status: 400, title: "This attribute is required."},
		{name: "apiKey not a string", method: "POST", path: "/auth/api-key", body: map[string]any{"apiKey": 3}, status: 400, title: "This attribute must be a string."},
		{name: "unknown key", method: "POST", path: "/auth/api-key", body: map[string]any{"apiKey": "nope"}, status: 401},
		{name: "unknown refresh token", method: "POST", path: "/auth/refresh", body: map[string]any{"refreshToken": "nope"}, status: 401},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do(tc.method, tc.path, "", tc.body)
			expectStatus(t, r, tc.status)
			if tc.title != "" && r.str("title") != tc.title {
				t.Errorf("title %q, want %q", r.str("title"), tc.title)
			}
			if r.header.Get("X-RateLimit-Limit") != "" {
				t.Error("auth endpoints carry rate-limit headers")
			}
		})
	}
	// Auth endpoints are not rate limited: many calls with limits of 1.
	for range 5 {
		e.tokens()
	}
}
