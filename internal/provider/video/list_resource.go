package video

// The videohost_video list resource: the videos that terraform query finds.

import (
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

type videoListModel struct {
	Title types.String `tfsdk:"title"`
	Tags  types.List   `tfsdk:"tags"`
}

// NewVideoListResource returns the videohost_video list resource. The list items carry what the
// service shows of a video; what only a configuration gives (the source, clip, watermark) is
// null, as after an import.
func NewVideoListResource() list.ListResource {
	return framework.NewListResource("_video", framework.Listing[videohost.Video, videoListModel, videohost.VideoFilter]{
		Description: "Lists the videos of the workspace for `terraform query`, optionally only those whose title " +
			"contains a text or that carry every tag given. Each result is a video's identity (`id`) and its title; " +
			"with `include_resource = true`, also what the service shows of it (the source, clip and watermark " +
			"are null: add the source to the generated configuration). Terraform 1.14 and later.",
		Filters: map[string]listschema.Attribute{
			"title": listschema.StringAttribute{
				MarkdownDescription: "Only the videos whose title contains this text (case-insensitive, matched by the " +
					"service). Unset lists every video.",
				Optional:   true,
				Validators: []validator.String{framework.NotBlank()},
			},
			"tags": listschema.ListAttribute{
				MarkdownDescription: "Only the videos that carry every one of these tags. Unset: no tag filter.",
				ElementType:         types.StringType,
				Optional:            true,
			},
		},
		Filter: func(m videoListModel) videohost.VideoFilter {
			f := videohost.VideoFilter{Title: m.Title.ValueString()}
			for _, t := range m.Tags.Elements() {
				if s, ok := t.(types.String); ok {
					f.Tags = append(f.Tags, s.ValueString())
				}
			}
			return f
		},
		Walk:         (*videohost.Client).WalkVideos,
		What:         "videos",
		Id:           func(v videohost.Video) string { return v.ID },
		DisplayName:  func(v videohost.Video) string { return v.Title },
		Model:        videoModelForList,
		ErrorSummary: "Unable to List Videos",
		Attrs:        map[string]path.Path{"title": path.Root("title"), "tags": path.Root("tags"), "tags[]": path.Root("tags")},
	})
}
