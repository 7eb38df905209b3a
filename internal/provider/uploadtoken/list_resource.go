package uploadtoken

// The videohost_upload_token list resource: the upload tokens that terraform query finds.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// NewUploadTokenListResource returns the videohost_upload_token list resource. A result's
// identity and display name hold the token's fingerprint, never the token; the token is only in
// the resource that include_resource adds, where it is sensitive.
func NewUploadTokenListResource() list.ListResource {
	return framework.NewListResource("_upload_token", framework.Listing[videohost.UploadToken, struct{}, videohost.UploadTokenFilter]{
		Description: "Lists every delegated upload token of the workspace for `terraform query`. Each result is a " +
			"token's identity (its fingerprint `id`, not the token) and a display name of its fingerprint and " +
			"expiry; with `include_resource = true`, also every attribute of the resource, the token included " +
			"(sensitive). Terraform 1.14 and later.",
		Filters:     map[string]listschema.Attribute{},
		Filter:      func(struct{}) videohost.UploadTokenFilter { return videohost.UploadTokenFilter{} },
		Walk:        (*videohost.Client).WalkUploadTokens,
		What:        "upload tokens",
		Id:          func(t videohost.UploadToken) string { return UploadTokenFingerprint(t.Token) },
		DisplayName: uploadTokenDisplayName,
		Model: func(_ context.Context, t videohost.UploadToken) (any, diag.Diagnostics) {
			return UploadTokenModelFrom(t), nil
		},
		ErrorSummary: "Unable to List Upload Tokens",
	})
}

// uploadTokenDisplayName is a token's fingerprint and when it expires: never its secret.
func uploadTokenDisplayName(t videohost.UploadToken) string {
	if t.ExpiresAt == nil {
		return UploadTokenFingerprint(t.Token) + " (never expires)"
	}
	return UploadTokenFingerprint(t.Token) + " (expires " + framework.TimeString(t.ExpiresAt).ValueString() + ")"
}
