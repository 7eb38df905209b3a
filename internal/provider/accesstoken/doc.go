// Package accesstoken holds the `videohost_access_token` ephemeral resource: a short-lived
// bearer token of the workspace for other tools, never in the plan or the state.
package accesstoken
