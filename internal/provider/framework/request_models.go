package provider

// How every Create, Read, Update, Delete and data source Read starts: the model (or the id) read
// from the request's plan, state or configuration, after the check that the provider is
// configured when the call sends requests.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// modelSource is a request's plan, state or configuration.
type modelSource interface {
	Get(ctx context.Context, target any) diag.Diagnostics
}

// modelOf reads a model from a request's plan, state or configuration; false when it could
// not, with the diagnostics saying why.
func modelOf[M any](ctx context.Context, from modelSource, diags *diag.Diagnostics) (M, bool) {
	var m M
	diags.Append(from.Get(ctx, &m)...)
	return m, !diags.HasError()
}

// configuredModel is how every call that sends requests starts: it requires a configured
// provider (requireConfigured), then reads the model (modelOf).
func configuredModel[M any](ctx context.Context, pd *providerData, from modelSource, diags *diag.Diagnostics) (M, bool) {
	if !requireConfigured(pd, diags) {
		var zero M
		return zero, false
	}
	return modelOf[M](ctx, from, diags)
}

// configuredID is how a call that needs only the object's id starts: it requires a configured
// provider, then reads the id attribute from the request's state or configuration.
func configuredID(ctx context.Context, pd *providerData, from interface {
	GetAttribute(ctx context.Context, p path.Path, target any) diag.Diagnostics
}, diags *diag.Diagnostics,
) (string, bool) {
	if !requireConfigured(pd, diags) {
		return "", false
	}
	var id types.String
	diags.Append(from.GetAttribute(ctx, path.Root("id"), &id)...)
	return id.ValueString(), !diags.HasError()
}
