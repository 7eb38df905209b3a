package video

// What a destroyed video leaves with the service's Video Restore feature: the delete discards
// the video, which the service keeps for 90 days, and the destroy says so.

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
)

// VideoDiscardedSummary titles the warning of a destroy that discarded the video.
const VideoDiscardedSummary = "Video Discarded, Not Deleted"

// Delete deletes the video (deletedByID), then, when the delete succeeded, reads whether the
// service discarded it rather than deleting it, which only a workspace with the Video Restore
// feature does: a warning then says until when it can be restored, and how. The read costs one
// request per destroyed video; whatever it answers, the delete stands.
func (r *videoResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	r.DeletedByID.Delete(ctx, req, resp)
	if resp.Diagnostics.HasError() || framework.Interrupted(ctx) {
		return
	}
	id, ok := framework.ConfiguredID(ctx, r.Pd, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	v, err := r.Pd.Client.GetDiscardedVideo(ctx, id)
	if err != nil || !v.Discarded {
		// A 404 is a delete for good; any other answer (a workspace without the feature may
		// refuse the read) says nothing of a discard, and the delete is not undone by it.
		tflog.Debug(ctx, "the deleted video is not among the discarded videos", map[string]any{"video_id": id, "error": fmt.Sprint(err)})
		return
	}
	AddVideoDiscardedWarning(&resp.Diagnostics, id, v.DeletesAt)
}

// AddVideoDiscardedWarning says that video id was discarded, until when it can be restored, and
// how: the action, or the service's own call where actions do not run, then an import.
func AddVideoDiscardedWarning(diags *diag.Diagnostics, id string, deletesAt *time.Time) {
	until := "for 90 days"
	if deletesAt != nil {
		until = "until " + deletesAt.UTC().Format(time.RFC3339)
	}
	diags.AddWarning(VideoDiscardedSummary, fmt.Sprintf("The service's Video Restore feature discarded video %s "+
		"instead of deleting it: it is kept, and can be restored, %s; then the service deletes it for good. To "+
		"restore it, run the videohost_video_restore action with video_id = %q (Terraform 1.14 and later), or, with "+
		"OpenTofu or an older Terraform, send PATCH /discarded/videos/%s with the body {\"discarded\": false} "+
		"(see the action's documentation); then import it back: terraform import videohost_video.<name> %s. "+
		"The videohost_discarded_videos data source lists the discarded videos.", id, until, id, id, id))
}
