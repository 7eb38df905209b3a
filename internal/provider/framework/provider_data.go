package provider

// What Configure hands to every resource, data source and ephemeral resource (providerData), the
// check that it was handed, and the two bases that take it and give each its type name.

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// providerData is what Configure hands to every resource, data source and ephemeral resource.
type providerData struct {
	client      *videohost.Client
	environment string
	baseURL     string
	// adoption holds the claims of this provider's creates (adoption.go).
	adoption adoptionClaims
	// rateWaits decides when the rate-limit warning is given (rate_limit_warning.go).
	rateWaits rateWaitNotice
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

// Every data source, resource and list resource of the provider embeds one of the two bases
// below, which give it its type name and the provider data that Configure hands over, so that
// its own file holds only what makes it different.

// dataSourceBase is embedded by every data source.
type dataSourceBase struct {
	// typeName is the data source's name after the provider's, such as "_webhooks".
	typeName string
	pd       *providerData
}

func (b *dataSourceBase) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + b.typeName
}

func (b *dataSourceBase) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	b.pd = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

// resourceBase is embedded by every managed resource and every list resource; a list resource
// has the name of the resource it finds.
type resourceBase struct {
	// typeName is the resource's name after the provider's, such as "_webhook".
	typeName string
	pd       *providerData
}

func (b *resourceBase) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + b.typeName
}

func (b *resourceBase) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	b.pd = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

// Environment variables read when the matching attribute is not set.
const (
	envAPIKey      = "VIDEOHOST_API_KEY"
	envEnvironment = "VIDEOHOST_ENVIRONMENT"
	envBaseURL     = "VIDEOHOST_BASE_URL"
)
