// Package webhook holds the webhook kind: the `videohost_webhook` resource (and its list
// resource), the `videohost_webhook` and `videohost_webhooks` data sources, the
// `videohost_webhook_check` action, the `provider::videohost::webhook_signature` and
// `provider::videohost::verify_webhook_signature` functions, and its move from restapi_object
// (move_state.go).
package webhook
