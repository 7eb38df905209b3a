package provider

// The requests of videohost_video, in one place so that the resource's methods hold none of
// their own: the create (through the shared create machinery, adopting what a create of
// unknown outcome stored), the upload of a source file and its resumption, the thumbnail, and
// the wait for the service to reach wait_for.

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

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// createVideo creates a video; a create whose outcome is unknown adopts the video it stored:
// the videos are listed with the service's title filter, and the one with the same values,
// created since the attempt, is taken.
func createVideo(ctx context.Context, pd *providerData, diags *diag.Diagnostics, in videohost.VideoCreate, attrs map[string]path.Path) (videohost.Video, bool) {
	t := videoWrites
	t.attrs = attrs
	return createObject(ctx, pd, t, diags, adoptionCreateOps(pd, adoptableCreate[videohost.Video]{
		kind: "video", path: "/videos",
		create: func(ctx context.Context) (videohost.Video, error) { return pd.client.CreateVideo(ctx, in) },
		list: func(ctx context.Context) ([]videohost.Video, error) {
			return pd.client.ListVideos(ctx, videohost.VideoFilter{Title: in.Title})
		},
		matches: func(v videohost.Video) bool { return videoHolds(v, in) },
		id:      func(v videohost.Video) string { return v.ID },
		created: func(v videohost.Video) *time.Time { return v.CreatedAt },
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
func videoCreateFrom(ctx context.Context, plan videoResourceModel) (videohost.VideoCreate, diag.Diagnostics) {
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

// videoTagsAndMetadata are the plan's tags and metadata as the service takes them: metadata
// in the order of its keys, so that the same map always sends the same body.
func videoTagsAndMetadata(ctx context.Context, plan videoResourceModel, diags *diag.Diagnostics) ([]string, []videohost.Metadata) {
	var tags []string
	if !plan.Tags.IsNull() && !plan.Tags.IsUnknown() {
		diags.Append(plan.Tags.ElementsAs(ctx, &tags, false)...)
	}
	slices.Sort(tags)
	var md map[string]string
	if !plan.Metadata.IsNull() && !plan.Metadata.IsUnknown() {
		diags.Append(plan.Metadata.ElementsAs(ctx, &md, false)...)
	}
	keys := make([]string, 0, len(md))
	for k := range md {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]videohost.Metadata, 0, len(keys))
	for _, k := range keys {
		out = append(out, videohost.Metadata{Key: k, Value: md[k]})
	}
	return tags, out
}

// videoUpdateFrom is the PATCH that takes the video from state to plan: only what changed,
// tags and metadata whole.
func videoUpdateFrom(ctx context.Context, plan, state videoResourceModel) (videohost.VideoUpdate, diag.Diagnostics) {
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
	tags, md := videoTagsAndMetadata(ctx, plan, &diags)
	if !plan.Tags.IsUnknown() && !plan.Tags.Equal(state.Tags) {
		in.Tags = videohost.Value(tags)
	}
	if !plan.Metadata.IsUnknown() && !plan.Metadata.Equal(state.Metadata) {
		in.Metadata = videohost.Value(md)
	}
	return in, diags
}

// openedSource is a source file opened for its upload, checked against the plan's hash
// (openPlannedSource); the caller closes file.
type openedSource struct {
	file *os.File
	src  videohost.UploadSource
	id   fileIdentity
}

// openVideoSource opens the source file of the existing video of state for an upload that
// resumes it; false, with an error on source_file, when it is not the file planned or cannot be
// read.
func openVideoSource(ctx context.Context, state *videoResourceModel, priv privateReader, diags *diag.Diagnostics) (openedSource, bool) {
	name, id := state.SourceFile.ValueString(), state.ID.ValueString()
	f, src, fileID, err := openPlannedSource(name, state.SourceSHA256.ValueString(), loadHashRecord(ctx, priv, "source_file", name))
	var changed *fileChangedError
	switch {
	case errors.As(err, &changed):
		diags.AddAttributeError(path.Root("source_file"), "Source File Changed", fmt.Sprintf(
			"The source of video %s was not uploaded: %v. Nothing of it was sent. Run terraform plan (or apply) again: "+
				"the new content replaces the video.", id, err))
		return openedSource{}, false
	case err != nil:
		diags.AddAttributeError(path.Root("source_file"), "Unable to Read Source File", fmt.Sprintf(
			"The source of video %s was not uploaded: %v. Nothing of it was sent; make the file readable and run "+
				"terraform apply again.", id, err))
		return openedSource{}, false
	}
	return openedSource{file: f, src: src, id: fileID}, true
}

// uploadVideoSource uploads (or resumes) the source file of the video of state, which the plan
// hashed as state.SourceSHA256 and the caller opened and checked (opened), and records in state
// how much is still missing. It reports whether the service now holds the whole file. An
// interrupted or failed upload is a warning: the video is recorded with what it lacks and the
// next apply resumes it. A file that is not the one planned is an error. The plan's record of
// its hash (kept in priv) says it is unchanged without reading it, and the upload hashes the
// file beside the chunks it sends, checking that they hold the bytes hashed; the record of that
// hash then replaces the plan's.
func uploadVideoSource(ctx context.Context, pd *providerData, state *videoResourceModel, priv privateState, opened openedSource, diags *diag.Diagnostics) bool {
	name, id := state.SourceFile.ValueString(), state.ID.ValueString()
	planned := state.SourceSHA256.ValueString()
	src, fileID := opened.src, opened.id
	if state.SourceBytesMissing.IsNull() || state.SourceBytesMissing.IsUnknown() {
		state.SourceBytesMissing = types.Int64Value(src.Size)
	}
	tflog.Info(ctx, "uploading the source of a video", map[string]any{"video_id": id, "file": name, "bytes": src.Size})
	sent := newFileHasher(name)
	_, err := pd.client.UploadVideoSource(ctx, id, src, videohost.UploadOptions{Hash: sent})
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
		if errors.Is(err, videohost.ErrInterrupted) || interrupted(ctx) {
			why = "Terraform was interrupted (or its timeout elapsed)"
		}
		diags.AddAttributeWarning(path.Root("source_file"), "Video Upload Incomplete", fmt.Sprintf(
			"The upload of %s to video %s stopped before it was complete: %s. The service has %d of its %d bytes; "+
				"%d bytes (%s) are missing. The video is recorded in the state with source_bytes_missing = %d, and "+
				"the next terraform apply resumes the upload, sending only the missing bytes; thumbnail_timecode "+
				"and wait_for are applied then. Cause: %v", name, id, why, inc.Sent, inc.Total, missing,
			approxBytes(missing), missing, inc.Err))
		return false
	case errors.Is(err, videohost.ErrSourceChanged):
		// The same summary as a change of content found after the upload: to the user both are
		// a file written while it was uploaded, and which one is seen depends on timing.
		diags.AddAttributeError(path.Root("source_file"), "Source File Changed During Upload", fmt.Sprintf(
			"The upload of %s to video %s was stopped because the file changed while it was uploaded: %v. The "+
				"video does not hold this file and is marked for replacement: run terraform apply again once the "+
				"file is written.", name, id, err))
		return false
	default:
		addAPIErrorDiagnostics(diags, "Unable to Upload Video Source", err, pd, videoAttributesFor(*state))
		return false
	}
	rec := sent.record(fileID)
	if rec.SHA256 != planned {
		err := &fileChangedError{Path: name, Planned: planned, Now: rec.SHA256, When: "while it was uploaded"}
		diags.AddAttributeError(path.Root("source_file"), "Source File Changed During Upload", fmt.Sprintf(
			"The upload of video %s completed, but %v (the SHA-256 of the bytes sent), so the service may hold "+
				"some bytes of each version. The video is marked for replacement (tainted): run terraform apply "+
				"again once the file is no longer written to.", id, err))
		return false
	}
	storeHashRecord(ctx, priv, "source_file", rec, diags)
	state.SourceBytesMissing = types.Int64Value(0)
	return true
}

// warnUploadUnconfirmed records an upload whose status could not be read, before it began or
// after its last chunk: how much the service holds is not known, so source_bytes_missing is null
// rather than a count the service never gave (0 would claim a complete source, the file's size
// an empty one). The next refresh reads the status and records what it says.
func warnUploadUnconfirmed(state *videoResourceModel, inc *videohost.UploadIncompleteError, diags *diag.Diagnostics) {
	state.SourceBytesMissing = types.Int64Null()
	diags.AddAttributeWarning(path.Root("source_file"), "Video Upload Not Confirmed", fmt.Sprintf(
		"The service's status of video %s could not be read, so how many of the %d bytes of %s it holds is not "+
			"known. The video is recorded in the state with source_bytes_missing = null (unknown). The next terraform "+
			"plan reads the status: if the service holds the whole file, nothing is sent again; otherwise the apply "+
			"resumes the upload and sends only what is missing. Cause: %v", state.ID.ValueString(), inc.Total,
		state.SourceFile.ValueString(), inc.Err))
}

// approxBytes writes a size in MiB with one decimal, or in bytes below 1 MiB.
func approxBytes(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

// setThumbnail picks the planned frame as the video's thumbnail; false on an error (added).
func setThumbnail(ctx context.Context, pd *providerData, state *videoResourceModel, timecode types.String, diags *diag.Diagnostics) (videohost.Video, bool) {
	v, err := pd.client.SetVideoThumbnailTimecode(ctx, state.ID.ValueString(), timecode.ValueString())
	if err != nil {
		addAPIErrorDiagnostics(diags, "Unable to Set Video Thumbnail", err, pd, videoAttributesFor(*state))
		return v, false
	}
	state.ThumbnailTimecode = timecode
	return v, true
}

// Bounds of the pause between two reads of a video's status while waiting.
const (
	waitFirstPause = 500 * time.Millisecond
	waitMaxPause   = 10 * time.Second
)

// waitForVideo reads the video's status until it reaches want (wait_for), a quality fails, or
// ctx ends; it logs where the video stands between reads.
func waitForVideo(ctx context.Context, pd *providerData, id, want string) (videohost.VideoStatus, error) {
	pause := waitFirstPause
	start := time.Now()
	for {
		st, err := pd.client.GetVideoStatus(ctx, id)
		if err != nil {
			return st, err
		}
		if failed := failedQualities(st); len(failed) > 0 {
			return st, &qualityFailedError{failed}
		}
		if videoReached(st, want) {
			tflog.Info(ctx, "video reached wait_for", map[string]any{"video_id": id, "wait_for": want, "waited": time.Since(start).String()})
			return st, nil
		}
		encoded, total := encodedQualities(st)
		ingest := "no byte received"
		if st.Ingest != nil {
			ingest = st.Ingest.Status
		}
		tflog.Info(ctx, "waiting for the video", map[string]any{
			"video_id": id, "wait_for": want, "ingest": ingest, "playable": st.Encoding.Playable,
			"qualities_encoded": fmt.Sprintf("%d of %d", encoded, total), "waited": time.Since(start).String(),
		})
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return st, ctx.Err()
		case <-t.C:
		}
		pause = min(pause*3/2, waitMaxPause)
	}
}

// videoReached reports whether a status has reached wait_for.
func videoReached(st videohost.VideoStatus, want string) bool {
	switch want {
	case waitPlayable:
		return st.Encoding.Playable
	case waitEncoded:
		encoded, total := encodedQualities(st)
		return st.Complete() && total > 0 && encoded == total
	}
	return st.Complete()
}

func encodedQualities(st videohost.VideoStatus) (encoded, total int) {
	for _, q := range st.Encoding.Qualities {
		if q.Status == videohost.QualityEncoded {
			encoded++
		}
	}
	return encoded, len(st.Encoding.Qualities)
}

// failedQualities names the qualities whose encoding failed, such as "hls 720p".
func failedQualities(st videohost.VideoStatus) []string {
	var out []string
	for _, q := range st.Encoding.Qualities {
		if q.Status == videohost.QualityFailed {
			out = append(out, q.Type+" "+q.Quality)
		}
	}
	return out
}

// waitLimit is the time a create or an update may take (its wait for wait_for included), for
// the message of a wait that outlasted it.
type waitLimit struct {
	op    string // "create" or "update", the attribute of the timeouts block
	limit time.Duration
	set   bool // false when the timeouts block does not set it: the default
}

// videoWaitLimit is the limit of op ("create" or "update") that plan's timeouts gave, limit.
func videoWaitLimit(plan videoResourceModel, op string, limit time.Duration) waitLimit {
	set := false
	if !plan.Timeouts.IsNull() && !plan.Timeouts.IsUnknown() {
		if v, ok := plan.Timeouts.Attributes()[op]; ok && !v.IsNull() {
			set = true
		}
	}
	return waitLimit{op: op, limit: limit, set: set}
}

// timedOut is the detail of a wait that outlasted w: the limit as it was set, what became of
// the video, and what to do.
func (w waitLimit) timedOut(id, want string) string {
	limit := fmt.Sprintf("the %s that timeouts.%s sets", w.limit, w.op)
	if !w.set {
		limit = fmt.Sprintf("the default %s of timeouts.%s", w.limit, w.op)
	}
	if w.op == "create" {
		return fmt.Sprintf("Video %s did not become %s within %s. It is recorded in the state, marked tainted, so the "+
			"next apply replaces it (a new video, its source sent again). To keep it, run terraform untaint with its "+
			"address once the service has made it %s; or raise timeouts.%s or lower wait_for before the next apply.",
			id, want, limit, want, w.op)
	}
	return fmt.Sprintf("Video %s did not become %s within %s. Its changes are made and recorded in the state, and the "+
		"next apply does not wait again unless wait_for changes; the videohost_video_status data source shows where "+
		"it stands. Raise timeouts.%s or lower wait_for to wait longer next time.", id, want, limit, w.op)
}

// finishVideo does what follows a complete source: the thumbnail, then the wait for wait_for,
// bounded by limit. A wait that Terraform interrupted is a warning (the video is recorded as it
// is); one that timed out or met a failed quality is an error.
func finishVideo(ctx context.Context, pd *providerData, state *videoResourceModel, plan videoResourceModel, setThumb, wait bool,
	limit waitLimit, diags *diag.Diagnostics,
) {
	id := state.ID.ValueString()
	if setThumb && !plan.ThumbnailTimecode.IsNull() {
		if _, ok := setThumbnail(ctx, pd, state, plan.ThumbnailTimecode, diags); !ok {
			return
		}
	}
	if !wait {
		return
	}
	want := plan.WaitFor.ValueString()
	st, err := waitForVideo(ctx, pd, id, want)
	var failed *qualityFailedError
	switch {
	case err == nil:
		state.setFromStatus(st)
	case errors.Is(err, context.DeadlineExceeded):
		diags.AddAttributeError(path.Root("wait_for"), "Timed Out Waiting for Video", limit.timedOut(id, want))
	case errors.Is(err, context.Canceled):
		diags.AddAttributeWarning(path.Root("wait_for"), "Wait for Video Interrupted", fmt.Sprintf(
			"Terraform was interrupted while waiting for video %s to become %s. Its source is complete and it is "+
				"recorded in the state.", id, want))
	case errors.As(err, &failed):
		addAPIErrorDiagnostics(diags, "Video Did Not Become "+upperFirst(want), err, pd, map[string]path.Path{})
	default:
		// The source is complete: a status that cannot be read says nothing against the video,
		// which is recorded as it is, not marked for replacement.
		addAPIWarning(diags, "Unable to Read Video Status", fmt.Sprintf("Video %s holds its whole source and is "+
			"recorded in the state, but its status could not be read to wait until it is %s; the next terraform "+
			"plan reads it again.", id, want), err, pd)
	}
}

// qualityFailedError is a wait that ended because the service failed to encode a quality.
type qualityFailedError struct{ qualities []string }

func (e *qualityFailedError) Error() string {
	return "the service failed to encode " + strings.Join(e.qualities, ", ")
}

// videoDefaultTimeout bounds a create or an update when the timeouts block sets nothing.
const videoDefaultTimeout = 60 * time.Minute

// readVideoBack reads the video and its status after a write, on a context that outlives an
// interruption, so that the state gets the service's values; what cannot be read keeps plan's.
// The write succeeded, so a read that fails is a warning: an error would fail the apply, and
// after a create mark the video for replacement, for nothing but a read the next refresh repeats.
func readVideoBack(ctx context.Context, pd *providerData, state *videoResourceModel, diags *diag.Diagnostics) {
	sctx, cancel := settleContext(ctx, pd)
	defer cancel()
	id := state.ID.ValueString()
	lead := fmt.Sprintf("Video %s was written and is recorded in the state with what is known; the next "+
		"terraform plan reads it again, and nothing is replaced for this.", id)
	v, err := pd.client.GetVideo(sctx, id)
	if err != nil {
		addAPIWarning(diags, "Unable to Read Video", lead, err, pd)
		return
	}
	diags.Append(state.setFromVideo(sctx, v)...)
	if state.Playable.IsUnknown() || state.sourceUnsettled() {
		st, err := pd.client.GetVideoStatus(sctx, id)
		if err != nil {
			addAPIWarning(diags, "Unable to Read Video Status", lead, err, pd)
			return
		}
		state.setFromStatus(st)
	}
}

// videoWrites names the video for the shared create and delete machinery.
var videoWrites = writeTarget{kind: "Video", attrs: videoAttributePaths}
