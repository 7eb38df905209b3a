// Package contract checks HTTP traffic against the service's published OpenAPI document.
//
// The document is api.video's own description of the API, read from a path given at run time
// (the repository does not copy it). A Checker validates each request the provider's client
// sends and each answer the service gives, and keeps what it saw: how many requests, which
// operations, the statuses the document does not list (reported, not failed: the document is
// silent there), and every deviation, named by its operation, side, member and rule.
//
// The package knows neither the client nor Terraform nor the emulator's types: it sees only
// requests and answers, so that neither side can pass it by sharing the other's types.
package contract
