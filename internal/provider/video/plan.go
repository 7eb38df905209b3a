package video

// The checks of videohost_video that need no request, at validation and plan time, and the
// plan's choices: the source file's SHA-256, what replaces the video, and the resumption of an
// upload that an earlier apply left incomplete.

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/videohost/terraform-provider-videohost/internal/localfile"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// videoSourceAttributes are the attributes of which exactly one names the source.
var videoSourceAttributes = []string{"source_file", "source_url", "source_video_id"}

func (m VideoResourceModel) sources() []types.String {
	return []types.String{m.SourceFile, m.SourceURL, m.SourceVideoID}
}

// ValidateConfig refuses a configuration with no source or more than one. The source file itself
// is checked by ModifyPlan, at plan time: terraform validate looks at the configuration only, and
// may run where the media are not (a lint job).
func (r *videoResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cfg VideoResourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var set []string
	unknown := false
	for i, v := range cfg.sources() {
		switch {
		case v.IsUnknown():
			unknown = true
		case !v.IsNull():
			set = append(set, videoSourceAttributes[i])
		}
	}
	switch {
	case len(set) > 1:
		for _, name := range set[1:] {
			resp.Diagnostics.AddAttributeError(path.Root(name), "Conflicting Video Sources", fmt.Sprintf(
				"A video has exactly one source, and this configuration sets %s. Keep one of them and remove the others.",
				strings.Join(set, " and ")))
		}
	case len(set) == 0 && !unknown:
		// A configuration that terraform plan -generate-config-out wrote for an imported video has
		// no source when the service gives none back (an uploaded file, or no source at all): the
		// detail says which to set there, and the import's warning said what the video has.
		resp.Diagnostics.AddAttributeError(path.Root("source_file"), "Missing Video Source",
			"A video needs exactly one source: set source_file (the path of a local video file to upload), "+
				"source_url (the address of a video on the web) or source_video_id (the id of a video to copy). "+
				"For an imported video (a configuration that -generate-config-out wrote), set source_file to the "+
				"file the video was uploaded from, or, for a video that has no source, to the file to upload into "+
				"it: the video keeps its id. source_url or source_video_id replace a video that has no source with "+
				"a new video made from them. The import's warning says whether the video has a source.")
	}
	checkVideoBodySize(ctx, cfg, &resp.Diagnostics)
}

