package videohost

import (
	"strings"
	"testing"
)

// The expected values were computed with openssl, independently of this package; each vector
// carries its command.
var signatureVectors = []struct {
	secret, body, want string
}{
	// printf '%s' '{"type":"video.encoding.quality.completed","emittedAt":"2024-08-08T14:12:18+00:00","videoId":"vi4blUQJFrYWbaG44NChkH27","encoding":"hls","quality":"720p"}' | openssl dgst -sha256 -hmac 'sig-secret-7Hq2'
	{"sig-secret-7Hq2",
		`{"type":"video.encoding.quality.completed","emittedAt":"2024-08-08T14:12:18+00:00","videoId":"vi4blUQJFrYWbaG44NChkH27","encoding":"hls","quality":"720p"}`,
		"a9e7279e558ae8f48358329ee194e66b405abc081a59559d24c125bb62e420d2"},
	// printf '' | openssl dgst -sha256 -hmac 'k'
	{"k", "", "8bb990c40a7d61cb97597a942125025be50ac8beb74436e3735b98893a7f6620"},
	// printf '%s' 'The quick brown fox jumps over the lazy dog' | openssl dgst -sha256 -hmac 'key'
	{"key", "The quick brown fox jumps over the lazy dog",
		"f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8"},
	// printf '%s' '{"type":"live-stream.broadcast.started","emittedAt":"2024-08-08T14:12:18Z","liveStreamId":"li400mYKSgQ6xs7taUeSaEKr"}' | openssl dgst -sha256 -hmac 'wh-secret-ü'
	{"wh-secret-ü",
		`{"type":"live-stream.broadcast.started","emittedAt":"2024-08-08T14:12:18Z","liveStreamId":"li400mYKSgQ6xs7taUeSaEKr"}`,
		"ff11bcca9e43bc056fa96810bdb047a223fb1c50937690a1ec4d85a27cc7a4ba"},
}

func TestSign(t *testing.T) {
	for _, v := range signatureVectors {
		if got := Sign(v.secret, []byte(v.body)); got != v.want {
			t.Errorf("Sign(%q, %.20q…) = %s, want %s", v.secret, v.body, got, v.want)
		}
	}
}

func TestVerify(t *testing.T) {
	v := signatureVectors[0]
	tests := []struct {
		name           string
		secret, header string
		body           string
		want           bool
	}{
		{"lowercase", v.secret, v.want, v.body, true},
		{"uppercase", v.secret, strings.ToUpper(v.want), v.body, true},
		{"surrounding space", v.secret, " " + v.want + "\n", v.body, true},
		{"other body", v.secret, v.want, v.body + " ", false},
		{"other secret", v.secret + "x", v.want, v.body, false},
		{"empty secret", "", Sign("", []byte(v.body)), v.body, false},
		{"empty header", v.secret, "", v.body, false},
		{"not hex", v.secret, strings.Repeat("zz", 32), v.body, false},
		{"short", v.secret, v.want[:62], v.body, false},
		{"long", v.secret, v.want + "00", v.body, false},
		{"prefixed", v.secret, "sha256=" + v.want, v.body, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Verify(tt.secret, []byte(tt.body), tt.header); got != tt.want {
				t.Fatalf("Verify = %v, want %v", got, tt.want)
			}
		})
	}
	for _, vec := range signatureVectors {
		if !Verify(vec.secret, []byte(vec.body), vec.want) {
			t.Errorf("vector %q does not verify", vec.secret)
		}
	}
}
