package video

// The requests of videohost_video, in one place so that the resource's methods hold none of
// their own: the create (through the shared create machinery, adopting what a create of
// unknown outcome stored), the update, the upload of a source file and its resumption, and the
// thumbnail. The wait for wait_for and the read-back after a write are video_wait.go's.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/videohost/terraform-provider-videohost/internal/localfile"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// VideoUploadIncomplete is the one summary of every warning of an apply that left a source the
// service holds only part of, so that a user searching for it finds each (and the
// troubleshooting guide's entry). The plan that resumes the upload does not use it: Terraform
// prints that plan's warnings again after an apply that completed the upload.
const VideoUploadIncomplete = "Video Upload Incomplete"

// createVideo creates a video; a create whose outcome is unknown adopts the video it stored:
// the videos are listed with the service's title filter, and the one with the same values,
// created since the attempt, is taken.
func createVideo(ctx context.Context, pd *framework.ProviderData, diags *diag.Diagnostics, in videohost.VideoCreate, attrs map[string]path.Path) (videohost.Video, bool) {
	t := videoWrites
	t.Attrs = attrs
	return framework.CreateObject(ctx, pd, t, diags, framework.AdoptionCreateOps(pd, framework.AdoptableCreate[videohost.Video]{
		Kind: "video", Path: "/videos",
		Create: func(ctx context.Context) (videohost.Video, error) { return pd.Client.CreateVideo(ctx, in) },
		List: func(ctx context.Context) ([]videohost.Video, error) {
			return pd.Client.ListVideos(ctx, videohost.VideoFilter{Title: in.Title})
		},
		Matches: func(v videohost.Video) bool { return videoHolds(v, in) },
		Id:      func(v videohost.Video) string { return v.ID },
		Created: func(v videohost.Video) *time.Time { return v.CreatedAt },
	}))
}

// videoHolds reports whether v has the values that in sends and the service shows.
func videoHolds(v videohost.Video, in videohost.VideoCreate) bool {
	orDefault := func(b *bool, def bool) bool {
		if b == nil {
			return def
		}
		return *b
	}
	tags := slices.Clone(v.Tags)
	want := slices.Clone(in.Tags)
	slices.Sort(tags)
	slices.Sort(want)
	return v.Title == in.Title && v.Description == in.Description && v.Public == orDefault(in.Public, true) &&
		v.Panoramic == orDefault(in.Panoramic, false) && v.MP4Support == orDefault(in.MP4Support, true) &&
		v.PlayerID == in.PlayerID && slices.Equal(tags, want) && len(v.Metadata) == len(in.Metadata)
}

// videoCreateFrom is the body of the create of plan.
func videoCreateFrom(ctx context.Context, plan VideoResourceModel) (videohost.VideoCreate, diag.Diagnostics) {
	var diags diag.Diagnostics
	in := videohost.VideoCreate{
		Title:             plan.Title.ValueString(),
		Description:       plan.Description.ValueString(),
		Public:            plan.Public.ValueBoolPointer(),
		Panoramic:         plan.Panoramic.ValueBoolPointer(),
		MP4Support:        plan.MP4Support.ValueBoolPointer(),
		PlayerID:          plan.PlayerID.ValueString(),
		Language:          plan.Language.ValueString(),
		Transcript:        plan.Transcript.ValueBoolPointer(),
		TranscriptSummary: plan.TranscriptSummary.ValueBoolPointer(),
	}
	in.Tags, in.Metadata = videoTagsAndMetadata(ctx, plan, &diags)
	in.TranscriptSummaryAttributes = videoSummaryAttributes(ctx, plan, &diags)
	switch {
	case !plan.SourceURL.IsNull():
		in.Source = plan.SourceURL.ValueString()
	case !plan.SourceVideoID.IsNull():
		in.Source = plan.SourceVideoID.ValueString()
	}
	if !plan.Clip.IsNull() && !plan.Clip.IsUnknown() {
		a := plan.Clip.Attributes()
		in.Clip = &videohost.VideoClip{StartTimecode: stringAttr(a, "start_timecode"), EndTimecode: stringAttr(a, "end_timecode")}
	}
	if !plan.Watermark.IsNull() && !plan.Watermark.IsUnknown() {
		a := plan.Watermark.Attributes()
		in.Watermark = &videohost.VideoWatermark{
			ID: stringAttr(a, "id"), Top: stringAttr(a, "top"), Left: stringAttr(a, "left"), Bottom: stringAttr(a, "bottom"),
			Right: stringAttr(a, "right"), Width: stringAttr(a, "width"), Height: stringAttr(a, "height"), Opacity: stringAttr(a, "opacity"),
		}
	}
	return in, diags
}

