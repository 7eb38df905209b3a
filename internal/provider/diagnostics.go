package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// addAPIErrorDiagnostics turns an error of the client into diagnostics; it is being written.
func addAPIErrorDiagnostics(diags *diag.Diagnostics, summary string, err error, pd *providerData) {
	_ = pd
	diags.AddError(summary, err.Error())
}
