package provider

// The videohost_upload_token list resource: the upload tokens that terraform query finds.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// NewUploadTokenListResource returns the videohost_upload_token list resource. A result's
// identity and display name hold the token's fingerprint, never the token; the token is only in
// the resource that include_resource adds, where it is sensitive.
func NewUploadTokenListResource() list.ListResource {
	return newListResource("_upload_token", listing[videohost.UploadToken, struct{}, videohost.UploadTokenFilter]{
		description: "Lists every delegated upload token of the workspace for `terraform query`. Each result is a " +
			"token's identity (its fingerprint `id`, not the token) and a display name of its fingerprint and " +
			"expiry; with `include_resource = true`, also every attribute of the resource, the token included " +
			"(sensitive). Terraform 1.14 and later.",
		filters:     map[string]listschema.Attribute{},
		filter:      func(struct{}) videohost.UploadTokenFilter { return videohost.UploadTokenFilter{} },
		walk:        (*videohost.Client).WalkUploadTokens,
		what:        "upload tokens",
		id:          func(t videohost.UploadToken) string { return uploadTokenFingerprint(t.Token) },
		displayName: uploadTokenDisplayName,
		model: func(_ context.Context, t videohost.UploadToken) (any, diag.Diagnostics) {
			return uploadTokenModelFrom(t), nil
		},
		errorSummary: "Unable to List Upload Tokens",
	})
}

// uploadTokenDisplayName is a token's fingerprint and when it expires: never its secret.
func uploadTokenDisplayName(t videohost.UploadToken) string {
	if t.ExpiresAt == nil {
		return uploadTokenFingerprint(t.Token) + " (never expires)"
	}
	return uploadTokenFingerprint(t.Token) + " (expires " + timeString(t.ExpiresAt).ValueString() + ")"
}
