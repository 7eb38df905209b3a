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
	atBounds.Tags = framework.StringSetValue{SetValue: types.SetValueMust(types.StringType, tags)}
	md := map[string]attr.Value{}
	for i := range maxVideoMetadata {
		key := strings.Repeat(">", maxVideoMetadataKey-2) + string(rune('a'+i%26)) + string(rune('a'+i/26))
		md[key] = types.StringValue(strings.Repeat("<", maxVideoMetadataValue))
	}
	atBounds.Metadata = types.MapValueMust(types.StringType, md)
	var diags diag.Diagnostics
	checkVideoBodySize(ctx, atBounds, &diags)
	if diags.HasError() {
		t.Fatalf("a video at the bounds in <, > and & is refused: %v", diags)
	}

	tooLarge := EmptyVideoModel()
	tooLarge.Title = types.StringValue("t")
	tooLarge.Description = types.StringValue(strings.Repeat("\u2028", 180_000))
	checkVideoBodySize(ctx, tooLarge, &diags)
	if len(diags) != 1 || diags[0].Summary() != "Video Too Large to Send" ||
		!strings.Contains(diags[0].Detail(), "description alone is 1.0 MiB") {
		t.Fatalf("a 1 MiB description of U+2028 gave %v, want Video Too Large to Send on description", diags)
	}
	if d, ok := diags[0].(diag.DiagnosticWithPath); !ok || d.Path().String() != "description" {
		t.Errorf("the error is not on description: %v", diags[0])
	}
}
