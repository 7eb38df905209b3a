package video

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// stringSetType is a set of strings whose check for duplicate elements takes linear time.
//
// The framework checks a set for duplicates each time it reads the set from a request (a plan
// of one video reads it some ten times: validation, defaults, plan modifiers, the model), and
// basetypes.SetType compares every pair of elements: a profile of a plan of one video with
// 3,000 tags spent 78% of the provider's 14.5 s of CPU in SetType.Validate (tftypes.Value.Equal
// through deepEqual), and 10,000 tags take minutes. The elements here are strings, which a map
// compares in one step each. The values are the framework's own types.Set.
type stringSetType struct {
	basetypes.SetType
}

var _ basetypes.SetTypable = stringSetType{}

func NewStringSetType() stringSetType {
	return stringSetType{basetypes.SetType{ElemType: types.StringType}}
}

func (t stringSetType) Equal(o attr.Type) bool {
	other, ok := o.(stringSetType)
	return ok && t.SetType.Equal(other.SetType)
}

func (t stringSetType) String() string { return "stringSetType" }

// Validate refuses duplicate elements, as basetypes.SetType does, in linear time.
func (t stringSetType) Validate(_ context.Context, in tftypes.Value, p path.Path) diag.Diagnostics {
	var diags diag.Diagnostics
	if in.Type() == nil || !in.IsKnown() || in.IsNull() {
		return diags
	}
	var elems []tftypes.Value
	if err := in.As(&elems); err != nil {
		diags.AddAttributeError(p, "Set Type Validation Error", "Reading the set failed: "+err.Error()+
			". This is a bug in the provider; please report it.")
		return diags
	}
	seen := make(map[string]struct{}, len(elems))
	for _, e := range elems {
		if !e.IsKnown() || e.IsNull() {
			continue
		}
		var s string
		if err := e.As(&s); err != nil {
			continue
		}
		if _, dup := seen[s]; dup {
			diags.AddAttributeError(p, "Duplicate Set Element", fmt.Sprintf("This attribute contains duplicate values of: %q", s))
			continue
		}
		seen[s] = struct{}{}
	}
	return diags
}

func (t stringSetType) ValueType(context.Context) attr.Value { return StringSetValue{} }

func (t stringSetType) ValueFromSet(_ context.Context, in basetypes.SetValue) (basetypes.SetValuable, diag.Diagnostics) {
	return StringSetValue{in}, nil
}

func (t stringSetType) ValueFromTerraform(ctx context.Context, in tftypes.Value) (attr.Value, error) {
	v, err := t.SetType.ValueFromTerraform(ctx, in)
	if err != nil {
		return nil, err
	}
	set, ok := v.(basetypes.SetValue)
	if !ok {
		return nil, fmt.Errorf("unexpected value type %T", v)
	}
	return StringSetValue{set}, nil
}

// StringSetValue is a value of stringSetType: a types.Set of strings.
type StringSetValue struct {
	basetypes.SetValue
}

var _ basetypes.SetValuable = StringSetValue{}

func (v StringSetValue) Type(context.Context) attr.Type { return NewStringSetType() }

func (v StringSetValue) Equal(o attr.Value) bool {
	other, ok := o.(StringSetValue)
	return ok && v.SetValue.Equal(other.SetValue)
}

func (v StringSetValue) ToSetValue(context.Context) (basetypes.SetValue, diag.Diagnostics) {
	return v.SetValue, nil
}
