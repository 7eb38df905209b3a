package videohost

import "context"

var _ Logger = nopLogger{}

// Logger is the small logging interface the client writes to. Fields never hold a key, a
// token, an Authorization header or a signature secret.
type Logger interface {
	Debug(ctx context.Context, msg string, fields map[string]any)
	Info(ctx context.Context, msg string, fields map[string]any)
	Warn(ctx context.Context, msg string, fields map[string]any)
}

// nopLogger stands in for a nil Config.Logger.
type nopLogger struct{}

func (nopLogger) Debug(context.Context, string, map[string]any) {}
func (nopLogger) Info(context.Context, string, map[string]any)  {}
func (nopLogger) Warn(context.Context, string, map[string]any)  {}

// Log messages, constant so that a caller can filter on them.
const (
	logRequest  = "videohost request"
	logRateWait = "videohost waiting for the rate limit"
	logRetry    = "videohost retrying"
	logToken    = "videohost token"
)
