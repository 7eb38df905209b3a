package webhook

// The provider function verify_webhook_signature (its parameters are shared with
// webhook_signature, webhook_signature_function.go).

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

var _ function.Function = (*verifyWebhookSignatureFunction)(nil)

// NewVerifyWebhookSignatureFunction returns the verify_webhook_signature function.
func NewVerifyWebhookSignatureFunction() function.Function {
	return &verifyWebhookSignatureFunction{}
}

// verifyWebhookSignatureFunction checks a signature the way a receiver must: in constant time.
type verifyWebhookSignatureFunction struct{}

func (f *verifyWebhookSignatureFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "verify_webhook_signature"
}

func (f *verifyWebhookSignatureFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Check the signature of a webhook delivery",
		Description: "Returns true when signature is the HMAC-SHA256 of body keyed with secret, in either " +
			"hexadecimal case, compared in constant time. An empty secret or signature never verifies.",
		MarkdownDescription: "Returns `true` when `signature` is the HMAC-SHA256 of `body` keyed with `secret`, " +
			"in either hexadecimal case, compared in constant time; `false` otherwise. An empty secret or an " +
			"empty signature never verifies.",
		Parameters: []function.Parameter{
			secretParameter(""),
			bodyParameter,
			function.StringParameter{
				Name:        "signature",
				Description: "The value of the X-Service-Signature header, in hexadecimal.",
				MarkdownDescription: "The value of the `X-Service-Signature` header of the delivery, in " +
					"hexadecimal (either case).",
			},
		},
		Return: function.BoolReturn{},
	}
}

func (f *verifyWebhookSignatureFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var secret, body, signature string
	resp.Error = function.ConcatFuncErrors(resp.Error, req.Arguments.Get(ctx, &secret, &body, &signature))
	if resp.Error != nil {
		return
	}
	resp.Error = function.ConcatFuncErrors(resp.Error, resp.Result.Set(ctx, videohost.Verify(secret, []byte(body), signature)))
}
