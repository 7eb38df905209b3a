package video

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

var _ action.ActionWithConfigure = (*videoRestoreAction)(nil)

// videoRestoreAction is videohost_video_restore: it restores a discarded video (the service's
// Video Restore feature), the one way back after a wrong destroy. A discarded video is in no
// state (its resource was destroyed), so restoring it is an action, not a resource: the restored
// video is then imported like any video made outside Terraform.
type videoRestoreAction struct {
	pd *framework.ProviderData
}

// NewVideoRestoreAction returns the videohost_video_restore action.
func NewVideoRestoreAction() action.Action { return &videoRestoreAction{} }

type videoRestoreModel struct {
	VideoID types.String `tfsdk:"video_id"`
}

// Summaries of the action's errors and warning.
const (
	DiscardedVideoNotFoundSummary = "Discarded Video Not Found"
	VideoNotDiscardedSummary      = "Video Not Discarded"
	videoRestoreFailedSummary     = "Unable to Restore the Video"
)

func (a *videoRestoreAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_video_restore"
}

func (a *videoRestoreAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Restores a discarded video (an action: Terraform 1.14 and later; OpenTofu and older " +
			"Terraform do not run actions, and restore with the service's own call, as the documentation shows). With " +
			"the service's Video Restore feature, destroying a `videohost_video` discards the video, which the service " +
			"keeps for 90 days; restored, it is a video of the workspace again, as it was, with the same id. Import it " +
			"back into a `videohost_video` afterwards (`terraform import` or an `import` block). A video of the workspace " +
			"that is not discarded (restored already, or never discarded) is left as it is, with a warning; an id of no " +
			"video at all is an error. Run it alone with `terraform apply -invoke=action.videohost_video_restore.<name>`.",
		Attributes: map[string]schema.Attribute{
			"video_id": schema.StringAttribute{
				MarkdownDescription: "Id of the discarded video to restore (the destroy's warning names it; the " +
					"`videohost_discarded_videos` data source lists them). Required.",
				Required:   true,
				Validators: framework.ServiceIDValidators("a video (its videoId)", "videohost_discarded_videos"),
			},
		},
	}
}

func (a *videoRestoreAction) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	a.pd = framework.ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

// videoIDPaths points the service's errors about the id at video_id.
var videoIDPaths = map[string]path.Path{"videoId": path.Root("video_id")}

func (a *videoRestoreAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	cfg, ok := framework.ConfiguredModel[videoRestoreModel](ctx, a.pd, req.Config, &resp.Diagnostics)
	if !ok {
		return
	}
	progress := func(format string, args ...any) {
		if resp.SendProgress != nil {
			resp.SendProgress(action.InvokeProgressEvent{Message: fmt.Sprintf(format, args...)})
		}
	}
	id := cfg.VideoID.ValueString()
	progress("Asking the service to restore discarded video %s", id)
	v, err := a.pd.Client.RestoreVideo(ctx, id)
	if errors.Is(err, videohost.ErrNotFound) {
		a.notDiscarded(ctx, id, progress, &resp.Diagnostics)
		return
	}
	if err != nil {
		framework.AddAPIErrorDiagnostics(&resp.Diagnostics, videoRestoreFailedSummary, err, a.pd, videoIDPaths)
		return
	}
	progress("Restored video %s (%q). Import it back with terraform import videohost_video.<name> %s, or an "+
		"import block with id = %q", id, v.Title, id, id)
}

// notDiscarded tells apart the cases of a restore answered 404, which the service gives alike for
// every id that is not a discarded video's: a video of the workspace (restored already, by an
// earlier run or a retry whose first attempt went through, or never discarded: the service
// keeps nothing that tells which) completes with a warning, since the video is there as the
// action wants it; an id the service has no video of is an error.
func (a *videoRestoreAction) notDiscarded(ctx context.Context, id string, progress func(string, ...any), diags *diag.Diagnostics) {
	v, err := a.pd.Client.GetVideo(ctx, id)
	switch {
	case err == nil:
		progress("Video %s (%q) is not discarded: nothing to restore", id, v.Title)
		diags.AddAttributeWarning(path.Root("video_id"), VideoNotDiscardedSummary,
			fmt.Sprintf("Video %s (%q) is a video of the workspace, not a discarded one: it was restored already (by an "+
				"earlier run, or by the service's own call) or never discarded, which the service does not tell apart. "+
				"Nothing was changed. To manage it, import it: terraform import videohost_video.<name> %s. Remove the "+
				"action, or point video_id at a discarded video (the videohost_discarded_videos data source lists "+
				"them), to end this warning.", id, v.Title, id))
	case errors.Is(err, videohost.ErrNotFound):
		diags.AddAttributeError(path.Root("video_id"), DiscardedVideoNotFoundSummary,
			"The service has no discarded video "+id+", and no video of that id either: its retention (90 days) "+
				"ended, the workspace lacks the Video Restore feature, so that its delete was final, or the id is "+
				"wrong. Check video_id: the videohost_discarded_videos data source lists the discarded videos.")
	default:
		// The read that would tell the cases apart failed: its error says why and what to do.
		framework.AddAPIErrorDiagnostics(diags, videoRestoreFailedSummary, err, a.pd, videoIDPaths)
	}
}
