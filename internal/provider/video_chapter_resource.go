package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

var (
	_ managedResource                 = (*videoChapterResource)(nil)
	_ resource.ResourceWithModifyPlan = (*videoChapterResource)(nil)
)

// videoChapterResource is videohost_video_chapter: a WebVTT file of a video's chapters for one
// language.
type videoChapterResource struct {
	trackBase
}

// NewVideoChapterResource returns the videohost_video_chapter resource.
func NewVideoChapterResource() resource.Resource {
	return &videoChapterResource{newTrackBase("_video_chapter", "Video Chapter", "chapter file", chapterOps.del)}
}

func (r *videoChapterResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The chapters of a video for one language: a WebVTT file whose cues are the chapters' " +
			"titles and times. A changed file is uploaded again in place (the service replaces the file); a change of " +
			"`video_id` or `language` replaces the chapter file. Import with `videoId/language`.",
		Attributes: r.trackAttributes(),
	}
}

func (r *videoChapterResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	// The whole create is one write for the rate-limit warning, the requests around the create's own included.
	defer noteRateLimitWaits(&resp.Diagnostics, rateWaitsNow(r.pd))
	plan, ok := configuredModel[videoChapterModel](ctx, r.pd, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	c, sum, ok := createTrack(ctx, &r.trackBase, &resp.Diagnostics, plan.videoTrackModel, chapterOps)
	if !ok {
		return
	}
	tflog.Debug(ctx, "uploaded chapters", map[string]any{"video_id": plan.VideoID.ValueString(), "language": plan.Language.ValueString()})
	state := chapterModelFrom(plan.videoTrackModel, types.StringValue(sum), c)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
	resp.Diagnostics.Append(setTrackIdentity(ctx, resp.Identity, state.VideoID, state.Language)...)
}

func (r *videoChapterResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, ok := modelOf[videoChapterModel](ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	c, ok := readTrack(ctx, &r.trackBase, resp, state.videoTrackModel, chapterOps.lookup)
	if !ok {
		return
	}
	newState := chapterModelFrom(state.videoTrackModel, r.readSum(&resp.Diagnostics, state.videoTrackModel, c.Src), c)
	resp.Diagnostics.Append(resp.State.Set(ctx, &newState)...)
}

// Update uploads the file again when its hash differs from the state's (or the state has none,
// after an import); a change of the path alone to a file of the same content sends nothing.
func (r *videoChapterResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer noteRateLimitWaits(&resp.Diagnostics, rateWaitsNow(r.pd))
	plan, ok := configuredModel[videoChapterModel](ctx, r.pd, req.Plan, &resp.Diagnostics)
	state, ok2 := modelOf[videoChapterModel](ctx, req.State, &resp.Diagnostics)
	if !ok || !ok2 {
		return
	}
	newState := state
	newState.SourceFile = plan.SourceFile
	if plan.SourceSHA256.IsUnknown() || !plan.SourceSHA256.Equal(state.SourceSHA256) {
		c, sum, ok := uploadTrack(ctx, &r.trackBase, &resp.Diagnostics, plan.videoTrackModel, chapterOps.upload)
		if !ok {
			return
		}
		tflog.Debug(ctx, "uploaded chapters again", map[string]any{"video_id": state.VideoID.ValueString(), "language": state.Language.ValueString()})
		newState = chapterModelFrom(plan.videoTrackModel, types.StringValue(sum), c)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &newState)...)
	resp.Diagnostics.Append(setTrackIdentity(ctx, resp.Identity, newState.VideoID, newState.Language)...)
}
