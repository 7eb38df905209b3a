package framework

// How every Create, Read, Update, Delete and data source Read starts: the model (or the id) read
// from the request's plan, state or configuration, after the check that the provider is
// configured when the call sends requests.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// ModelSource is a request's plan, state or configuration.
type ModelSource interface {
	Get(ctx context.Context, target any) diag.Diagnostics
}

// ModelOf reads a model from a request's plan, state or configuration; false when it could
// not, with the diagnostics saying why.
func ModelOf[M any](ctx context.Context, from ModelSource, diags *diag.Diagnostics) (M, bool) {
	var m M
	diags.Append(from.Get(ctx, &m)...)
	return m, !diags.HasError()
}

// ConfiguredModel is how every call that sends requests starts: it requires a configured
// provider (requireConfigured), then reads the model (modelOf).
func ConfiguredModel[M any](ctx context.Context, pd *ProviderData, from ModelSource, diags *diag.Diagnostics) (M, bool) {
	if !RequireConfigured(pd, diags) {
		var zero M
		return zero, false
	}
	return ModelOf[M](ctx, from, diags)
}

// ConfiguredID is how a call that needs only the object's id starts: it requires a configured
// provider, then reads the id attribute from the request's state or configuration.
func ConfiguredID(ctx context.Context, pd *ProviderData, from interface {
	GetAttribute(ctx context.Context, p path.Path, target any) diag.Diagnostics
}, diags *diag.Diagnostics,
) (string, bool) {
	if !RequireConfigured(pd, diags) {
		return "", false
	}
	var id types.String
	diags.Append(from.GetAttribute(ctx, path.Root("id"), &id)...)
	return id.ValueString(), !diags.HasError()
}
