// Package uploadtoken holds the upload token kind: the `videohost_upload_token` resource (and its
// list resource), the `videohost_upload_tokens` data source and the `videohost_upload_token`
// ephemeral resource, with the deletion of the ephemeral tokens that Terraform left open
// (unclosed_tokens.go, which the process's lifecycle, internal/lifecycle, calls through
// provider.Leftovers once the plugin server has stopped).
package uploadtoken
