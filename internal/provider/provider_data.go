package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// providerData is what Configure hands to every resource, data source and ephemeral resource.
type providerData struct {
	client      *videohost.Client
	environment string
	baseURL     string
}

// providerDataFrom unwraps the ProviderData of a Configure request. It returns nil without a
// diagnostic while the provider is not configured yet (Terraform calls Configure on resources
// before the provider's own Configure during validation).
func providerDataFrom(raw any, diags *diag.Diagnostics) *providerData {
	if raw == nil {
		return nil
	}
	pd, ok := raw.(*providerData)
	if !ok {
		diags.AddError("Unexpected Provider Data",
			fmt.Sprintf("Expected *providerData, got %T. This is a bug in the provider; please report it.", raw))
		return nil
	}
	return pd
}

// requireConfigured reports whether the provider has a client, with an error diagnostic when
// it has not.
func requireConfigured(pd *providerData, diags *diag.Diagnostics) bool {
	if pd != nil {
		return true
	}
	diags.AddError("Provider Not Configured",
		"The videohost provider has no client: its configuration was not known when this operation ran. "+
			"Apply the resources its configuration depends on first, then re-run.")
	return false
}
