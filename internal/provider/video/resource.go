package video

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/videohost/terraform-provider-videohost/internal/localfile"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

var (
	_ framework.ManagedResource           = (*videoResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*videoResource)(nil)
	_ resource.ResourceWithValidateConfig = (*videoResource)(nil)
)

// videoResource is videohost_video: a video, its source (a local file uploaded in chunks, a URL
// the service fetches, or a copy of another video) and its metadata. The metadata changes in
// place with one PATCH; the source, the clip and the watermark exist only at creation, so a
// change of them replaces the video.
type videoResource struct {
	framework.DeletedByID
	framework.WithIDImport
}

// NewVideoResource returns the videohost_video resource.
func NewVideoResource() resource.Resource {
	return &videoResource{
		DeletedByID:  framework.NewDeletedByID(videoWrites),
		WithIDImport: framework.NewIDImport(videoWrites, "videoId"),
	}
}

// What wait_for takes: how far the service must have gone with the video before a create or an
// update that uploads ends.
const (
	waitUploaded = "uploaded"
	waitPlayable = "playable"
	waitEncoded  = "encoded"
)

// videoSummaryParts are the parts of a summary that transcript_summary_attributes may name,
// all of them when it is not set.
var videoSummaryParts = []string{"abstract", "takeaways"}

// timecodePattern is the service's timecode: HH:MM:SS, optionally with up to three digits of
// milliseconds.
var timecodePattern = regexp.MustCompile(`^\d{2}:[0-5]\d:[0-5]\d(\.\d{1,3})?$`)

// videoTimeoutsAttrTypes are the attributes of the timeouts block.
var videoTimeoutsAttrTypes = map[string]attr.Type{"create": types.StringType, "update": types.StringType}

// videoAttributePaths maps the members of POST and PATCH /videos, as a 400 names them, to the
// attributes of the resource. source is mapped per request (sourceAttribute).
var videoAttributePaths = func() map[string]path.Path {
	m := map[string]path.Path{
		"title": path.Root("title"), "description": path.Root("description"), "public": path.Root("public"),
		"panoramic": path.Root("panoramic"), "mp4Support": path.Root("mp4_support"), "playerId": path.Root("player_id"),
		"tags": path.Root("tags"), "metadata": path.Root("metadata"), "language": path.Root("language"),
		"transcript": path.Root("transcript"), "transcriptSummary": path.Root("transcript_summary"),
		"timecode": path.Root("thumbnail_timecode"), "file": path.Root("source_file"),
		"Content-Range": path.Root("source_file"), "videoId": path.Root("id"),
		"clip": path.Root("clip"), "clip[startTimecode]": path.Root("clip").AtName("start_timecode"),
		"clip[endTimecode]": path.Root("clip").AtName("end_timecode"),
		"watermark":         path.Root("watermark"), "watermark[id]": path.Root("watermark").AtName("id"),
	}
	for _, p := range videoWatermarkPositions {
		m["watermark["+p.wire+"]"] = path.Root("watermark").AtName(p.attr)
	}
	m["transcriptSummaryAttributes"] = path.Root("transcript_summary_attributes")
	return m
}()

// videoAttributesFor is videoAttributePaths with the service's source mapped to the attribute
// that set it in plan.
func videoAttributesFor(plan VideoResourceModel) map[string]path.Path {
	m := make(map[string]path.Path, len(videoAttributePaths)+1)
	for k, v := range videoAttributePaths {
		m[k] = v
	}
	m["source"] = path.Root("source_url")
	if !plan.SourceVideoID.IsNull() {
		m["source"] = path.Root("source_video_id")
	}
	return m
}

func timecodeValidator() validator.String {
	return stringvalidator.RegexMatches(timecodePattern,
		"must be a timecode HH:MM:SS, optionally with milliseconds (00:01:30 or 00:01:30.250)")
}

