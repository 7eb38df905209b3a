package webhook_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/provider/webhook"
)

// signatureVector is a signature computed outside Go, with openssl, so that the functions are
// checked against an independent implementation of HMAC-SHA256.
type signatureVector struct {
	name, secret, body, signature string
}

var signatureVectors = []signatureVector{
	{
		// printf '%s' '{"type":"video.encoding.quality.completed","emittedAt":"2024-01-01T00:00:00Z","videoId":"vi4k0jvEUuaTdRAEjQ4Jfrgz"}' | openssl dgst -sha256 -hmac 'sig_secret_0123456789abcdef'
		name:      "event body",
		secret:    "sig_secret_0123456789abcdef",
		body:      `{"type":"video.encoding.quality.completed","emittedAt":"2024-01-01T00:00:00Z","videoId":"vi4k0jvEUuaTdRAEjQ4Jfrgz"}`,
		signature: "2198294fc0e1da58de875cbf93b8b963337b4ded9cbd6fd98dab755afbda5f81",
	},
	{
		// printf '' | openssl dgst -sha256 -hmac 'sig_secret_0123456789abcdef'
		name:      "empty body",
		secret:    "sig_secret_0123456789abcdef",
		body:      "",
		signature: "828626557d4cbacd5e3958f1c4fa79f80e5a7bb17b76e6b1d6418ad665cd6a4f",
	},
	{
		// printf 'line one\nlíne twö ✓' | openssl dgst -sha256 -hmac 'another-secret'
		name:      "multi-line UTF-8 body",
		secret:    "another-secret",
		body:      "line one\nlíne twö ✓",
		signature: "517f1281cae3a403a2ebc349ac5e4dd956f931bb6171e894ae05b19e571efc71",
	},
	{
		// printf 'hello' | openssl dgst -sha256 -hmac 'key'
		name:      "short",
		secret:    "key",
		body:      "hello",
		signature: "9307b3b915efb5171ff14d8cb55fbcc798c6c0ef1456d66ded1a6aa723a58b7b",
	},
}

// runFunction calls f.Run with string arguments the way the framework's server would, after
// checking the argument count against the definition.
func runFunction(t *testing.T, f function.Function, ret attr.Value, args ...string) function.RunResponse {
	t.Helper()
	var def function.DefinitionResponse
	f.Definition(t.Context(), function.DefinitionRequest{}, &def)
	if len(def.Definition.Parameters) != len(args) {
		t.Fatalf("the function takes %d parameters, the test passes %d", len(def.Definition.Parameters), len(args))
	}
	values := make([]attr.Value, len(args))
	for i, a := range args {
		values[i] = types.StringValue(a)
	}
	resp := function.RunResponse{Result: function.NewResultData(ret)}
	f.Run(t.Context(), function.RunRequest{Arguments: function.NewArgumentsData(values)}, &resp)
	return resp
}

func TestWebhookSignatureFunctionVectors(t *testing.T) {
	for _, v := range signatureVectors {
		t.Run(v.name, func(t *testing.T) {
			resp := runFunction(t, webhook.NewWebhookSignatureFunction(), types.StringUnknown(), v.secret, v.body)
			if resp.Error != nil {
				t.Fatalf("unexpected error: %s", resp.Error)
			}
			got, ok := resp.Result.Value().(types.String)
			if !ok {
				t.Fatalf("result is %T, want types.String", resp.Result.Value())
			}
			if got.ValueString() != v.signature {
				t.Errorf("webhook_signature = %s, want %s", got.ValueString(), v.signature)
			}
		})
	}
}

func TestWebhookSignatureFunctionEmptySecret(t *testing.T) {
	resp := runFunction(t, webhook.NewWebhookSignatureFunction(), types.StringUnknown(), "", "body")
	if resp.Error == nil {
		t.Fatal("an empty secret gave no error")
	}
	if resp.Error.FunctionArgument == nil || *resp.Error.FunctionArgument != 0 {
		t.Errorf("the error is not on the secret argument (0): %+v", resp.Error)
	}
	if !strings.Contains(resp.Error.Text, "secret is required") {
		t.Errorf("the error does not say a secret is required: %q", resp.Error.Text)
	}
}

// TestSignatureFunctionDefinitionsDocumented guards the generated docs: tfplugindocs renders
// the function pages from these texts only.
func TestSignatureFunctionDefinitionsDocumented(t *testing.T) {
	for _, f := range []function.Function{webhook.NewWebhookSignatureFunction(), webhook.NewVerifyWebhookSignatureFunction()} {
		var meta function.MetadataResponse
		f.Metadata(t.Context(), function.MetadataRequest{}, &meta)
		var def function.DefinitionResponse
		f.Definition(t.Context(), function.DefinitionRequest{}, &def)
		d := def.Definition
		if d.Summary == "" || d.Description == "" || d.MarkdownDescription == "" {
			t.Errorf("%s: the function lacks a summary or a description", meta.Name)
		}
		for i, p := range d.Parameters {
			if p.GetName() == "" || p.GetDescription() == "" || p.GetMarkdownDescription() == "" {
				t.Errorf("%s: parameter %d lacks a name or a description", meta.Name, i)
			}
		}
	}
}

// wrongSignature changes the last hexadecimal digit of a signature, so that it differs from the
// right one in one character only.
func wrongSignature(sig string) string {
	last := "0"
	if strings.HasSuffix(sig, "0") {
		last = "1"
	}
	return sig[:len(sig)-1] + last
}

