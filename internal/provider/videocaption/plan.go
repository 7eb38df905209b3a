package videocaption

// This file holds the plan of a caption beyond what every track plans (track_plan.go): the
// check that another caption of the video has not taken the default from it. A video has one
// default caption, and making one the default unsets it on the others, so two captions of a
// video that both set default = true take it from each other at every apply, without end;
// each plan only shows the one that lost it changing back. The plan says why instead.

import (
	"context"
	"fmt"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/provider/track"
)

// captionDefaultKey is the private-state key that records the default an apply gave the
// caption: "true" or "false". It tells a default taken away since (by another caption or
// outside Terraform) from a default that the configuration newly asks for.
const captionDefaultKey = "default_applied"

// recordCaptionDefault records, in the private state, the default that an apply left.
func recordCaptionDefault(ctx context.Context, private framework.PrivateWriter, isDefault types.Bool) diag.Diagnostics {
	if private == nil || isDefault.IsNull() || isDefault.IsUnknown() {
		return nil
	}
	return private.SetKey(ctx, captionDefaultKey, []byte(strconv.FormatBool(isDefault.ValueBool())))
}

// ModifyPlan plans the file (trackBase), then warns when the last apply made this caption the
// default, the configuration still asks for it, and the service now shows another caption of
// the video as the default: the plan takes the default back, which unsets the other's.
func (r *videoCaptionResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	r.TrackBase.ModifyPlan(ctx, req, resp)
	if resp.Diagnostics.HasError() || req.Plan.Raw.IsNull() || req.State.Raw.IsNull() || r.Pd == nil {
		return
	}
	var planned, prior types.Bool
	var videoID, language types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("default"), &planned)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("default"), &prior)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("video_id"), &videoID)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("language"), &language)...)
	applied, d := req.Private.GetKey(ctx, captionDefaultKey)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() || !planned.ValueBool() || prior.ValueBool() || string(applied) != "true" {
		return
	}
	// A read beyond the configuration: which caption holds the default now.
	captions, err := r.Pd.Client.ListCaptions(ctx, videoID.ValueString())
	if err != nil {
		framework.AddAPIErrorDiagnostics(&resp.Diagnostics, "Unable to Read the Captions of the Video", err, r.Pd, r.Attrs)
		return
	}
	for _, c := range captions {
		if !c.Default || c.SrcLang == language.ValueString() {
			continue
		}
		v, mine, theirs := videoID.ValueString(), language.ValueString(), c.SrcLang
		resp.Diagnostics.AddAttributeWarning(path.Root("default"), "Another Caption Took the Default", fmt.Sprintf(
			"The last apply made caption %s of video %s the default, but when the plan was made the service showed "+
				"caption %s as the default: a video has one default caption, and making one the default unsets it on "+
				"the others. The plan made caption %s the default again, which unsets it on caption %s. If the "+
				"configuration also sets default = true on caption %s (import id %s), the two take the default from each "+
				"other at every apply, without end: set default = true on one caption of the video only. If caption %s "+
				"was made the default outside Terraform, the apply undoes that.",
			mine, v, theirs, mine, theirs, theirs, track.TrackID(v, theirs), theirs))
		return
	}
}
