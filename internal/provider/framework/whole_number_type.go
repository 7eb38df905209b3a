package framework

// This file holds the type of the provider's whole-number attributes (a token's ttl, the
// provider's max_retries and upload sizes, a restream key's version). The framework's Int64
// type refuses a number with a fraction (ttl = 1.5) or beyond 64 bits while it converts the
// configuration, before any validator runs, with "This is always an error in the provider" and
// a value Go cannot print ("%!s(*big.Float=1.5)"). wholeNumberType converts such a number to
// an unknown value, which the validators skip, and says what is wrong on the attribute when the
// configuration is validated, before any request.

import (
	"context"
	"fmt"
	"math/big"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// WholeNumberType is an Int64 whose value must be a whole number; unit names what it counts
// ("seconds") for the message.
type WholeNumberType struct {
	basetypes.Int64Type
	Unit string
}

//nolint:staticcheck // The framework calls a type's Validate on the configuration's raw value; the value alternative (ValidateableAttribute) would need a value type of our own in every model.
var (
	_ basetypes.Int64Typable = WholeNumberType{}
	_ xattr.TypeWithValidate = WholeNumberType{}
)

// Equal holds for the framework's Int64 type too: the values are the same.
func (t WholeNumberType) Equal(o attr.Type) bool {
	switch o.(type) {
	case WholeNumberType, basetypes.Int64Type:
		return true
	}
	return false
}

func (t WholeNumberType) String() string { return "provider.wholeNumberType" }

// ValueFromTerraform is the Int64's, but a number that is not a whole number of 64 bits is
// unknown rather than an error: Validate refuses it with a message a user can act on.
func (t WholeNumberType) ValueFromTerraform(ctx context.Context, in tftypes.Value) (attr.Value, error) {
	if wholeNumberProblem(in) != "" {
		return basetypes.NewInt64Unknown(), nil
	}
	return t.Int64Type.ValueFromTerraform(ctx, in)
}

// Validate refuses a number with a fraction, or too large for 64 bits, on the attribute.
func (t WholeNumberType) Validate(_ context.Context, in tftypes.Value, at path.Path) diag.Diagnostics {
	var diags diag.Diagnostics
	if why := wholeNumberProblem(in); why != "" {
		diags.AddAttributeError(at, "Invalid Whole Number", fmt.Sprintf("Set %s to a whole number of %s: %s.", attrInWords(at), t.Unit, why))
	}
	return diags
}

// wholeNumberProblem is why the known number in cannot be an Int64, or "".
func wholeNumberProblem(in tftypes.Value) string {
	var f *big.Float
	if !in.IsKnown() || in.IsNull() || in.As(&f) != nil || f == nil {
		return ""
	}
	if !f.IsInt() {
		return fmt.Sprintf("%s has a fraction", f.Text('g', -1))
	}
	if _, acc := f.Int64(); acc != big.Exact {
		return fmt.Sprintf("%s is too large", f.Text('g', -1))
	}
	return ""
}
