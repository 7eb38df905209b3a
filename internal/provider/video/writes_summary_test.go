package video

import (
	"encoding/json"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// TestVideoSummaryAttributesBodies: transcript_summary_attributes is sent sorted at creation
// (not at all when unset), in an update only when it changed, and removed it asks for every
// part again (the service's default, which an absent member would not restore).
func TestVideoSummaryAttributesBodies(t *testing.T) {
	ctx := t.Context()
	set := func(parts ...string) types.Set {
		v := make([]attr.Value, len(parts))
		for i, p := range parts {
			v[i] = types.StringValue(p)
		}
		return types.SetValueMust(types.StringType, v)
	}
	plan := EmptyVideoModel()
	if d := plan.setFromVideo(ctx, videohost.Video{ID: "vi1", Title: "t"}, framework.DefaultLabels{}, framework.ManagedLabels{}); d.HasError() {
		t.Fatal(d)
	}
	create, _ := videoCreateFrom(ctx, plan)
	if create.TranscriptSummaryAttributes != nil {
		t.Errorf("unset, the create sends %v", create.TranscriptSummaryAttributes)
	}
	plan.SummaryAttributes = set("takeaways", "abstract")
	create, _ = videoCreateFrom(ctx, plan)
	if body, _ := json.Marshal(create.TranscriptSummaryAttributes); string(body) != `["abstract","takeaways"]` {
		t.Errorf("the create sends %s", body)
	}
	state := plan
	for _, tc := range []struct {
		name  string
		parts types.Set
		want  string
	}{
		{"unchanged", set("abstract", "takeaways"), `{}`},
		{"changed", set("abstract"), `{"transcriptSummaryAttributes":["abstract"]}`},
		{"removed", types.SetNull(types.StringType), `{"transcriptSummaryAttributes":["abstract","takeaways"]}`},
		{"unknown", types.SetUnknown(types.StringType), `{}`},
	} {
		plan.SummaryAttributes = tc.parts
		in, d := videoUpdateFrom(ctx, plan, state)
		if d.HasError() {
			t.Fatal(d)
		}
		if body, _ := json.Marshal(in); string(body) != tc.want {
			t.Errorf("%s: the update sends %s, want %s", tc.name, body, tc.want)
		}
	}
}
