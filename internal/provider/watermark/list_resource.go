package provider

// The videohost_watermark list resource: the watermarks that terraform query finds.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// NewWatermarkListResource returns the videohost_watermark list resource. The service keeps
// nothing of a watermark's image, so a result's resource has a null source_file: a
// configuration generated from it must set the file.
func NewWatermarkListResource() list.ListResource {
	return newListResource("_watermark", listing[videohost.Watermark, struct{}, videohost.WatermarkFilter]{
		description: "Lists every watermark of the workspace for `terraform query` (the service has no filter on " +
			"watermarks). Each result is a watermark's identity (`id`) and a display name of its id and creation " +
			"time; with `include_resource = true`, also the resource's attributes that the service keeps (`id`, " +
			"`created_at`): `source_file` is not known to the service. Terraform 1.14 and later.",
		filters: map[string]listschema.Attribute{},
		filter:  func(struct{}) videohost.WatermarkFilter { return videohost.WatermarkFilter{} },
		walk:    (*videohost.Client).WalkWatermarks,
		what:    "watermarks",
		id:      func(w videohost.Watermark) string { return w.ID },
		displayName: func(w videohost.Watermark) string {
			return w.ID + " (uploaded " + timeString(w.CreatedAt).ValueString() + ")"
		},
		model: func(_ context.Context, w videohost.Watermark) (any, diag.Diagnostics) {
			return watermarkModelFrom(w, nil), nil
		},
		errorSummary: "Unable to List Watermarks",
	})
}