// stringAttr is the string attribute name of an object's attributes; "" when null.
func stringAttr(attrs map[string]attr.Value, name string) string {
	if s, ok := attrs[name].(types.String); ok {
		return s.ValueString()
	}
	return ""
}

// videoTagsAndMetadata are the plan's tags and metadata as the service takes them, the
// provider's defaults merged in (tags_all and metadata_all), sorted so that the same values
// always send the same body. Before the provider is configured (no plan of tags_all), the
// video's own values.
func videoTagsAndMetadata(ctx context.Context, plan VideoResourceModel, diags *diag.Diagnostics) ([]string, []videohost.Metadata) {
	tagsFrom, mdFrom := plan.TagsAll, plan.MetadataAll
	if tagsFrom.IsUnknown() || tagsFrom.IsNull() {
		tagsFrom = plan.Tags.SetValue
	}
	if mdFrom.IsUnknown() || mdFrom.IsNull() {
		mdFrom = plan.Metadata
	}
	tags, _ := knownStrings(ctx, tagsFrom, diags)
	slices.Sort(tags)
	md, _ := knownMap(ctx, mdFrom, diags)
	return tags, metadataList(md)
}

// videoUpdateFrom is the PATCH that takes the video from state to plan: only what changed,
// tags and metadata whole.
func videoUpdateFrom(ctx context.Context, plan, state VideoResourceModel) (videohost.VideoUpdate, diag.Diagnostics) {
	var diags diag.Diagnostics
	var in videohost.VideoUpdate
	if !plan.Title.IsUnknown() && !plan.Title.Equal(state.Title) {
		in.Title = videohost.Value(plan.Title.ValueString())
	}
	if !plan.Description.IsUnknown() && !plan.Description.Equal(state.Description) {
		in.Description = videohost.Value(plan.Description.ValueString())
	}
	for _, b := range []struct {
		plan, state types.Bool
		field       *videohost.Field[bool]
	}{
		{plan.Public, state.Public, &in.Public}, {plan.Panoramic, state.Panoramic, &in.Panoramic},
		{plan.MP4Support, state.MP4Support, &in.MP4Support}, {plan.Transcript, state.Transcript, &in.Transcript},
		{plan.TranscriptSummary, state.TranscriptSummary, &in.TranscriptSummary},
	} {
		if !b.plan.IsUnknown() && !b.plan.IsNull() && !b.plan.Equal(b.state) {
			*b.field = videohost.Value(b.plan.ValueBool())
		}
	}
	switch {
	case plan.PlayerID.Equal(state.PlayerID) || plan.PlayerID.IsUnknown():
	case plan.PlayerID.IsNull():
		in.PlayerID = videohost.Null[string]()
	default:
		in.PlayerID = videohost.Value(plan.PlayerID.ValueString())
	}
	if !plan.Language.IsUnknown() && !plan.Language.IsNull() && !plan.Language.Equal(state.Language) {
		in.Language = videohost.Value(plan.Language.ValueString())
	}
	// Tags and metadata are sent whole when what the service should hold changed: a change of
	// the video's own values that a default already gives (or the reverse) sends nothing.
	tags, md := videoTagsAndMetadata(ctx, plan, &diags)
	if !plan.Tags.IsUnknown() && !labelsEqual(plan.TagsAll, state.TagsAll, plan.Tags.SetValue, state.Tags.SetValue) {
		in.Tags = videohost.Value(tags)
	}
	if !plan.Metadata.IsUnknown() && !labelsEqual(plan.MetadataAll, state.MetadataAll, plan.Metadata, state.Metadata) {
		in.Metadata = videohost.Value(md)
	}
	if !plan.SummaryAttributes.IsUnknown() && !plan.SummaryAttributes.Equal(state.SummaryAttributes) {
		parts := videoSummaryAttributes(ctx, plan, &diags)
		if parts == nil {
			// Removed: the service's default, a full summary, is asked for again.
			parts = videoSummaryParts
		}
		in.TranscriptSummaryAttributes = videohost.Value(parts)
	}
	return in, diags
}