// ModifyPlan takes the source file's SHA-256, decides what replaces the video (a change of
// source, of the file's content, of clip or of watermark), and plans the resumption of an
// upload that is incomplete.
func (r *videoResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	plan, ok := framework.ModelOf[VideoResourceModel](ctx, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	file, ok := planSourceSHA256(ctx, &plan, req, resp)
	if !ok || !PlanVideoThumbnail(ctx, &plan, req, resp) {
		return
	}
	planVideoLabels(ctx, &plan, labelsOf(r.Pd), &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if req.State.Raw.IsNull() {
		resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
		return
	}
	state, ok := framework.ModelOf[VideoResourceModel](ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	replace, ok := r.replacements(ctx, plan, state, file, resp)
	if !ok {
		return
	}
	if len(replace) > 0 {
		resp.RequiresReplace = append(resp.RequiresReplace, replace...)
		resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
		return
	}

	resuming := resumesUpload(plan, state)
	switch {
	case resuming:
		planResumedUpload(ctx, req.Config, &plan, state, file, &resp.Diagnostics)
	case state.SourceBytesMissing.IsNull():
		plan.SourceBytesMissing = types.Int64Value(0)
	default:
		plan.SourceBytesMissing = state.SourceBytesMissing
	}
	if !plan.WaitFor.Equal(state.WaitFor) {
		plan.Playable = types.BoolUnknown()
	}
	thumbnail := !plan.ThumbnailTimecode.IsNull() && (resuming || !plan.ThumbnailTimecode.Equal(state.ThumbnailTimecode))
	if !plan.Public.Equal(state.Public) || !plan.MP4Support.Equal(state.MP4Support) || thumbnail {
		// The service gives new addresses: tokens for a private video, an mp4 or none, a new
		// thumbnail.
		plan.Assets = types.ObjectUnknown(VideoResourceAssetsTypes)
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
	if resp.Diagnostics.HasError() || resp.Plan.Raw.Equal(req.State.Raw) {
		return
	}
	planFilledLater(ctx, req.Config, &plan, state, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// planFilledLater leaves unknown, in a plan that updates the video, what the service may fill
// in between the plan and its apply, so that the apply may record what the service then shows:
// the language it detects once the source is ingested (when the configuration does not set it
// and the state has none yet), and the time of the video's last change. The framework does so
// itself when the video's configuration changed; a plan that only the provider's default labels,
// an incomplete upload or the thumbnail make an update leaves the prior values planned, and a
// saved plan applied after the service had detected the language failed as an inconsistent
// result. What the service fills in and the video does not plan (playable, assets) is recorded
// as planned by the update and read by the next refresh.
func planFilledLater(ctx context.Context, config tfsdk.Config, plan *VideoResourceModel, state VideoResourceModel, diags *diag.Diagnostics) {
	var configured types.String
	diags.Append(config.GetAttribute(ctx, path.Root("language"), &configured)...)
	if configured.IsNull() && state.Language.IsNull() {
		plan.Language = types.StringUnknown()
	}
	plan.UpdatedAt = types.StringUnknown()
}

// planSourceSHA256 plans source_sha256 from the file that source_file names, which it checks
// without a request (trusting the record of its hash kept in the private state while the file is
// unchanged); false, with an error on source_file, when the file cannot be uploaded.
func planSourceSHA256(ctx context.Context, plan *VideoResourceModel, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) (localfile.SourceFile, bool) {
	var file localfile.SourceFile
	switch {
	case plan.SourceFile.IsUnknown():
		plan.SourceSHA256 = types.StringUnknown()
	case plan.SourceFile.IsNull():
		plan.SourceSHA256 = types.StringNull()
	default:
		var problem string
		name := plan.SourceFile.ValueString()
		prior := framework.LoadHashRecord(ctx, req.Private, "source_file", name)
		file, problem = localfile.InspectSource(name, videohost.MaxSourceSize, prior)
		if problem != "" {
			resp.Diagnostics.AddAttributeError(path.Root("source_file"), "Invalid Source File", "source_file "+problem+".")
			return file, false
		}
		framework.KeepNewHashRecord(ctx, name, prior, file.Record)
		framework.StoreHashRecord(ctx, resp.Private, "source_file", file.Record, &resp.Diagnostics)
		plan.SourceSHA256 = types.StringValue(file.SHA256)
	}
	return file, true
}

// resumesUpload reports whether an update of state to plan resumes the upload of the source:
// the video has a file as its source, and the service lacks some of its bytes (or none were
// ever counted).
func resumesUpload(plan, state VideoResourceModel) bool {
	return !plan.SourceFile.IsNull() && (state.SourceBytesMissing.IsNull() || state.SourceBytesMissing.ValueInt64() > 0)
}

// planResumedUpload plans an update that resumes the upload of file. It is a change that no
// attribute of the configuration made: what the apply changes on the service is not known yet
// (the service detects the language once the source is in). The plan says it through
// source_bytes_missing, known after apply, and no warning: Terraform prints a plan's warnings
// again at the end of the apply that carries it out, where a resumption that completed must
// read as the completed update it is. An apply that cannot finish it says so in its own
// diagnostics. What was planned, and why, goes to the log.
func planResumedUpload(ctx context.Context, config tfsdk.Config, plan *VideoResourceModel, state VideoResourceModel,
	file localfile.SourceFile, diags *diag.Diagnostics,
) {
	plan.SourceBytesMissing = types.Int64Unknown()
	plan.Playable = types.BoolUnknown()
	plan.PublishedAt = types.StringUnknown()
	var configured types.String
	diags.Append(config.GetAttribute(ctx, path.Root("language"), &configured)...)
	if configured.IsNull() {
		// A language the service detected is detected again from the whole source.
		plan.Language = types.StringUnknown()
	}
	missing := "unknown" // no status read since the last upload
	if !state.SourceBytesMissing.IsNull() {
		missing = strconv.FormatInt(state.SourceBytesMissing.ValueInt64(), 10)
	}
	// The file is the one uploaded before, or, for a video imported by id (no hash in its state),
	// the one whose size is the size the service was given.
	same := "sha256"
	if state.SourceSHA256.IsNull() {
		same = "size"
	}
	tflog.Info(ctx, "planned to resume the upload of a video's source", map[string]any{
		"video_id": state.ID.ValueString(), "file": file.Path, "missing_bytes": missing,
		"total_bytes": strconv.FormatInt(file.Size, 10), "same_file_by": same,
	})
}

// replacements are the attributes whose change replaces the video. A video imported by id has
// no source, clip or watermark in its state: the configuration's are taken as they are, except
// a source file whose size is not the size of the source the service holds.
func (r *videoResource) replacements(ctx context.Context, plan, state VideoResourceModel, file localfile.SourceFile, resp *resource.ModifyPlanResponse) (path.Paths, bool) {
	var replace path.Paths
	imported := state.SourceFile.IsNull() && state.SourceURL.IsNull() && state.SourceVideoID.IsNull()
	if imported {
		created := !plan.SourceURL.IsNull() || !plan.SourceVideoID.IsNull()
		if (file.Size == 0 && !created) || r.Pd == nil {
			return nil, true
		}
		st, err := r.Pd.Client.GetVideoStatus(ctx, state.ID.ValueString())
		if err != nil {
			framework.AddAPIErrorDiagnostics(&resp.Diagnostics, "Unable to Read Video Status", err, r.Pd, videoAttributePaths)
			return nil, false
		}
		if created && st.Ingest == nil {
			// The service takes an address or a video to copy only when it creates a video: one
			// that has no source gets it through a new video.
			name := "source_url"
			if plan.SourceURL.IsNull() {
				name = "source_video_id"
			}
			resp.Diagnostics.AddAttributeWarning(path.Root(name), "Imported Video Has No Source", fmt.Sprintf(
				"When the plan was made, video %s had no source (it was made through the API and never given one), "+
					"and the service takes %s only when it creates a video: the plan replaced it with a new video made "+
					"from %s, and the video without a source is deleted. To keep its id, set source_file instead: the "+
					"file is then uploaded into it.", state.ID.ValueString(), name, name))
			return append(replace, path.Root(name)), true
		}
		if file.Size > 0 && st.Ingest != nil && st.Ingest.Filesize != nil && *st.Ingest.Filesize != file.Size {
			resp.Diagnostics.AddAttributeWarning(path.Root("source_file"), "Imported Video Holds Another Source", fmt.Sprintf(
				"When the plan was made, video %s held a source of %d bytes, and %s had %d: it is not this file, so "+
					"the plan replaced the video with one made from this file.", state.ID.ValueString(), *st.Ingest.Filesize,
				file.Path, file.Size))
			replace = append(replace, path.Root("source_file"))
		}
		return replace, true
	}
	if !plan.SourceURL.Equal(state.SourceURL) {
		replace = append(replace, path.Root("source_url"))
	}
	if !plan.SourceVideoID.Equal(state.SourceVideoID) {
		replace = append(replace, path.Root("source_video_id"))
	}
	switch {
	case plan.SourceFile.IsUnknown() || plan.SourceFile.IsNull() != state.SourceFile.IsNull():
		replace = append(replace, path.Root("source_file"))
	case !plan.SourceFile.IsNull() && !state.SourceSHA256.IsNull() && !plan.SourceSHA256.Equal(state.SourceSHA256):
		// The same path or another: what counts is the content.
		replace = append(replace, path.Root("source_sha256"))
	}
	if !plan.Clip.Equal(state.Clip) {
		replace = append(replace, path.Root("clip"))
	}
	if !plan.Watermark.Equal(state.Watermark) {
		replace = append(replace, path.Root("watermark"))
	}
	return replace, true
}