func (r *videoResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A video: its source and its metadata. The source is exactly one of `source_file` " +
			"(a local file, uploaded in chunks that resume after an interruption), `source_url` (a video on the " +
			"web that the service fetches) and `source_video_id` (a copy of another video). A change of the " +
			"source (the file's content included), of `clip` or of `watermark` replaces the video; every other " +
			"attribute changes in place. An upload that is interrupted (Ctrl-C, or a network failure that outlasts " +
			"the retries) leaves the video in the state with `source_bytes_missing` above 0 and a warning; the " +
			"next apply sends only what the service lacks. Import with the video's id.",
		Attributes: videoAttributes(),
		Blocks: map[string]schema.Block{
			"timeouts": framework.TimeoutsBlock(ctx, timeouts.Opts{Create: true, Update: true}),
		},
	}
}

// videoAttributes are the attributes of videohost_video: its metadata, its source and what the
// service computes.
func videoAttributes() map[string]schema.Attribute {
	attrs := videoMetadataAttributes()
	for k, v := range videoSourceSchema() {
		attrs[k] = v
	}
	for k, v := range videoComputedAttributes() {
		attrs[k] = v
	}
	for k, v := range videoLabelsAttributes() {
		attrs[k] = v
	}
	addVideoThumbnailAttributes(attrs)
	return attrs
}

// videoLanguageDescription describes a video's language, one of the service's list.
const videoLanguageDescription = "Language of the video, one of the service's languages for a video (`ar`, `ca`, `cs`, `da`, " +
	"`de`, `el`, `en`, `es`, `fa`, `fi`, `fr`, `he`, `hi`, `hr`, `hu`, `it`, `ja`, `ko`, `ml`, `nl`, `nn`, `no`, `pl`, " +
	"`pt`, `ru`, `sk`, `sl`, `te`, `tr`, `uk`, `ur`, `vi`, `zh`: bare tags, no region). Unset, " +
	"the service detects it once the source is ingested and this attribute shows what it found, which " +
	"is not a change. A change starts a new transcript. A tag that is not on the list (`english` or `en-US` for " +
	"`en`) is refused when the plan is made, with the tag meant."

// videoMetadataAttributes are the attributes that change in place.
func videoMetadataAttributes() map[string]schema.Attribute {
	attrs := videoTranscriptAttributes()
	maps.Copy(attrs, map[string]schema.Attribute{
		"id": framework.KeptString("Identifier of the video (the service's `videoId`)."),
		"title": schema.StringAttribute{
			MarkdownDescription: fmt.Sprintf("Title of the video, at most %d characters. Required; must not be blank.", maxVideoTitle),
			Required:            true,
			Validators:          []validator.String{framework.NotBlank(), titleLengthCheck()},
		},
		"description": schema.StringAttribute{
			MarkdownDescription: "Description of the video. Default empty: removing it clears the description.",
			Optional:            true,
			Computed:            true,
			Default:             stringdefault.StaticString(""),
		},
		"public": schema.BoolAttribute{
			MarkdownDescription: "Whether anyone may watch; `false` makes every view need a private token. Default `true`.",
			Optional:            true, Computed: true, Default: booldefault.StaticBool(true),
		},
		"panoramic": schema.BoolAttribute{
			MarkdownDescription: "Whether the video is a 360° video. Default `false`.",
			Optional:            true, Computed: true, Default: booldefault.StaticBool(false),
		},
		"mp4_support": schema.BoolAttribute{
			MarkdownDescription: "Whether an mp4 of the video can be downloaded (`assets.mp4`). Default `true`.",
			Optional:            true, Computed: true, Default: booldefault.StaticBool(true),
		},
		"player_id": schema.StringAttribute{
			MarkdownDescription: "Id of the player theme of the video's player (`videohost_player_theme.<name>.id`). " +
				"No default: the service's own player. Removing it detaches the theme.",
			Optional:   true,
			Validators: framework.ServiceIDValidators("a player theme (its playerId)", "videohost_player_themes"),
		},
		"tags": schema.SetAttribute{
			MarkdownDescription: fmt.Sprintf("Tags of the video, at most %d of 1 to %d characters each. Default "+
				"none; a change sends the whole set.", maxVideoTags, maxVideoTag),
			CustomType:  NewStringSetType(),
			ElementType: types.StringType,
			Validators:  []validator.Set{videoTagsCheck{}},
			Optional:    true, Computed: true,
			Default: setdefault.StaticValue(types.SetValueMust(types.StringType, []attr.Value{})),
		},
		"metadata": schema.MapAttribute{
			MarkdownDescription: fmt.Sprintf("Metadata of the video, key to value: at most %d pairs, keys of 1 to %d "+
				"characters, values of at most %d. Default none; a change sends the whole map. A key that the service "+
				"holds with different values (set by another client) reads as the JSON array of its values, drift that "+
				"the next apply puts right.",
				maxVideoMetadata, maxVideoMetadataKey, maxVideoMetadataValue),
			ElementType: types.StringType,
			Validators:  []validator.Map{videoMetadataCheck{}},
			Optional:    true, Computed: true,
			Default: mapdefault.StaticValue(types.MapValueMust(types.StringType, map[string]attr.Value{})),
		},
		"language": schema.StringAttribute{
			MarkdownDescription: videoLanguageDescription,
			Optional:            true, Computed: true,
			Validators:    []validator.String{framework.VideoLanguageValidator()},
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseNonNullStateForUnknown()},
		},
		"thumbnail_timecode": schema.StringAttribute{
			MarkdownDescription: "Time of the frame that becomes the thumbnail, `HH:MM:SS` with optional milliseconds " +
				"(`00:00:05.250`); set once the source is uploaded. No default: the service's own thumbnail. " +
				"Removing it keeps the last thumbnail chosen.",
			Optional:   true,
			Validators: []validator.String{timecodeValidator()},
		},
	})
	return attrs
}

