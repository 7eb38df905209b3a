package video

// What follows the writes of videohost_video: the wait until the service reaches wait_for
// (reading the video's status, with the thumbnail set first), and the read-back of the video
// once it is written, so that the state holds what the service made of it.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// Bounds of the pause between two reads of a video's status while waiting.
const (
	waitFirstPause = 500 * time.Millisecond
	waitMaxPause   = 10 * time.Second
)

// waitForVideo reads the video's status until it reaches want (wait_for), a quality fails, or
// ctx ends; it logs where the video stands between reads.
func waitForVideo(ctx context.Context, pd *framework.ProviderData, id, want string) (videohost.VideoStatus, error) {
	pause := waitFirstPause
	start := time.Now()
	for {
		st, err := pd.Client.GetVideoStatus(ctx, id)
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

// WaitLimit is the time a create or an update may take (its wait for wait_for included), for
// the message of a wait that outlasted it.
type WaitLimit struct {
	Op    string // "create" or "update", the attribute of the timeouts block
	Limit time.Duration
	Set   bool // false when the timeouts block does not set it: the default
}

// videoWaitLimit is the limit of op ("create" or "update") that plan's timeouts gave, limit.
func videoWaitLimit(plan VideoResourceModel, op string, limit time.Duration) WaitLimit {
	set := false
	if !plan.Timeouts.IsNull() && !plan.Timeouts.IsUnknown() {
		if v, ok := plan.Timeouts.Attributes()[op]; ok && !v.IsNull() {
			set = true
		}
	}
	return WaitLimit{Op: op, Limit: limit, Set: set}
}

// TimedOut is the detail of a wait that outlasted w: the limit as it was set, what became of
// the video, and what to do.
func (w WaitLimit) TimedOut(id, want string) string {
	limit := fmt.Sprintf("the %s that timeouts.%s sets", w.Limit, w.Op)
	if !w.Set {
		limit = fmt.Sprintf("the default %s of timeouts.%s", w.Limit, w.Op)
	}
	if w.Op == "create" {
		return fmt.Sprintf("Video %s did not become %s within %s. It is recorded in the state, marked tainted, so the "+
			"next apply replaces it (a new video, its source sent again). To keep it, run terraform untaint with its "+
			"address once the service has made it %s; or raise timeouts.%s or lower wait_for before the next apply.",
			id, want, limit, want, w.Op)
	}
	return fmt.Sprintf("Video %s did not become %s within %s. Its changes are made and recorded in the state, and the "+
		"next apply does not wait again unless wait_for changes; the videohost_video data source (its playable "+
		"and qualities) shows where it stands. Raise timeouts.%s or lower wait_for to wait longer next time.", id, want, limit, w.Op)
}

// finishVideo does what follows a complete source: the thumbnail, then the wait for wait_for,
// bounded by limit. A wait that Terraform interrupted is a warning (the video is recorded as it
// is); one that timed out or met a failed quality is an error.
func finishVideo(ctx context.Context, pd *framework.ProviderData, state *VideoResourceModel, plan VideoResourceModel, setThumb, wait bool,
	limit WaitLimit, diags *diag.Diagnostics,
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
		diags.AddAttributeError(path.Root("wait_for"), "Timed Out Waiting for Video", limit.TimedOut(id, want))
	case errors.Is(err, context.Canceled):
		diags.AddAttributeWarning(path.Root("wait_for"), "Wait for Video Interrupted", fmt.Sprintf(
			"Terraform was interrupted while waiting for video %s to become %s. Its source is complete and it is "+
				"recorded in the state.", id, want))
	case errors.As(err, &failed):
		framework.AddAPIErrorDiagnostics(diags, "Video Did Not Become "+framework.UpperFirst(want), err, pd, map[string]path.Path{})
	default:
		// The source is complete: a status that cannot be read says nothing against the video,
		// which is recorded as it is, not marked for replacement.
		framework.AddAPIWarning(diags, "Unable to Read Video Status", fmt.Sprintf("Video %s holds its whole source and is "+
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
// managed are the tags and metadata keys that the configuration sets (see setLabelsFromVideo).
func readVideoBack(ctx context.Context, pd *framework.ProviderData, state *VideoResourceModel, managed framework.ManagedLabels,
	diags *diag.Diagnostics,
) {
	sctx, cancel := framework.SettleContext(ctx, pd)
	defer cancel()
	id := state.ID.ValueString()
	lead := fmt.Sprintf("Video %s was written and is recorded in the state with what is known; the next "+
		"terraform plan reads it again, and nothing is replaced for this.", id)
	v, err := pd.Client.GetVideo(sctx, id)
	if err != nil {
		framework.AddAPIWarning(diags, "Unable to Read Video", lead, err, pd)
		return
	}
	diags.Append(state.setFromVideo(sctx, v, labelsOf(pd), managed)...)
	if state.Playable.IsUnknown() || state.sourceUnsettled() {
		st, err := pd.Client.GetVideoStatus(sctx, id)
		if err != nil {
			framework.AddAPIWarning(diags, "Unable to Read Video Status", lead, err, pd)
			return
		}
		state.setFromStatus(st)
	}
}
