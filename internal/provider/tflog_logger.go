package provider

import (
	"context"
	"regexp"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

var _ videohost.Logger = (*tflogLogger)(nil)

// secretFieldKeys are field names whose values are masked whatever they hold. The client
// promises not to log secrets; masking them here as well means a slip in the client shows up
// as "***" in a user's debug log rather than as a leaked credential.
var secretFieldKeys = []string{
	"api_key", "apiKey", "authorization", "Authorization",
	"token", "access_token", "accessToken", "refresh_token", "refreshToken",
	"signature_secret", "signatureSecret", "stream_key", "streamKey",
}

// jwtPattern matches a JSON Web Token, the form of the service's access tokens, wherever it
// appears in a line.
var jwtPattern = regexp.MustCompile(`eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+`)

// tflogLogger bridges the client's logger to tflog, so that the client's lines appear in
// Terraform's log (TF_LOG=DEBUG) with the provider's context, fields and masking.
type tflogLogger struct {
	apiKey string
}

func NewTFLogLogger(apiKey string) *tflogLogger {
	return &tflogLogger{apiKey: apiKey}
}

// masked applies the masking on the context of each call: the client logs with the context of
// the resource operation, which does not carry the masking set up in the provider's Configure.
func (l *tflogLogger) masked(ctx context.Context) context.Context {
	ctx = tflog.MaskFieldValuesWithFieldKeys(ctx, secretFieldKeys...)
	ctx = tflog.MaskLogRegexes(ctx, jwtPattern)
	if l.apiKey != "" {
		ctx = tflog.MaskLogStrings(ctx, l.apiKey)
	}
	return ctx
}

func (l *tflogLogger) Debug(ctx context.Context, msg string, fields map[string]any) {
	tflog.Debug(l.masked(ctx), msg, fields)
}

func (l *tflogLogger) Info(ctx context.Context, msg string, fields map[string]any) {
	tflog.Info(l.masked(ctx), msg, fields)
}

func (l *tflogLogger) Warn(ctx context.Context, msg string, fields map[string]any) {
	tflog.Warn(l.masked(ctx), msg, fields)
}
