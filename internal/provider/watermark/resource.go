package watermark

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

var (
	_ framework.ManagedResource       = (*watermarkResource)(nil)
	_ resource.ResourceWithModifyPlan = (*watermarkResource)(nil)
)

// watermarkResource is videohost_watermark: an image uploaded once. The service keeps only
// its id and creation time and changes nothing of it, so a new image (a new SHA-256 of the
// file, taken at plan time) replaces the watermark; a new path to the same bytes does not: its
// update records the new path (or, after an import, the configuration's file) and sends
// nothing (withPlannedUpdate).
type watermarkResource struct {
	framework.DeletedByID
	framework.WithIDImport
	framework.WithPlannedUpdate
}

// NewWatermarkResource returns the videohost_watermark resource.
func NewWatermarkResource() resource.Resource {
	return &watermarkResource{
		DeletedByID:  framework.NewDeletedByID(WatermarkWrites),
		WithIDImport: framework.NewIDImport(WatermarkWrites, "watermarkId"),
	}
}

func (r *watermarkResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A watermark: a JPEG or PNG image that the service places on the videos created with it " +
			"(a video's `watermark`). The service keeps only its id and creation time, so the image is checked and " +
			"hashed from the local file when the plan is made: a change of the file's content (`source_sha256`) " +
			"replaces the watermark, a new path to the same content changes only the state. Videos made with a " +
			"watermark keep it after the watermark is deleted. Import by id; an imported watermark takes the file " +
			"of the configuration as its own on the next apply, without an upload.",
		Attributes: map[string]schema.Attribute{
			"id": framework.KeptString("Identifier of the watermark (the service's `watermarkId`), for a video's `watermark`."),
			"source_file": schema.StringAttribute{
				MarkdownDescription: "Path of the image file to upload: a JPEG or PNG, recognised by its content " +
					"(whatever its name) that is whole (checked without decoding its pixels) when the plan is made. No default: required.",
				Required: true,
			},
			"source_sha256": schema.StringAttribute{
				MarkdownDescription: "SHA-256 of `source_file`'s content (lowercase hex), taken when the plan is made. " +
					"A change replaces the watermark. Null after an import until the next apply.",
				Computed: true,
			},
			"created_at": framework.KeptString("When the watermark was uploaded, RFC 3339 (UTC)."),
		},
	}
}

func (r *watermarkResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, ok := framework.ConfiguredModel[watermarkModel](ctx, r.Pd, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	if _, err := framework.CheckPlannedImage(ctx, plan.SourceFile.ValueString(), plan.SourceSHA256.ValueString(), WatermarkImage); err != nil {
		framework.AddImageFileError(&resp.Diagnostics, path.Root("source_file"), "Unable to Create Watermark", err)
		return
	}
	w, ok := createWatermark(ctx, r.Pd, &resp.Diagnostics, plan.SourceFile.ValueString(), plan.SourceSHA256.ValueString())
	if !ok {
		return
	}
	tflog.Debug(ctx, "created watermark", map[string]any{"watermark_id": w.ID})
	state := watermarkModelFrom(w, &plan)
	resp.Diagnostics.Append(framework.SetStateAndIdentity(ctx, &resp.State, resp.Identity, &state, state.ID)...)
}

func (r *watermarkResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, ok := framework.ModelOf[watermarkModel](ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	w, ok := framework.ReadRemote(ctx, &r.ManagedBase, resp, state.ID, "", (*videohost.Client).LookupWatermark)
	if !ok {
		return
	}
	m := watermarkModelFrom(w, &state)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
