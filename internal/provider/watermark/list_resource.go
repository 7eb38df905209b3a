package watermark

// The videohost_watermark list resource: the watermarks that terraform query finds.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// NewWatermarkListResource returns the videohost_watermark list resource. The service keeps
// nothing of a watermark's image, so a result's resource has a null source_file: a
// configuration generated from it must set the file.
func NewWatermarkListResource() list.ListResource {
	return framework.NewListResource("_watermark", framework.Listing[videohost.Watermark, struct{}, videohost.WatermarkFilter]{
		Description: "Lists every watermark of the workspace for `terraform query` (the service has no filter on " +
			"watermarks). Each result is a watermark's identity (`id`) and a display name of its id and creation " +
			"time; with `include_resource = true`, also the resource's attributes that the service keeps (`id`, " +
			"`created_at`): `source_file` is not known to the service. Terraform 1.14 and later.",
		Filters: map[string]listschema.Attribute{},
		Filter:  func(struct{}) videohost.WatermarkFilter { return videohost.WatermarkFilter{} },
		Walk:    (*videohost.Client).WalkWatermarks,
		What:    "watermarks",
		Id:      func(w videohost.Watermark) string { return w.ID },
		DisplayName: func(w videohost.Watermark) string {
			return w.ID + " (uploaded " + framework.TimeString(w.CreatedAt).ValueString() + ")"
		},
		Model: func(_ context.Context, w videohost.Watermark) (any, diag.Diagnostics) {
			return watermarkModelFrom(w, nil), nil
		},
		ErrorSummary: "Unable to List Watermarks",
	})
}
