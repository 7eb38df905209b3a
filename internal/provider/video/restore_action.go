package video

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
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

// Summaries of the action's errors.
const (
	DiscardedVideoNotFoundSummary = "Discarded Video Not Found"
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
			"back into a `videohost_video` afterwards (`terraform import` or an `import` block). A video that is already " +
			"restored is left as it is. Run it alone with `terraform apply -invoke=action.videohost_video_restore.<name>`.",
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
		// Restored already (by an earlier run, or a retry whose first attempt went through), or
		// not discarded at all: the videos tell which.
		if v, gerr := a.pd.Client.GetVideo(ctx, id); gerr == nil {
			progress("Video %s (%q) is not discarded: it was restored already. Import it with "+
				"terraform import videohost_video.<name> %s", id, v.Title, id)
			return
		}
		resp.Diagnostics.AddAttributeError(path.Root("video_id"), DiscardedVideoNotFoundSummary,
			"The service has no discarded video "+id+": it was never discarded, its retention (90 days) ended, or the "+
				"workspace lacks the Video Restore feature, so that its delete was final. Check video_id: the "+
				"videohost_discarded_videos data source lists the discarded videos.")
		return
	}
	if err != nil {
		framework.AddAPIErrorDiagnostics(&resp.Diagnostics, videoRestoreFailedSummary, err, a.pd, videoIDPaths)
		return
	}
	progress("Restored video %s (%q). Import it back with terraform import videohost_video.<name> %s, or an "+
		"import block with id = %q", id, v.Title, id, id)
}