// videoTranscriptAttributes are the attributes of the transcript and its summary, which the
// service does not show back.
func videoTranscriptAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"transcript": schema.BoolAttribute{
			MarkdownDescription: "Whether the service makes a transcript of the video. Default `false`. The service " +
				"does not show it, so a change made outside Terraform is not seen.",
			Optional: true, Computed: true, Default: booldefault.StaticBool(false),
		},
		"transcript_summary": schema.BoolAttribute{
			MarkdownDescription: "Whether the service makes a summary of the transcript. Default `false`. The service " +
				"refuses a second summary (409) once one exists or is being made. The summary it makes is listed by " +
				"`videohost_summaries`; import it into a `videohost_video_summary` to read or correct its text.",
			Optional: true, Computed: true, Default: booldefault.StaticBool(false),
		},
		"transcript_summary_attributes": schema.SetAttribute{
			MarkdownDescription: "The parts of the summary that `transcript_summary` asks for: `abstract`, `takeaways`, " +
				"or both. No default: the service makes a full summary (both). The service does not show it, so a " +
				"change made outside Terraform is not seen; removing it asks for both parts again. It applies to a " +
				"summary made after it is set.",
			ElementType: types.StringType,
			Optional:    true,
			Validators: []validator.Set{
				setvalidator.SizeAtLeast(1),
				setvalidator.ValueStringsAre(stringvalidator.OneOf(videoSummaryParts...)),
			},
		},
	}
}

