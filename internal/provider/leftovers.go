package provider

import (
	"context"

	"github.com/videohost/terraform-provider-videohost/internal/provider/uploadtoken"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// Leftovers are the secrets that the provider's kinds open for one run and that must not outlive
// it: today the ephemeral upload tokens Terraform did not close (see
// uploadtoken/unclosed_tokens.go). The process's lifecycle (internal/lifecycle) deletes them once
// Terraform has stopped the provider, and hands those it could not delete to a cleaner; it
// reaches them through this registry, so that neither main nor the lifecycle names a kind.
type Leftovers struct{}

// Delete deletes the unclosed tokens within ctx and returns how many it deleted; those it could
// not delete are kept, for Take.
func (Leftovers) Delete(ctx context.Context) (int, error) {
	return uploadtoken.DeleteUnclosedUploadTokens(ctx)
}

// Take empties the registry and returns the tokens it held, by the client that made them.
func (Leftovers) Take() map[*videohost.Client][]string {
	return uploadtoken.TakeUnclosedUploadTokens()
}

// Keep puts back a token of c: a cleaner keeps the tokens it was handed, then deletes them.
func (Leftovers) Keep(c *videohost.Client, token string) {
	uploadtoken.UnclosedUploadTokens.Keep(c, token)
}
