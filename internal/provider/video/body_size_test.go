package video

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
)

// TestVideoBodySizeCheck: a video at the provider's bounds in characters that HTML would escape
// (<, >, &) validates, since the client sends them as they are and the body fits; one whose
// description holds characters that JSON must escape past the service's 1 MiB is refused on
// description, the member that weighs most, before any request.
func TestVideoBodySizeCheck(t *testing.T) {
	ctx := t.Context()
	atBounds := EmptyVideoModel()
	atBounds.Title = types.StringValue(strings.Repeat("<", maxVideoTitle))
	tags := make([]attr.Value, maxVideoTags)
	for i := range tags {
		tags[i] = types.StringValue(strings.Repeat("&", maxVideoTag-3) + string(rune('a'+i%26)) + string(rune('a'+i/26)) + "x")
	}
	atBounds.Tags = StringSetValue{SetValue: types.SetValueMust(types.StringType, tags)}
	md := map[string]attr.Value{}
	for i := range maxVideoMetadata {
		key := strings.Repeat(">", maxVideoMetadataKey-2) + string(rune('a'+i%26)) + string(rune('a'+i/26))
		md[key] = types.StringValue(strings.Repeat("<", maxVideoMetadataValue))
	}
	atBounds.Metadata = types.MapValueMust(types.StringType, md)
	var diags diag.Diagnostics
	checkVideoBodySize(ctx, atBounds, nil, &diags)
	if diags.HasError() {
		t.Fatalf("a video at the bounds in <, > and & is refused: %v", diags)
	}

	tooLarge := EmptyVideoModel()
	tooLarge.Title = types.StringValue("t")
	tooLarge.Description = types.StringValue(strings.Repeat("\u2028", 180_000))
	checkVideoBodySize(ctx, tooLarge, nil, &diags)
	if len(diags) != 1 || diags[0].Summary() != "Video Too Large to Send" ||
		!strings.Contains(diags[0].Detail(), "description alone is 1.0 MiB") {
		t.Fatalf("a 1 MiB description of U+2028 gave %v, want Video Too Large to Send on description", diags)
	}
	if d, ok := diags[0].(diag.DiagnosticWithPath); !ok || d.Path().String() != "description" {
		t.Errorf("the error is not on description: %v", diags[0])
	}
}

// TestVideoUpdateSizeCheck: the plan of an update counts the PATCH it sends, the defaults merged
// in: defaults that take the metadata past the service's 1 MiB are refused on metadata, naming
// default_metadata; an update that sends no metadata is not refused for the metadata it keeps.
func TestVideoUpdateSizeCheck(t *testing.T) {
	ctx := t.Context()
	defaults := map[string]string{}
	md := map[string]attr.Value{}
	for i := range maxVideoMetadata {
		k := string(rune('a'+i%26)) + string(rune('a'+i/26))
		defaults[k] = strings.Repeat("\u0001", maxVideoMetadataValue*2)
		md[k] = types.StringValue(defaults[k])
	}
	l := framework.DefaultLabels{Metadata: defaults}
	state := EmptyVideoModel()
	state.Title, state.Metadata, state.MetadataAll = types.StringValue("t"), types.MapValueMust(types.StringType, nil), types.MapValueMust(types.StringType, nil)
	plan := state
	plan.MetadataAll = types.MapValueMust(types.StringType, md)
	var diags diag.Diagnostics
	checkVideoUpdateSize(ctx, plan, state, l, &diags)
	if len(diags) != 1 || diags[0].Summary() != "Video Too Large to Send" || !strings.Contains(diags[0].Detail(), "default_metadata gives") {
		t.Fatalf("defaults past 1 MiB gave %v, want Video Too Large to Send naming default_metadata", diags)
	}
	if d, ok := diags[0].(diag.DiagnosticWithPath); !ok || d.Path().String() != "metadata" {
		t.Errorf("the error is not on metadata: %v", diags[0])
	}
	diags = nil
	state.MetadataAll = plan.MetadataAll
	plan.Title = types.StringValue("u")
	if checkVideoUpdateSize(ctx, plan, state, l, &diags); diags.HasError() {
		t.Errorf("a PATCH of the title alone is refused: %v", diags)
	}
}
