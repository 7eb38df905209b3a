package framework

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// The list data sources build their lists value by value rather than through the framework's
// reflection of their models: reflection compiles a regular expression for every field of every
// item, which for 10,000 videos was most of the provider's time and allocations, and costs
// several times more than building the values even for a short list (BenchmarkListValues).
// Each model's object() builds one element from the types of the schema, and
// TestObjectsMatchReflection keeps every element equal to what reflection gives.

// ObjectTypeOf is the type of one element of a list of objects with the given attributes.
func ObjectTypeOf(attrs map[string]schema.Attribute) types.ObjectType {
	return types.ObjectType{AttrTypes: AttrTypesOf(schema.NestedAttributeObject{Attributes: attrs}.Type())}
}

// AttrTypesOf is the attribute types of an object type, or of the elements of a list of
// objects; nil for any other type, which makes every value built from it an error diagnostic
// (and the test fail) rather than a panic.
func AttrTypesOf(t attr.Type) map[string]attr.Type {
	switch t := t.(type) {
	case basetypes.ObjectType:
		return t.AttrTypes
	case basetypes.ListType:
		return AttrTypesOf(t.ElemType)
	}
	return nil
}

// ListValue is the list attribute of a list data source: one element per item, each built by
// object. The first error stops the walk, so that one bad item is one diagnostic.
func ListValue[T any](elem types.ObjectType, items []T, object func(T) (types.Object, diag.Diagnostics)) (types.List, diag.Diagnostics) {
	var diags diag.Diagnostics
	elems := make([]attr.Value, 0, len(items))
	for _, item := range items {
		o, d := object(item)
		diags.Append(d...)
		if diags.HasError() {
			return types.ListNull(elem), diags
		}
		elems = append(elems, o)
	}
	l, d := types.ListValue(elem, elems)
	diags.Append(d...)
	return l, diags
}

// StringList is a list of strings as a value.
func StringList(items []string) (types.List, diag.Diagnostics) {
	elems := make([]attr.Value, 0, len(items))
	for _, s := range items {
		elems = append(elems, types.StringValue(s))
	}
	return types.ListValue(types.StringType, elems)
}
