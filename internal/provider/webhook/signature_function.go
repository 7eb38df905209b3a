package webhook

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

var _ function.Function = (*webhookSignatureFunction)(nil)

// secretParameter is the secret parameter of both functions, so that their documentation reads
// alike; must ends its description with what the function requires of it beyond that.
func secretParameter(must string) function.StringParameter {
	return function.StringParameter{
		Name:        "secret",
		Description: "The webhook's signature secret." + must,
		MarkdownDescription: "The webhook's signature secret (the `signature_secret` attribute of " +
			"`videohost_webhook`). Terraform has no sensitive function parameters: pass a sensitive value " +
			"and Terraform keeps the result sensitive too." + must,
	}
}

// bodyParameter is the body parameter of both functions.
var bodyParameter = function.StringParameter{
	Name:        "body",
	Description: "The exact raw body of the delivery.",
	MarkdownDescription: "The exact raw body of the delivery, byte for byte, as the receiver got it " +
		"(not re-encoded JSON).",
}

// NewWebhookSignatureFunction returns the webhook_signature function.
func NewWebhookSignatureFunction() function.Function {
	return &webhookSignatureFunction{}
}

// webhookSignatureFunction computes the signature the service puts into X-Service-Signature.
type webhookSignatureFunction struct{}

func (f *webhookSignatureFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "webhook_signature"
}

func (f *webhookSignatureFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Compute the signature of a webhook delivery",
		Description: "Returns the lowercase hexadecimal HMAC-SHA256 of body keyed with secret: the value the " +
			"service sends in the X-Service-Signature header of a webhook delivery.",
		MarkdownDescription: "Returns the lowercase hexadecimal HMAC-SHA256 of `body` keyed with `secret`: the " +
			"value the service sends in the `X-Service-Signature` header of a webhook delivery. Useful to build " +
			"test fixtures for a receiver. An empty secret is an error.",
		Parameters: []function.Parameter{secretParameter(" Must not be empty."), bodyParameter},
		Return:     function.StringReturn{},
	}
}

func (f *webhookSignatureFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var secret, body string
	resp.Error = function.ConcatFuncErrors(resp.Error, req.Arguments.Get(ctx, &secret, &body))
	if resp.Error != nil {
		return
	}
	if secret == "" {
		resp.Error = function.NewArgumentFuncError(0,
			"A webhook signature secret is required: pass the signature_secret of the webhook, which is never empty.")
		return
	}
	resp.Error = function.ConcatFuncErrors(resp.Error, resp.Result.Set(ctx, videohost.Sign(secret, []byte(body))))
}