// videoSummaryAttributes are the parts of the summary that plan asks for, sorted so that the
// same set always sends the same body; nil when it names none.
func videoSummaryAttributes(ctx context.Context, plan VideoResourceModel, diags *diag.Diagnostics) []string {
	if plan.SummaryAttributes.IsNull() || plan.SummaryAttributes.IsUnknown() {
		return nil
	}
	var parts []string
	diags.Append(plan.SummaryAttributes.ElementsAs(ctx, &parts, false)...)
	slices.Sort(parts)
	return parts
}

// labelsEqual reports whether the planned merged values (planAll) are those of the state
// (stateAll). With no plan of them (the provider was not configured), whether the video's own
// values are; a state that lacks them (written before they existed, not refreshed) is sent to.
func labelsEqual(planAll, stateAll, planOwn, stateOwn attr.Value) bool {
	switch {
	case planAll.IsNull() || planAll.IsUnknown():
		return planOwn.Equal(stateOwn)
	case stateAll.IsNull():
		return false
	}
	return planAll.Equal(stateAll)
}

// updateVideo sends the PATCH of in to video id; false, with the error on attrs, when it failed.
func updateVideo(ctx context.Context, pd *framework.ProviderData, id string, in videohost.VideoUpdate, attrs map[string]path.Path,
	diags *diag.Diagnostics,
) (videohost.Video, bool) {
	v, err := pd.Client.UpdateVideo(ctx, id, in)
	if err != nil {
		framework.AddAPIErrorDiagnostics(diags, "Unable to Update Video", err, pd, attrs)
		return v, false
	}
	return v, true
}

// openedSource is a source file opened for its upload, checked against the plan's hash
// (openPlannedSource); the caller closes file.
type openedSource struct {
	File *os.File
	Src  videohost.UploadSource
	id   localfile.Identity
}

// OpenPlannedSource opens the source file name for its upload through localfile.OpenPlanned,
// trusting rec (the plan's record of its hash) while the file is unchanged, and keeps the
// record of a file it had to read again.
func OpenPlannedSource(ctx context.Context, name, planned string, rec localfile.Record) (openedSource, error) {
	f, id, now, err := localfile.OpenPlanned(name, planned, rec)
	if now.SHA256 != "" {
		framework.KeepHashRecord(ctx, name, now)
	}
	if err != nil {
		return openedSource{}, err
	}
	return openedSource{File: f, Src: videohost.UploadSource{Name: name, Reader: f, Size: id.Size}, id: id}, nil
}

// openVideoSource is the one step that opens the source file of plan (a create's, or an
// update's that resumes the upload of the existing video) before anything of it is sent: it
// must still be the file planned, which the plan's record of its hash (kept in priv) says
// without reading it while the file is unchanged. False, with an error on source_file, when it
// is not the file planned or cannot be read; notDone says what was therefore not done, as a
// sentence's start ("No video was created").
func openVideoSource(ctx context.Context, plan *VideoResourceModel, priv framework.PrivateReader, notDone string, diags *diag.Diagnostics) (openedSource, bool) {
	name := plan.SourceFile.ValueString()
	opened, err := OpenPlannedSource(ctx, name, plan.SourceSHA256.ValueString(), framework.LoadHashRecord(ctx, priv, "source_file", name))
	var changed *localfile.ChangedError
	switch {
	case errors.As(err, &changed):
		diags.AddAttributeError(path.Root("source_file"), "Source File Changed", fmt.Sprintf(
			"%s: %v. Nothing of it was sent. Run terraform plan (or apply) again: the plan then takes the file as it "+
				"is now.", notDone, err))
		return openedSource{}, false
	case err != nil:
		diags.AddAttributeError(path.Root("source_file"), "Unable to Read Source File", fmt.Sprintf(
			"%s: %v. Nothing of it was sent; make the file readable and run terraform apply again.", notDone, err))
		return openedSource{}, false
	}
	return opened, true
}

