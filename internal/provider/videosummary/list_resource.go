package videosummary

// The videohost_video_summary list resource: the summaries that terraform query finds.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// videoSummaryListModel is the list block's configuration: the service's video filter.
type videoSummaryListModel struct {
	VideoID types.String `tfsdk:"video_id"`
}

// NewVideoSummaryListResource returns the videohost_video_summary list resource. The list does
// not carry a summary's text, so a result's resource has a null abstract and takeaways: the
// import reads them.
func NewVideoSummaryListResource() list.ListResource {
	return framework.NewListResource("_video_summary", framework.Listing[videohost.Summary, videoSummaryListModel, videohost.SummaryFilter]{
		Description: "Lists the summaries of the workspace's videos for `terraform query`, those of one video with " +
			"`video_id`. Each result is a summary's identity (`id`) and a display name of its video and origin; with " +
			"`include_resource = true`, also the resource's attributes that the list holds (the text is read by the " +
			"import). Terraform 1.14 and later.",
		Filters: map[string]listschema.Attribute{
			"video_id": listschema.StringAttribute{MarkdownDescription: "Only the summary of this video. Unset: every video's.", Optional: true},
		},
		Filter: func(c videoSummaryListModel) videohost.SummaryFilter {
			return videohost.SummaryFilter{VideoID: c.VideoID.ValueString()}
		},
		Walk: (*videohost.Client).WalkSummaries,
		What: "summaries",
		Id:   func(s videohost.Summary) string { return s.ID },
		DisplayName: func(s videohost.Summary) string {
			return "summary of video " + s.VideoID + " (" + s.Origin + ", " + s.SourceStatus + ")"
		},
		Model: func(_ context.Context, s videohost.Summary) (any, diag.Diagnostics) {
			return videoSummaryModelFrom(videoSummary{Summary: s}), nil
		},
		ErrorSummary: "Unable to List Summaries",
		Attrs:        map[string]path.Path{"videoId": path.Root("video_id")},
	})
}
