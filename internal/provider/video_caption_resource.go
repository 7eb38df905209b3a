package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

var (
	_ managedResource                 = (*videoCaptionResource)(nil)
	_ resource.ResourceWithModifyPlan = (*videoCaptionResource)(nil)
)

// videoCaptionResource is videohost_video_caption: a WebVTT caption file of a video for one
// language, and whether it is the video's default caption.
type videoCaptionResource struct {
	trackBase
}

// NewVideoCaptionResource returns the videohost_video_caption resource.
func NewVideoCaptionResource() resource.Resource {
	return &videoCaptionResource{newTrackBase("_video_caption", "Video Caption", "caption", captionOps.del)}
}

func (r *videoCaptionResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attrs := r.trackAttributes()
	attrs["default"] = schema.BoolAttribute{
		MarkdownDescription: "Whether the player shows this caption by default; changed in place. A video has at most " +
			"one default caption: making one the default unsets it on the others, so set it on one caption of a video " +
			"only. Default `false`.",
		Optional: true,
		Computed: true,
		Default:  booldefault.StaticBool(false),
	}
	attrs["language_name"] = keptString("Name of the language in that language, such as `English` or `Français`.")
	resp.Schema = schema.Schema{
		MarkdownDescription: "A caption of a video: a WebVTT file for one language. A changed file is uploaded again " +
			"in place (the service replaces the caption's file and keeps whether it is the default); `default` is " +
			"changed in place; a change of `video_id` or `language` replaces the caption. Import with " +
			"`videoId/language`.",
		Attributes: attrs,
	}
}

func (r *videoCaptionResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	// The whole create is one write for the rate-limit warning, the requests around the create's own included.
	defer noteRateLimitWaits(&resp.Diagnostics, rateWaitsNow(r.pd))
	plan, ok := configuredModel[videoCaptionModel](ctx, r.pd, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	c, sum, ok := createTrack(ctx, &r.trackBase, &resp.Diagnostics, plan.videoTrackModel, captionOps)
	if !ok {
		return
	}
	tflog.Debug(ctx, "uploaded caption", map[string]any{"video_id": plan.VideoID.ValueString(), "language": plan.Language.ValueString()})
	if plan.Default.ValueBool() && !c.Default {
		// The caption exists from here on, so it is recorded even if this fails; the next plan
		// shows default to change.
		if d, ok := setCaptionDefault(ctx, r.pd, plan.VideoID.ValueString(), plan.Language.ValueString(), true,
			"Unable to Make the Caption the Default", &resp.Diagnostics); ok {
			c = d
		}
	}
	state := captionModelFrom(plan.videoTrackModel, types.StringValue(sum), c)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
	resp.Diagnostics.Append(recordCaptionDefault(ctx, resp.Private, state.Default)...)
	resp.Diagnostics.Append(setTrackIdentity(ctx, resp.Identity, state.VideoID, state.Language)...)
}

func (r *videoCaptionResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, ok := modelOf[videoCaptionModel](ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	c, ok := readTrack(ctx, &r.trackBase, resp, state.videoTrackModel, captionOps.lookup)
	if !ok {
		return
	}
	newState := captionModelFrom(state.videoTrackModel, r.readSum(&resp.Diagnostics, state.videoTrackModel, c.Src), c)
	resp.Diagnostics.Append(resp.State.Set(ctx, &newState)...)
}

// Update uploads the file again when its hash differs from the state's (or the state has none,
// after an import), then sets default when it changed.
func (r *videoCaptionResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer noteRateLimitWaits(&resp.Diagnostics, rateWaitsNow(r.pd))
	plan, ok := configuredModel[videoCaptionModel](ctx, r.pd, req.Plan, &resp.Diagnostics)
	state, ok2 := modelOf[videoCaptionModel](ctx, req.State, &resp.Diagnostics)
	if !ok || !ok2 {
		return
	}
	videoID, language := state.VideoID.ValueString(), state.Language.ValueString()
	newState := state
	newState.SourceFile = plan.SourceFile
	if plan.SourceSHA256.IsUnknown() || !plan.SourceSHA256.Equal(state.SourceSHA256) {
		c, sum, ok := uploadTrack(ctx, &r.trackBase, &resp.Diagnostics, plan.videoTrackModel, captionOps.upload)
		if !ok {
			return
		}
		tflog.Debug(ctx, "uploaded caption again", map[string]any{"video_id": videoID, "language": language})
		newState = captionModelFrom(plan.videoTrackModel, types.StringValue(sum), c)
	}
	if !plan.Default.Equal(newState.Default) {
		if c, ok := setCaptionDefault(ctx, r.pd, videoID, language, plan.Default.ValueBool(),
			"Unable to Change the Default Caption", &resp.Diagnostics); ok {
			newState = captionModelFrom(newState.videoTrackModel, newState.SourceSHA256, c)
		}
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &newState)...)
	resp.Diagnostics.Append(recordCaptionDefault(ctx, resp.Private, newState.Default)...)
	resp.Diagnostics.Append(setTrackIdentity(ctx, resp.Identity, newState.VideoID, newState.Language)...)
}
