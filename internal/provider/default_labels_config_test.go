package provider

import (
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TestDefaultLabelsFrom: unknown defaults are recorded as unknown; an unknown ignore rule and a
// rule that hides a default are errors on the rule's attribute.
func TestDefaultLabelsFrom(t *testing.T) {
	ctx := t.Context()
	strs := func(vs ...attr.Value) types.Set { return types.SetValueMust(types.StringType, vs) }
	ruleType := map[string]attr.Type{"tags": types.SetType{ElemType: types.StringType}, "prefixes": types.SetType{ElemType: types.StringType}}
	keysType := map[string]attr.Type{"keys": types.SetType{ElemType: types.StringType}, "prefixes": types.SetType{ElemType: types.StringType}}
	cfg := DefaultLabelsConfig{
		DefaultTags:     strs(types.StringValue("team"), types.StringUnknown()),
		DefaultMetadata: types.MapValueMust(types.StringType, map[string]attr.Value{"team": types.StringValue("a")}),
		IgnoreTags: types.ObjectValueMust(ruleType, map[string]attr.Value{
			"tags": types.SetNull(types.StringType), "prefixes": strs(types.StringValue("dash:"))}),
		IgnoreMetadataKeys: types.ObjectValueMust(keysType, map[string]attr.Value{
			"keys": strs(types.StringValue("team")), "prefixes": types.SetNull(types.StringType)}),
	}
	var diags diag.Diagnostics
	l := DefaultLabelsFrom(ctx, cfg, &diags)
	if !l.TagsUnknown || l.MetadataUnknown || l.Metadata["team"] != "a" || !slices.Equal(l.IgnoreTags.Prefixes, []string{"dash:"}) {
		t.Errorf("labels %+v", l)
	}
	if diags.ErrorsCount() != 1 || diags[0].Summary() != IgnoreRuleHidesDefault || !strings.Contains(diags[0].Detail(), `"team"`) {
		t.Errorf("diagnostics %v, want one %q naming team", diags, IgnoreRuleHidesDefault)
	}
	cfg.IgnoreTags = types.ObjectUnknown(ruleType)
	cfg.IgnoreMetadataKeys = types.ObjectNull(keysType)
	diags = nil
	DefaultLabelsFrom(ctx, cfg, &diags)
	if diags.ErrorsCount() != 1 || diags[0].Summary() != "Provider Ignore Rule Not Yet Known" {
		t.Errorf("an unknown rule gave %v", diags)
	}
}
