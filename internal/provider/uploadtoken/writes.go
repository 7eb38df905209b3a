package uploadtoken

// What the upload token's create and delete send: its writeTarget, and the create that the
// videohost_upload_token resource and ephemeral resource share.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// uploadTokenWrites names the upload token for the shared create and delete machinery.
var uploadTokenWrites = framework.WriteTarget{Kind: "Upload Token", Attrs: map[string]path.Path{"ttl": path.Root("ttl")}}

// UploadTokenAdoptable is the create of a token of ttl seconds for the adoption of unknown
// outcomes (adoption.go). The service keeps nothing of a token but the token itself, its ttl
// and its times, so the tokens are listed before the first attempt, and the one of the same ttl
// listed after the attempt and not before is taken; two or more such tokens (another client
// made one meanwhile) are an error naming their fingerprints, and none is deleted, since a
// token may be another's credential. Tokens are named by their fingerprints, never themselves.
func UploadTokenAdoptable(pd *framework.ProviderData, ttl int) framework.AdoptableCreate[videohost.UploadToken] {
	return framework.AdoptableCreate[videohost.UploadToken]{
		Kind: "upload token", Path: "/upload-tokens",
		Create: func(ctx context.Context) (videohost.UploadToken, error) { return pd.Client.CreateUploadToken(ctx, ttl) },
		List: func(ctx context.Context) ([]videohost.UploadToken, error) {
			return pd.Client.ListUploadTokens(ctx, videohost.UploadTokenFilter{})
		},
		Matches:   func(t videohost.UploadToken) bool { return t.TTL == ttl },
		Id:        func(t videohost.UploadToken) string { return t.Token },
		Shown:     func(t videohost.UploadToken) string { return UploadTokenFingerprint(t.Token) },
		ListFirst: true, Sole: true,
	}
}

// deleteUploadToken deletes token, whose id (its fingerprint) names it in messages, through the
// shared delete machinery: the service deletes a token by the token itself, not by the id.
func deleteUploadToken(ctx context.Context, pd *framework.ProviderData, id, token string, diags *diag.Diagnostics) {
	framework.DeleteObject(ctx, pd, uploadTokenWrites, diags, id, func(ctx context.Context) error {
		return pd.Client.DeleteUploadToken(ctx, token)
	})
}
