package videosummary

// The checks of videohost_video_summary made before any request: a summary written by the user
// needs its text.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// ValidateConfig refuses a summary of origin api (or unset, which creates one of origin api)
// without abstract or takeaways: the service generates nothing for it, so it would hold no text
// at all. A generated summary, imported, is configured with origin = "auto".
func (r *videoSummaryResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var origin, abstract types.String
	var takeaways types.List
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("origin"), &origin)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("abstract"), &abstract)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("takeaways"), &takeaways)...)
	if resp.Diagnostics.HasError() || origin.IsUnknown() || (!origin.IsNull() && origin.ValueString() != summaryOriginAPI) {
		return
	}
	if abstract.IsNull() && takeaways.IsNull() {
		resp.Diagnostics.AddAttributeError(path.Root("origin"), "Missing Video Summary Text",
			"A summary with origin = \"api\" (what a create without origin makes) is written here: the service "+
				"generates nothing for it. Set abstract, takeaways or both; or set origin = \"auto\" to have the service "+
				"generate them from the video's transcript, as for a summary that transcript_summary made.")
	}
}

// known is m with what an apply cannot leave unknown made null: the state recorded when the
// summary was created but could not be read back.
func (m videoSummaryModel) known() videoSummaryModel {
	for _, v := range []*types.String{&m.SourceStatus, &m.CreatedAt, &m.UpdatedAt, &m.Abstract, &m.Origin, &m.VideoID} {
		if v.IsUnknown() {
			*v = types.StringNull()
		}
	}
	if m.Takeaways.IsUnknown() {
		m.Takeaways = types.ListNull(types.StringType)
	}
	return m
}