// signatureFunctionsConfig calls both functions on every vector through Terraform. The vectors
// travel as variables (a JSON variables file), so that no HCL escaping can alter their bytes.
func signatureFunctionsConfig(providerBlock string) (string, config.Variables) {
	var b strings.Builder
	b.WriteString(providerBlock)
	vars := config.Variables{}
	for i, v := range signatureVectors {
		fmt.Fprintf(&b, `
variable "secret_%[1]d" {
  type = string
}

variable "body_%[1]d" {
  type = string
}

variable "signature_%[1]d" {
  type = string
}

variable "wrong_%[1]d" {
  type = string
}

output "signature_%[1]d" {
  value = provider::videohost::webhook_signature(var.secret_%[1]d, var.body_%[1]d)
}

output "verify_lower_%[1]d" {
  value = provider::videohost::verify_webhook_signature(var.secret_%[1]d, var.body_%[1]d, var.signature_%[1]d)
}

output "verify_upper_%[1]d" {
  value = provider::videohost::verify_webhook_signature(var.secret_%[1]d, var.body_%[1]d, upper(var.signature_%[1]d))
}

output "verify_wrong_%[1]d" {
  value = provider::videohost::verify_webhook_signature(var.secret_%[1]d, var.body_%[1]d, var.wrong_%[1]d)
}
`, i)
		vars[fmt.Sprintf("secret_%d", i)] = config.StringVariable(v.secret)
		vars[fmt.Sprintf("body_%d", i)] = config.StringVariable(v.body)
		vars[fmt.Sprintf("signature_%d", i)] = config.StringVariable(v.signature)
		vars[fmt.Sprintf("wrong_%d", i)] = config.StringVariable(wrongSignature(v.signature))
	}
	b.WriteString(`
output "verify_empty_secret" {
  value = provider::videohost::verify_webhook_signature("", var.body_0, var.signature_0)
}
`)
	return b.String(), vars
}

// signatureFunctionsChecks expect the openssl vectors in the outputs of signatureFunctionsConfig.
func signatureFunctionsChecks() []statecheck.StateCheck {
	var checks []statecheck.StateCheck
	for i, v := range signatureVectors {
		checks = append(checks,
			statecheck.ExpectKnownOutputValue(fmt.Sprintf("signature_%d", i), knownvalue.StringExact(v.signature)),
			statecheck.ExpectKnownOutputValue(fmt.Sprintf("verify_lower_%d", i), knownvalue.Bool(true)),
			statecheck.ExpectKnownOutputValue(fmt.Sprintf("verify_upper_%d", i), knownvalue.Bool(true)),
			statecheck.ExpectKnownOutputValue(fmt.Sprintf("verify_wrong_%d", i), knownvalue.Bool(false)),
		)
	}
	return append(checks, statecheck.ExpectKnownOutputValue("verify_empty_secret", knownvalue.Bool(false)))
}

// TestAccSignatureFunctions runs the functions in Terraform with a configured provider whose
// address answers nothing: the functions must not need the service.
func TestAccSignatureFunctions(t *testing.T) {
	cfg, vars := signatureFunctionsConfig(`
provider "videohost" {
  api_key  = "functions-need-no-key"
  base_url = "http://127.0.0.1:1"
}
`)
	resource.Test(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_8_0)},
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:            cfg,
				ConfigVariables:   vars,
				ConfigStateChecks: signatureFunctionsChecks(),
			},
			{
				Config: `
output "signature" {
  value = provider::videohost::webhook_signature("", "body")
}
`,
				ExpectError: regexp.MustCompile(`secret\s+is\s+required`),
			},
		},
	})
}

// TestAccSignatureFunctionsWithoutProviderConfig runs the functions with no provider block and
// no credentials in the environment.
func TestAccSignatureFunctionsWithoutProviderConfig(t *testing.T) {
	t.Setenv(framework.EnvAPIKey, "")
	t.Setenv(framework.EnvBaseURL, "")
	cfg, vars := signatureFunctionsConfig("")
	resource.Test(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_8_0)},
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:            cfg,
				ConfigVariables:   vars,
				ConfigStateChecks: signatureFunctionsChecks(),
			},
		},
	})
}

// TestAccSignatureFunctionSensitiveSecret backs the documentation's promise: function
// parameters cannot be marked sensitive, but a sensitive secret makes the result sensitive, so
// Terraform refuses to show it in an output not marked sensitive.
func TestAccSignatureFunctionSensitiveSecret(t *testing.T) {
	t.Setenv(framework.EnvAPIKey, "")
	v := signatureVectors[3]
	vars := config.Variables{"secret": config.StringVariable(v.secret), "body": config.StringVariable(v.body)}
	const variables = `
variable "secret" {
  type      = string
  sensitive = true
}

variable "body" {
  type = string
}
`
	resource.Test(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_8_0)},
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: variables + `
output "signature" {
  value = provider::videohost::webhook_signature(var.secret, var.body)
}
`,
				ConfigVariables: vars,
				ExpectError:     regexp.MustCompile(`Output refers to sensitive values`),
			},
			{
				Config: variables + `
output "signature" {
  value     = provider::videohost::webhook_signature(var.secret, var.body)
  sensitive = true
}
`,
				ConfigVariables: vars,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownOutputValue("signature", knownvalue.StringExact(v.signature)),
				},
			},
		},
	})
}
