package provider

// What the upload token's create and delete send: its writeTarget, and the create that the
// videohost_upload_token resource and ephemeral resource share.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// uploadTokenWrites names the upload token for the shared create and delete machinery.
var uploadTokenWrites = writeTarget{kind: "Upload Token", attrs: map[string]path.Path{"ttl": path.Root("ttl")}}

// uploadTokenAdoptable is the create of a token of ttl seconds for the adoption of unknown
// outcomes (adoption.go). The service keeps nothing of a token but the token itself, its ttl
// and its times, so the tokens are listed before the first attempt, and the one of the same ttl
// listed after the attempt and not before is taken; two or more such tokens (another client
// made one meanwhile) are an error naming their fingerprints, and none is deleted, since a
// token may be another's credential. Tokens are named by their fingerprints, never themselves.
func uploadTokenAdoptable(pd *providerData, ttl int) adoptableCreate[videohost.UploadToken] {
	return adoptableCreate[videohost.UploadToken]{
		kind: "upload token", path: "/upload-tokens",
		create: func(ctx context.Context) (videohost.UploadToken, error) { return pd.client.CreateUploadToken(ctx, ttl) },
		list: func(ctx context.Context) ([]videohost.UploadToken, error) {
			return pd.client.ListUploadTokens(ctx, videohost.UploadTokenFilter{})
		},
		matches:   func(t videohost.UploadToken) bool { return t.TTL == ttl },
		id:        func(t videohost.UploadToken) string { return t.Token },
		shown:     func(t videohost.UploadToken) string { return uploadTokenFingerprint(t.Token) },
		listFirst: true, sole: true,
	}
}

// deleteUploadToken deletes token, whose id (its fingerprint) names it in messages, through the
// shared delete machinery: the service deletes a token by the token itself, not by the id.
func deleteUploadToken(ctx context.Context, pd *providerData, id, token string, diags *diag.Diagnostics) {
	deleteObject(ctx, pd, uploadTokenWrites, diags, id, func(ctx context.Context) error {
		return pd.client.DeleteUploadToken(ctx, token)
	})
}