// uploadVideoSource uploads (or resumes) the source file of the video of state, which the plan
// hashed as state.SourceSHA256 and the caller opened and checked (opened), and records in state
// how much is still missing. It reports whether the service now holds the whole file. An
// interrupted or failed upload is a warning: the video is recorded with what it lacks and the
// next apply resumes it. A file that is not the one planned is an error. The plan's record of
// its hash (kept in priv) says it is unchanged without reading it, and the upload hashes the
// file beside the chunks it sends, checking that they hold the bytes hashed; the record of that
// hash then replaces the plan's.
func uploadVideoSource(ctx context.Context, pd *framework.ProviderData, state *VideoResourceModel, priv framework.PrivateState, opened openedSource, diags *diag.Diagnostics) bool {
	name, id := state.SourceFile.ValueString(), state.ID.ValueString()
	planned := state.SourceSHA256.ValueString()
	src, fileID := opened.Src, opened.id
	if state.SourceBytesMissing.IsNull() || state.SourceBytesMissing.IsUnknown() {
		state.SourceBytesMissing = types.Int64Value(src.Size)
	}
	tflog.Info(ctx, "uploading the source of a video", map[string]any{"video_id": id, "file": name, "bytes": src.Size})
	sent := localfile.NewHasher()
	_, err := pd.Client.UploadVideoSource(ctx, id, src, videohost.UploadOptions{Hash: sent})
	var inc *videohost.UploadIncompleteError
	switch {
	case err == nil:
	case errors.As(err, &inc) && inc.StatusUnread:
		warnUploadUnconfirmed(state, inc, diags)
		return false
	case errors.As(err, &inc) && !errors.Is(err, videohost.ErrSourceChanged):
		missing := inc.Total - inc.Sent
		state.SourceBytesMissing = types.Int64Value(missing)
		why := "a network failure or a server error outlasted the retries"
		if errors.Is(err, videohost.ErrInterrupted) || framework.Interrupted(ctx) {
			why = "Terraform was interrupted (or its timeout elapsed)"
		}
		diags.AddAttributeWarning(path.Root("source_file"), VideoUploadIncomplete, fmt.Sprintf(
			"The upload of %s to video %s stopped before it was complete: %s. The service has %d of its %d bytes; "+
				"%d bytes (%s) are missing. The video is recorded in the state with source_bytes_missing = %d, and "+
				"the next terraform apply resumes the upload, sending only the missing bytes; thumbnail_timecode "+
				"and wait_for are applied then. Cause: %v", name, id, why, inc.Sent, inc.Total, missing,
			framework.ApproxBytes(missing), missing, inc.Err))
		return false
	case errors.Is(err, videohost.ErrSourceChanged):
		// The same summary as a change of content found after the upload: to the user both are
		// a file written while it was uploaded, and which one is seen depends on timing. Only the
		// cause is quoted: the incomplete upload's own words say that sending the same file
		// again resumes it, which is not true of a file that changed.
		diags.AddAttributeError(path.Root("source_file"), "Source File Changed During Upload", fmt.Sprintf(
			"The upload of %s to video %s was stopped because the file changed while it was uploaded (%v). The "+
				"video does not hold this file and is marked for replacement (tainted): run terraform apply again once "+
				"the file is no longer written to; the video is then replaced by one with the file as it is then.",
			name, id, UploadCause(err)))
		return false
	default:
		framework.AddAPIErrorDiagnostics(diags, "Unable to Upload Video Source", err, pd, videoAttributesFor(*state))
		return false
	}
	rec := sent.Record(fileID)
	framework.KeepHashRecord(ctx, name, rec)
	if rec.SHA256 != planned {
		AddSentHashError(state, opened, rec, diags)
		return false
	}
	framework.StoreHashRecord(ctx, priv, "source_file", rec, diags)
	state.SourceBytesMissing = types.Int64Value(0)
	return true
}

