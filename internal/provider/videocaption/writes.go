package videocaption

// What the caption resource sends: its upload, read and delete (trackOps, sent through
// track_writes.go), and the change of the video's default caption.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/provider/track"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// captionOps are the requests of a caption.
var captionOps = track.TrackOps[videohost.Caption]{
	Get:    (*videohost.Client).GetCaption,
	Lookup: (*videohost.Client).LookupCaption,
	Upload: (*videohost.Client).UploadCaption,
	Del:    (*videohost.Client).DeleteCaption,
}

// setCaptionDefault makes the caption of language the video's default (or not); false, with an
// error on default titled summary, when it failed.
func setCaptionDefault(ctx context.Context, pd *framework.ProviderData, videoID, language string, isDefault bool, summary string,
	diags *diag.Diagnostics,
) (videohost.Caption, bool) {
	c, err := pd.Client.SetCaptionDefault(ctx, videoID, language, isDefault)
	if err != nil {
		framework.AddAPIErrorDiagnostics(diags, summary, err, pd, map[string]path.Path{"default": path.Root("default")})
		return c, false
	}
	return c, true
}

// settleCaptionDefault makes the caption the video's default, or not, as plan says, after its
// upload: a create asks only for a default the upload did not make; an update changes it when
// it differs. The default is recorded in the private state, which the plan compares
// (recordCaptionDefault). A failure is an error on default; the caption is recorded as it is.
func settleCaptionDefault(ctx context.Context, pd *framework.ProviderData, plan, state videoCaptionModel, creating bool, private framework.PrivateWriter,
	diags *diag.Diagnostics,
) videoCaptionModel {
	summary := "Unable to Change the Default Caption"
	change := !plan.Default.Equal(state.Default)
	if creating {
		summary = "Unable to Make the Caption the Default"
		change = plan.Default.ValueBool() && !state.Default.ValueBool()
	}
	if change {
		if c, ok := setCaptionDefault(ctx, pd, state.VideoID.ValueString(), state.Language.ValueString(),
			plan.Default.ValueBool(), summary, diags); ok {
			state = captionModelFrom(state.VideoTrackModel, state.SourceSHA256, c)
		}
	}
	diags.Append(recordCaptionDefault(ctx, private, state.Default)...)
	return state
}
