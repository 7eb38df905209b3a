package webhook_test

// Tests of the provider function verify_webhook_signature alone
// (webhook_signature_function_test.go tests the two together in Terraform).

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/videohost/terraform-provider-videohost/internal/provider/webhook"
)

func TestVerifyWebhookSignatureFunction(t *testing.T) {
	v := signatureVectors[0]
	cases := []struct {
		name                    string
		secret, body, signature string
		want                    bool
	}{
		{name: "lower-case signature", secret: v.secret, body: v.body, signature: v.signature, want: true},
		{name: "upper-case signature", secret: v.secret, body: v.body, signature: strings.ToUpper(v.signature), want: true},
		{name: "other vector", secret: signatureVectors[2].secret, body: signatureVectors[2].body, signature: signatureVectors[2].signature, want: true},
		{name: "last digit changed", secret: v.secret, body: v.body, signature: v.signature[:63] + "0", want: false},
		{name: "body changed by one byte", secret: v.secret, body: v.body + " ", signature: v.signature, want: false},
		{name: "other secret", secret: "sig_secret_0123456789abcdeF", body: v.body, signature: v.signature, want: false},
		{name: "signature of another body", secret: v.secret, body: v.body, signature: signatureVectors[1].signature, want: false},
		{name: "truncated signature", secret: v.secret, body: v.body, signature: v.signature[:32], want: false},
		{name: "not hexadecimal", secret: v.secret, body: v.body, signature: strings.Repeat("z", 64), want: false},
		{name: "empty signature", secret: v.secret, body: v.body, signature: "", want: false},
		{name: "empty secret", secret: "", body: v.body, signature: v.signature, want: false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp := runFunction(t, webhook.NewVerifyWebhookSignatureFunction(), types.BoolUnknown(), c.secret, c.body, c.signature)
			if resp.Error != nil {
				t.Fatalf("unexpected error: %s", resp.Error)
			}
			got, ok := resp.Result.Value().(types.Bool)
			if !ok {
				t.Fatalf("result is %T, want types.Bool", resp.Result.Value())
			}
			if got.ValueBool() != c.want {
				t.Errorf("verify_webhook_signature = %t, want %t", got.ValueBool(), c.want)
			}
		})
	}
}