// UploadCause is what stopped an upload: the cause an *videohost.UploadIncompleteError
// carries, or err itself.
func UploadCause(err error) error {
	var inc *videohost.UploadIncompleteError
	if errors.As(err, &inc) && inc.Err != nil {
		return inc.Err
	}
	return err
}

// AddSentHashError is the error of an upload whose bytes (of record sent) do not have the
// SHA-256 planned. When the open file's identity is still the one it had when it was opened,
// the file did not change: the plan's hash was wrong (a record of the file's hash that did not
// tell the truth), and the message says so rather than blaming the file.
func AddSentHashError(state *VideoResourceModel, opened openedSource, sent localfile.Record, diags *diag.Diagnostics) {
	name, id, planned := state.SourceFile.ValueString(), state.ID.ValueString(), state.SourceSHA256.ValueString()
	if now, err := localfile.IdentityOfOpen(opened.File); err == nil && now == opened.id {
		diags.AddAttributeError(path.Root("source_file"), "Planned Source SHA-256 Was Wrong", fmt.Sprintf(
			"The upload of %s to video %s completed and the file did not change while it was uploaded (its size, "+
				"times and inode are those it had when it was opened), but the bytes sent have the SHA-256 %s, not "+
				"the %s that the plan showed: the plan trusted a record of the file's hash that was wrong, kept in "+
				"the resource's private state or in the cache of hashes on disk (%s). The video is marked for "+
				"replacement (tainted). Delete that cache directory (or set %s to an empty value to keep none) and "+
				"run terraform plan again: the plan then reads the file whole.",
			name, id, sent.SHA256, planned, localfile.CacheDirEnv, localfile.CacheDirEnv))
		return
	}
	err := &localfile.ChangedError{Path: name, Planned: planned, Now: sent.SHA256, When: "while it was uploaded"}
	diags.AddAttributeError(path.Root("source_file"), "Source File Changed During Upload", fmt.Sprintf(
		"The upload of video %s completed, but %v (the SHA-256 of the bytes sent), so the service may hold "+
			"some bytes of each version. The video is marked for replacement (tainted): run terraform apply "+
			"again once the file is no longer written to.", id, err))
}

// warnUploadUnconfirmed records an upload whose status could not be read, before it began or
// after its last chunk: how much the service holds is not known, so source_bytes_missing is null
// rather than a count the service never gave (0 would claim a complete source, the file's size
// an empty one). The next refresh reads the status and records what it says.
func warnUploadUnconfirmed(state *VideoResourceModel, inc *videohost.UploadIncompleteError, diags *diag.Diagnostics) {
	state.SourceBytesMissing = types.Int64Null()
	diags.AddAttributeWarning(path.Root("source_file"), "Video Upload Not Confirmed", fmt.Sprintf(
		"The service's status of video %s could not be read, so how many of the %d bytes of %s it holds is not "+
			"known. The video is recorded in the state with source_bytes_missing = null (unknown). The next terraform "+
			"plan reads the status: if the service holds the whole file, nothing is sent again; otherwise the apply "+
			"resumes the upload and sends only what is missing. Cause: %v", state.ID.ValueString(), inc.Total,
		state.SourceFile.ValueString(), inc.Err))
}

// setThumbnail picks the planned frame as the video's thumbnail; false on an error (added).
func setThumbnail(ctx context.Context, pd *framework.ProviderData, state *VideoResourceModel, timecode types.String, diags *diag.Diagnostics) (videohost.Video, bool) {
	v, err := pd.Client.SetVideoThumbnailTimecode(ctx, state.ID.ValueString(), timecode.ValueString())
	if err != nil {
		framework.AddAPIErrorDiagnostics(diags, "Unable to Set Video Thumbnail", err, pd, videoAttributesFor(*state))
		return v, false
	}
	state.ThumbnailTimecode = timecode
	return v, true
}

// videoWrites names the video for the shared create and delete machinery.
var videoWrites = framework.WriteTarget{Kind: "Video", DeleteByID: (*videohost.Client).DeleteVideo, Attrs: videoAttributePaths}

