package framework

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

// ProviderData is what Configure hands to every resource, data source and ephemeral resource.
type ProviderData struct {
	Client      *videohost.Client
	Environment string
	BaseURL     string
	// Labels are the provider's default tags and metadata and its ignore rules (default_labels.go).
	Labels DefaultLabels
	// Adoption holds the claims of this provider's creates (adoption.go).
	Adoption adoptionClaims
	// rateWaits decides when the rate-limit warning is given (rate_limit_warning.go).
	rateWaits rateWaitNotice
}

// ProviderDataFrom unwraps the ProviderData of a Configure request. It returns nil without a
// diagnostic while the provider is not configured yet (Terraform calls Configure on resources
// before the provider's own Configure during validation).
func ProviderDataFrom(raw any, diags *diag.Diagnostics) *ProviderData {
	if raw == nil {
		return nil
	}
	pd, ok := raw.(*ProviderData)
	if !ok {
		diags.AddError("Unexpected Provider Data",
			fmt.Sprintf("Expected *providerData, got %T. This is a bug in the provider; please report it.", raw))
		return nil
	}
	return pd
}

// RequireConfigured reports whether the provider has a client, with an error diagnostic when
// it has not.
func RequireConfigured(pd *ProviderData, diags *diag.Diagnostics) bool {
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

// DataSourceBase is embedded by every data source.
type DataSourceBase struct {
	// TypeName is the data source's name after the provider's, such as "_webhooks".
	TypeName string
	Pd       *ProviderData
}

func (b *DataSourceBase) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + b.TypeName
}

func (b *DataSourceBase) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	b.Pd = ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

// ResourceBase is embedded by every managed resource and every list resource; a list resource
// has the name of the resource it finds.
type ResourceBase struct {
	// TypeName is the resource's name after the provider's, such as "_webhook".
	TypeName string
	Pd       *ProviderData
}

func (b *ResourceBase) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + b.TypeName
}

func (b *ResourceBase) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	b.Pd = ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

// Environment variables read when the matching attribute is not set.
const (
	EnvAPIKey      = "VIDEOHOST_API_KEY"
	EnvEnvironment = "VIDEOHOST_ENVIRONMENT"
	EnvBaseURL     = "VIDEOHOST_BASE_URL"
)