// videoSourceSchema are the attributes of the source, and those that exist only at creation.
func videoSourceSchema() map[string]schema.Attribute {
	replaceOnlyAtCreation := "It exists only at creation: the service never shows it, and a change replaces the video."
	watermark := map[string]schema.Attribute{
		"id": schema.StringAttribute{
			MarkdownDescription: "Id of the watermark image (`videohost_watermark.<name>.id`). Required.",
			Required:            true,
			Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
		},
	}
	for _, p := range videoWatermarkPositions {
		// The position and the size are lengths; the opacity is a percentage.
		example := "a length such as `10px` or `5%`"
		if p.attr == "opacity" {
			example = "a percentage such as `70%` (`100%` is opaque)"
		}
		watermark[p.attr] = schema.StringAttribute{
			MarkdownDescription: fmt.Sprintf("The watermark's %s: %s, as the service takes it. No default.", p.attr, example),
			Optional:            true,
		}
	}
	return map[string]schema.Attribute{
		"source_file": schema.StringAttribute{
			MarkdownDescription: fmt.Sprintf("Path of a local video file to upload as the source: a regular, "+
				"non-empty file of at most %s, read by ranges (never whole in memory) and sent in chunks of the "+
				"provider's `upload_chunk_size_mib`. Its SHA-256 is taken at plan time (`source_sha256`): a change "+
				"of content replaces the video; a new path to the same bytes does not. Exactly one of `source_file`, "+
				"`source_url` and `source_video_id`.", localfile.HumanBytes(videohost.MaxSourceSize)),
			Optional: true,
		},
		"source_url": schema.StringAttribute{
			MarkdownDescription: "Address (http or https) of a video on the web that the service fetches as the " +
				"source. A change replaces the video. Exactly one of `source_file`, `source_url` and `source_video_id`.",
			Optional:   true,
			Validators: []validator.String{framework.HttpURLValidator()},
		},
		"source_video_id": schema.StringAttribute{
			MarkdownDescription: "Id of a video of the workspace whose source is copied. A change replaces the video. " +
				"Exactly one of `source_file`, `source_url` and `source_video_id`.",
			Optional:   true,
			Validators: framework.ServiceIDValidators("a video (its videoId)", "videohost_videos"),
		},
		"source_sha256": schema.StringAttribute{
			MarkdownDescription: "Lowercase hex SHA-256 of `source_file`, taken at plan time; null for the other " +
				"sources. The apply refuses a file whose bytes are no longer these.",
			Computed: true,
		},
		"source_bytes_missing": schema.Int64Attribute{
			MarkdownDescription: "How many bytes of `source_file` the service still lacks: `0` once the upload is " +
				"complete (and for the other sources). Above 0 after an interrupted upload; the next apply " +
				"resumes it and sends only those bytes. Null when the service's status could not be read after an " +
				"upload, so that how much it holds is not known: the next refresh reads it. Always taken from the " +
				"service's status or its answers to the chunks, and `0` whenever `playable` is true.",
			Computed: true,
		},
		"clip": schema.SingleNestedAttribute{
			MarkdownDescription: "Keep only a part of the source. " + replaceOnlyAtCreation,
			Optional:            true,
			Attributes: map[string]schema.Attribute{
				"start_timecode": schema.StringAttribute{
					MarkdownDescription: "Start of the part, `HH:MM:SS` with optional milliseconds. No default: the start.",
					Optional:            true, Validators: []validator.String{timecodeValidator()},
				},
				"end_timecode": schema.StringAttribute{
					MarkdownDescription: "End of the part, `HH:MM:SS` with optional milliseconds. No default: the end.",
					Optional:            true, Validators: []validator.String{timecodeValidator()},
				},
			},
		},
		"watermark": schema.SingleNestedAttribute{
			MarkdownDescription: "A watermark image placed on the video. " + replaceOnlyAtCreation,
			Optional:            true,
			Attributes:          watermark,
		},
	}
}

// videoComputedAttributes are wait_for and what the service computes.
func videoComputedAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"wait_for": schema.StringAttribute{
			MarkdownDescription: "How far the service must have gone before the create (or an update that uploads) " +
				"ends: `uploaded` (the whole source arrived), `playable` (a first quality is encoded) or `encoded` " +
				"(every quality is encoded). Bounded by `timeouts`; a quality that fails is an error that names it. " +
				"Default `uploaded`.",
			Optional: true, Computed: true, Default: stringdefault.StaticString(waitUploaded),
			Validators: []validator.String{stringvalidator.OneOf(waitUploaded, waitPlayable, waitEncoded)},
		},
		"created_at": framework.KeptString("Creation time of the video, RFC 3339."),
		"updated_at": schema.StringAttribute{MarkdownDescription: "Time of the video's last change, RFC 3339.", Computed: true},
		"published_at": framework.KeptString("Publication time of the video, RFC 3339; null when none. The service sets it when the " +
			"video is made and no attribute changes it, so an update plans it as it is."),
		"assets": videoAssetsAttribute(),
		"playable": schema.BoolAttribute{
			MarkdownDescription: "Whether a first quality of the video is encoded, so that it can be watched; null " +
				"until the service's status was read.",
			Computed:      true,
			PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()},
		},
	}
}

