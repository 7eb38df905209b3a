package video_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/provider/video"
)

// planVideoThumbnailOf runs planVideoThumbnail on a plan and a state of a video that differ only
// in their thumbnail attributes, and returns its response. (The cases that write the file's hash
// record need the framework's private state, which only the framework makes: the acceptance
// tests cover them, and TestThumbnailUploads their choice.)
func planVideoThumbnailOf(t *testing.T, stateFile, stateSum, planFile types.String) resource.ModifyPlanResponse {
	t.Helper()
	ctx := t.Context()
	var sr resource.SchemaResponse
	video.NewVideoResource().Schema(ctx, resource.SchemaRequest{}, &sr)
	model := func(file, sum types.String) video.VideoResourceModel {
		m := video.EmptyVideoModel()
		m.ID, m.Title, m.SourceURL = types.StringValue("vi1"), types.StringValue("t"), types.StringValue("https://media.example.test/a.mp4")
		m.Tags, m.Metadata = video.StringSetValue{SetValue: types.SetNull(types.StringType)}, types.MapNull(types.StringType)
		m.Assets = types.ObjectNull(video.VideoResourceAssetsTypes)
		m.ThumbnailFile, m.ThumbnailSHA256 = file, sum
		return m
	}
	empty := tftypes.NewValue(sr.Schema.Type().TerraformType(ctx), nil)
	state := tfsdk.State{Schema: sr.Schema, Raw: empty}
	plan := tfsdk.Plan{Schema: sr.Schema, Raw: empty}
	if d := state.Set(ctx, new(model(stateFile, stateSum))); d.HasError() {
		t.Fatal(d)
	}
	if d := plan.Set(ctx, new(model(planFile, types.StringUnknown()))); d.HasError() {
		t.Fatal(d)
	}
	req := resource.ModifyPlanRequest{State: state, Plan: plan}
	resp := resource.ModifyPlanResponse{Plan: plan}
	got := model(planFile, types.StringUnknown())
	video.PlanVideoThumbnail(ctx, &got, req, &resp)
	return resp
}

func TestPlanVideoThumbnail(t *testing.T) {
	file := acctest.WritePNG(t, t.TempDir(), "poster.png", 16, 9, 3)
	sum := acctest.FileSHA256(t, file)

	// Removing the file keeps the image on the service, and the plan says so.
	resp := planVideoThumbnailOf(t, types.StringValue(file), types.StringValue(sum), types.StringNull())
	if resp.Diagnostics.HasError() || resp.Diagnostics.WarningsCount() != 1 || resp.Diagnostics.Warnings()[0].Summary() != "Video Thumbnail Kept" {
		t.Errorf("removing thumbnail_file: %v", resp.Diagnostics)
	}
	// Not an image: an error on thumbnail_file, when the plan is made.
	notImage := acctest.TempFile(t, t.TempDir(), "poster.png", "not an image")
	resp = planVideoThumbnailOf(t, types.StringNull(), types.StringNull(), types.StringValue(notImage))
	if !resp.Diagnostics.HasError() || resp.Diagnostics.Errors()[0].Summary() != "Invalid Image File" {
		t.Errorf("a file that is not an image: %v", resp.Diagnostics)
	}
}

func TestThumbnailUploads(t *testing.T) {
	file, a, b := types.StringValue("poster.png"), types.StringValue("aa"), types.StringValue("bb")
	null := types.StringNull()
	for _, c := range []struct {
		name      string
		file, sum types.String
		stateSum  *types.String
		want      bool
	}{
		{"a create", file, a, nil, true},
		{"the same content", file, a, &a, false},
		{"another content", file, b, &a, true},
		{"a thumbnail set outside Terraform (null hash)", file, a, &null, true},
		{"no file", null, null, &a, false},
	} {
		if got := framework.ThumbnailUploads(c.file, c.sum, c.stateSum); got != c.want {
			t.Errorf("%s: uploads %v, want %v", c.name, got, c.want)
		}
	}
}
