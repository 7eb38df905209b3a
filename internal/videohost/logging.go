package videohost

import "context"

var _ Logger = nopLogger{}

// nopLogger discards everything; it stands in when Config.Logger is nil so that the client
// never checks for a nil logger.
type nopLogger struct{}

func (nopLogger) Debug(context.Context, string, map[string]any) {}
func (nopLogger) Info(context.Context, string, map[string]any)  {}
func (nopLogger) Warn(context.Context, string, map[string]any)  {}

// Log messages. They are constants so that a caller can filter on them.
const (
	logRequest  = "videohost request"
	logRateWait = "videohost waiting for the rate limit"
	logRetry    = "videohost retrying"
	logToken    = "videohost token"
)