func (r *videoResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	// The whole create (its upload included) is one write for the rate-limit warning.
	defer framework.NoteRateLimitWaits(&resp.Diagnostics, framework.RateWaitsNow(r.Pd))
	plan, ok := framework.ConfiguredModel[VideoResourceModel](ctx, r.Pd, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	timeout, d := plan.Timeouts.Create(ctx, videoDefaultTimeout)
	resp.Diagnostics.Append(d...)
	if d.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	// A file that changed since the plan is refused before a video is made for it; the plan's
	// record of its hash spares reading it when it is unchanged. The upload reads the file opened
	// here.
	var opened openedSource
	if !plan.SourceFile.IsNull() {
		var ok bool
		if opened, ok = openVideoSource(ctx, &plan, resp.Private, "No video was created", &resp.Diagnostics); !ok {
			return
		}
		defer opened.File.Close()
	}
	in, d := videoCreateFrom(ctx, plan)
	resp.Diagnostics.Append(d...)
	if d.HasError() {
		return
	}
	v, ok := createVideo(ctx, r.Pd, &resp.Diagnostics, in, videoAttributesFor(plan))
	if !ok {
		return
	}
	tflog.Debug(ctx, "created video", map[string]any{"video_id": v.ID})
	managed := configuredLabels(ctx, plan)
	framework.StoreManagedLabels(ctx, resp.Private, managed, &resp.Diagnostics)
	state := plan
	state.SourceBytesMissing = types.Int64Value(0)
	state.Playable = types.BoolUnknown()
	resp.Diagnostics.Append(state.setFromVideo(ctx, v, labelsOf(r.Pd), managed)...)
	complete := true
	if !plan.SourceFile.IsNull() {
		state.SourceBytesMissing = types.Int64Null()
		complete = uploadVideoSource(ctx, r.Pd, &state, resp.Private, opened, &resp.Diagnostics)
	}
	if complete && !framework.Interrupted(ctx) && !resp.Diagnostics.HasError() {
		finishVideo(ctx, r.Pd, &state, plan, true, true, videoWaitLimit(plan, "create", timeout), &resp.Diagnostics)
	}
	if !framework.Interrupted(ctx) {
		writeVideoThumbnail(ctx, r.Pd, &state, plan, nil, resp.Private, &resp.Diagnostics)
	}
	readVideoBack(ctx, r.Pd, &state, managed, &resp.Diagnostics)
	state.nullUnknowns()
	resp.Diagnostics.Append(framework.SetStateAndIdentity(ctx, &resp.State, resp.Identity, &state, state.ID)...)
}

func (r *videoResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, ok := framework.ModelOf[VideoResourceModel](ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	v, ok := framework.ReadRemote(ctx, &r.ManagedBase, resp, state.ID,
		", uploading its source again", (*videohost.Client).LookupVideo)
	if !ok {
		return
	}
	imported := state.Title.IsNull()
	if imported {
		// Only the id is known: what the service does not show takes its default, and the
		// source's state comes from the status.
		m := EmptyVideoModel()
		m.ID = state.ID
		m.Timeouts = state.Timeouts
		state = m
		if s := v.Source; s != nil && (strings.HasPrefix(s.URI, "https://") || strings.HasPrefix(s.URI, "http://")) {
			state.SourceURL = types.StringValue(s.URI)
		}
	}
	if imported || !state.Playable.ValueBool() || state.sourceUnsettled() {
		// What is missing of the source is read again as long as anything may be: an upload
		// that the service completed (a retried chunk, another apply) is then no longer resumed.
		st, err := r.Pd.Client.GetVideoStatus(ctx, state.ID.ValueString())
		if err != nil {
			framework.AddAPIErrorDiagnostics(&resp.Diagnostics, "Unable to Read Video Status", err, r.Pd, videoAttributePaths)
			return
		}
		state.setFromStatus(st)
		if imported {
			state.SourceBytesMissing = missingFromStatus(st)
			if st.Ingest == nil && state.SourceURL.IsNull() {
				warnVideoHasNoSource(state.ID.ValueString(), &resp.Diagnostics)
			}
		}
	}
	state.keepPlayableWhole()
	resp.Diagnostics.Append(state.setFromVideo(ctx, v, labelsOf(r.Pd), framework.LoadManagedLabels(ctx, req.Private))...)
	if state.Timeouts.IsNull() || state.Timeouts.IsUnknown() {
		state.Timeouts = timeouts.Value{Object: types.ObjectNull(videoTimeoutsAttrTypes)}
	}
	checkVideoThumbnail(ctx, &state, v, req.Private, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *videoResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer framework.NoteRateLimitWaits(&resp.Diagnostics, framework.RateWaitsNow(r.Pd))
	plan, ok := framework.ConfiguredModel[VideoResourceModel](ctx, r.Pd, req.Plan, &resp.Diagnostics)
	state, ok2 := framework.ModelOf[VideoResourceModel](ctx, req.State, &resp.Diagnostics)
	if !ok || !ok2 {
		return
	}
	timeout, d := plan.Timeouts.Update(ctx, videoDefaultTimeout)
	resp.Diagnostics.Append(d...)
	if d.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	in, d := videoUpdateFrom(ctx, plan, state)
	resp.Diagnostics.Append(d...)
	if d.HasError() {
		return
	}
	next := plan
	next.ID = state.ID
	resuming := resumesUpload(plan, state)
	if resuming {
		// The upload records what it leaves missing; it starts from what the state says.
		next.SourceBytesMissing = state.SourceBytesMissing
	}
	// What the configuration set before the update and what it sets after it are Terraform's to
	// change; every other value that an ignore rule matches is kept as the service holds it.
	managed := configuredLabels(ctx, plan)
	if !keptIgnoredLabels(ctx, r.Pd, state.ID.ValueString(), &in,
		framework.LoadManagedLabels(ctx, req.Private).With(managed.Tags, managed.MetadataKeys), &resp.Diagnostics) {
		return
	}
	if !in.IsEmpty() {
		v, ok := updateVideo(ctx, r.Pd, state.ID.ValueString(), in, videoAttributesFor(plan), &resp.Diagnostics)
		if !ok {
			return
		}
		resp.Diagnostics.Append(next.setFromVideo(ctx, v, labelsOf(r.Pd), managed)...)
	}
	resumed, complete := false, true
	if resuming {
		opened, ok := openVideoSource(ctx, &next, resp.Private, "The source of video "+state.ID.ValueString()+" was not uploaded",
			&resp.Diagnostics)
		if ok {
			defer opened.File.Close()
		}
		complete = ok && uploadVideoSource(ctx, r.Pd, &next, resp.Private, opened, &resp.Diagnostics)
		resumed = complete
	}
	if complete && !framework.Interrupted(ctx) && !resp.Diagnostics.HasError() {
		// A thumbnail planned while the source was incomplete is set once it is complete.
		thumb := !plan.ThumbnailTimecode.IsNull() && (resumed || !plan.ThumbnailTimecode.Equal(state.ThumbnailTimecode))
		wait := resumed || !plan.WaitFor.Equal(state.WaitFor)
		finishVideo(ctx, r.Pd, &next, plan, thumb, wait, videoWaitLimit(plan, "update", timeout), &resp.Diagnostics)
	}
	if !framework.Interrupted(ctx) {
		writeVideoThumbnail(ctx, r.Pd, &next, plan, &state, resp.Private, &resp.Diagnostics)
	}
	framework.StoreManagedLabels(ctx, resp.Private, managed, &resp.Diagnostics)
	readVideoBack(ctx, r.Pd, &next, managed, &resp.Diagnostics)
	if !plan.Assets.IsUnknown() {
		// Planned from the state: addresses that only their tokens change (a private video's)
		// keep what the plan said.
		next.Assets = plan.Assets
	}
	next.nullUnknowns()
	resp.Diagnostics.Append(framework.SetStateAndIdentity(ctx, &resp.State, resp.Identity, &next, next.ID)...)
}

// videoAssetsAttribute is the video's assets attribute; its type is videoResourceAssetsTypes.
func videoAssetsAttribute() schema.SingleNestedAttribute {
	return framework.ResourceAssetsAttribute("Addresses of the video's outputs. They change with `public`, `mp4_support` "+
		"and `thumbnail_timecode`, and never otherwise.", true)
}