// writeVideoThumbnail uploads plan's thumbnail file when it is new or changed over prior (nil
// on a create) into state, the model the apply records; an upload that fails leaves state with
// prior's file and hash (a null hash on a create), so that the next plan uploads it again.
func writeVideoThumbnail(ctx context.Context, pd *framework.ProviderData, state *VideoResourceModel, plan VideoResourceModel,
	prior *VideoResourceModel, private framework.PrivateWriter, diags *diag.Diagnostics,
) {
	if plan.ThumbnailFile.IsNull() {
		if prior != nil && !prior.ThumbnailFile.IsNull() {
			framework.RecordThumbnailAddress(ctx, private, "", diags)
		}
		return
	}
	if prior != nil && !prior.ThumbnailSHA256.IsNull() && plan.ThumbnailSHA256.Equal(prior.ThumbnailSHA256) {
		return
	}
	id := state.ID.ValueString()
	_, ok := framework.UploadThumbnail(ctx, pd, plan.ThumbnailFile, plan.ThumbnailSHA256, private,
		func(ctx context.Context, src videohost.UploadSource) (videohost.Video, error) {
			return pd.Client.UploadVideoThumbnail(ctx, id, src)
		}, videoThumbnailAddress, diags)
	if ok {
		return
	}
	state.ThumbnailFile, state.ThumbnailSHA256 = plan.ThumbnailFile, types.StringNull()
	if prior != nil {
		state.ThumbnailFile, state.ThumbnailSHA256 = prior.ThumbnailFile, prior.ThumbnailSHA256
	}
}

// keptIgnoredLabels adds to in what the service holds of video id that the ignore rules leave to
// other systems, so that a PATCH of the whole tags or metadata removes none of it. It reads the
// video only when a rule is set and the PATCH carries tags or metadata. managed are the tags and
// keys that the configuration sets, before and after the update: those are Terraform's, never
// kept. The pairs of an ignored key are kept as the service holds them, each of them.
func keptIgnoredLabels(ctx context.Context, pd *framework.ProviderData, id string, in *videohost.VideoUpdate,
	managed framework.ManagedLabels, diags *diag.Diagnostics,
) bool {
	l := pd.Labels
	sentTags, tags := in.Tags.Get()
	sentMD, md := in.Metadata.Get()
	tags, md = tags && !l.IgnoreTags.IsEmpty(), md && !l.IgnoreMetadata.IsEmpty()
	if !tags && !md {
		return true
	}
	v, err := pd.Client.GetVideo(ctx, id)
	if err != nil {
		framework.AddAPIErrorDiagnostics(diags, "Unable to Read Video", err, pd, videoAttributePaths)
		return false
	}
	if tags {
		_, ignored := framework.HeldTags(v.Tags, l.IgnoreTags, managed.Tags)
		in.Tags = videohost.Value(framework.MergeTags(sentTags, ignored))
	}
	if md {
		_, ignored := framework.HeldMetadata(metadataMap(v.Metadata), l.IgnoreMetadata, managed.MetadataKeys)
		sent := slices.Clone(sentMD)
		for _, kv := range v.Metadata {
			if _, ok := ignored[kv.Key]; ok {
				sent = append(sent, kv)
			}
		}
		slices.SortStableFunc(sent, func(a, b videohost.Metadata) int { return strings.Compare(a.Key, b.Key) })
		in.Metadata = videohost.Value(sent)
	}
	return true
}

// VideoHasNoSourceSummary is the summary of the warning of the import of a video that has no
// source: one made through the API and never uploaded.
const VideoHasNoSourceSummary = "Video Has No Source"

// warnVideoHasNoSource says, at the import of video id, that the service holds no source for it
// (no byte arrived and it was given no address or video to copy), so that it cannot play, and
// what to set in its configuration.
func warnVideoHasNoSource(id string, diags *diag.Diagnostics) {
	diags.AddWarning(VideoHasNoSourceSummary, fmt.Sprintf(
		"Video %s has no source: it was made through the API and never given a file, an address or a video to "+
			"copy, so it cannot play. Set its source in the configuration: source_file, the path of a local video "+
			"file, uploads that file into this video, which keeps its id; source_url (a video on the web) or "+
			"source_video_id (a video to copy) replaces it with a new video made from that source, since the "+
			"service takes those only when it creates a video.", id))
}
