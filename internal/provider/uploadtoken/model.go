package uploadtoken

import (
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// An upload token is both its own id and a secret: whoever holds it can upload into the
// workspace. Terraform prints a resource's id in its progress lines ("Creating... [id=...]",
// "Refreshing state... [id=...]", "Importing... [id=...]"), so the id of an upload token in
// Terraform is not the token but its fingerprint: the first 16 hexadecimal digits of the
// token's SHA-256. That cannot be turned back into the token (the token holds 131 random bits),
// identifies it among the workspace's tokens, and is what the identity, the import and the
// list data source use. A configuration computes it from a token with
// substr(sha256(token), 0, 16).

// uploadTokenFingerprintLen is the number of hexadecimal digits of a token's fingerprint.
const uploadTokenFingerprintLen = 16

// UploadTokenFingerprint is the id under which Terraform knows the token.
func UploadTokenFingerprint(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])[:uploadTokenFingerprintLen]
}

// uploadTokenModel is one upload token: the state of videohost_upload_token and the items of
// videohost_upload_tokens.
type uploadTokenModel struct {
	ID        types.String `tfsdk:"id"`
	Token     types.String `tfsdk:"token"`
	TTL       types.Int64  `tfsdk:"ttl"`
	CreatedAt types.String `tfsdk:"created_at"`
	ExpiresAt types.String `tfsdk:"expires_at"`
}

// UploadTokenModelFrom maps a token of the service to the model; a token that never expires
// has a null expires_at.
func UploadTokenModelFrom(t videohost.UploadToken) uploadTokenModel {
	return uploadTokenModel{
		ID:        types.StringValue(UploadTokenFingerprint(t.Token)),
		Token:     types.StringValue(t.Token),
		TTL:       types.Int64Value(int64(t.TTL)),
		CreatedAt: framework.TimeString(t.CreatedAt),
		ExpiresAt: framework.TimeString(t.ExpiresAt),
	}
}

// expired reports whether the state says the token has expired by now: it had an expiry, and
// that time has passed.
func (m uploadTokenModel) expired(now time.Time) bool {
	if m.ExpiresAt.IsNull() || m.ExpiresAt.IsUnknown() {
		return false
	}
	at, err := time.Parse(time.RFC3339, m.ExpiresAt.ValueString())
	return err == nil && !now.Before(at)
}

// The descriptions of a token's fingerprint and secret, the same in the data source and the
// ephemeral resource.
const (
	uploadTokenIDDescription = "The token's fingerprint: the first 16 hexadecimal digits of its SHA-256, which " +
		"the `videohost_upload_token` resource takes as its id and for import. Not a secret."
	uploadTokenTokenDescription = "The upload token: whoever holds it can upload videos into the workspace " +
		"(`POST /upload?token=`). Sensitive."
)

// uploadTokenDataAttributes are the attributes of one upload token, all computed.
func uploadTokenDataAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id":         framework.ComputedString(uploadTokenIDDescription),
		"token":      framework.ComputedSecret(uploadTokenTokenDescription),
		"ttl":        schema.Int64Attribute{Computed: true, MarkdownDescription: "Lifetime of the token in seconds; `0` never expires."},
		"created_at": framework.ComputedString("When the token was created, RFC 3339 (UTC)."),
		"expires_at": framework.ComputedString("When the token expires, RFC 3339 (UTC); null for a token that never expires."),
	}
}

// UploadTokenObjectType is the type of the elements of upload_tokens, from the schema (see
// list_values.go).
var UploadTokenObjectType = framework.ObjectTypeOf(uploadTokenDataAttributes())

// Object is the token as an element of the upload_tokens list.
func (m uploadTokenModel) Object() (types.Object, diag.Diagnostics) {
	return types.ObjectValue(UploadTokenObjectType.AttrTypes, map[string]attr.Value{
		"id": m.ID, "token": m.Token, "ttl": m.TTL, "created_at": m.CreatedAt, "expires_at": m.ExpiresAt,
	})
}
