package watermark

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// watermarkModel is the state of videohost_watermark. The service keeps nothing of the image,
// so source_file and source_sha256 are the configuration's and the plan's, never the service's.
type watermarkModel struct {
	ID           types.String `tfsdk:"id"`
	SourceFile   types.String `tfsdk:"source_file"`
	SourceSHA256 types.String `tfsdk:"source_sha256"`
	CreatedAt    types.String `tfsdk:"created_at"`
}

// watermarkModelFrom is the state of the watermark w; the file and its hash are taken from
// prior (nil: none known, as after an import or in a list).
func watermarkModelFrom(w videohost.Watermark, prior *watermarkModel) watermarkModel {
	m := watermarkModel{
		ID:           types.StringValue(w.ID),
		SourceFile:   types.StringNull(),
		SourceSHA256: types.StringNull(),
		CreatedAt:    framework.TimeString(w.CreatedAt),
	}
	if prior != nil {
		m.SourceFile, m.SourceSHA256 = prior.SourceFile, prior.SourceSHA256
	}
	return m
}

// watermarkDataModel is one watermark as the data source lists it: what the service keeps.
type watermarkDataModel struct {
	ID        types.String `tfsdk:"id"`
	CreatedAt types.String `tfsdk:"created_at"`
}

func WatermarkDataModelFrom(w videohost.Watermark) watermarkDataModel {
	return watermarkDataModel{ID: types.StringValue(w.ID), CreatedAt: framework.TimeString(w.CreatedAt)}
}

// watermarkDataAttributes are the attributes of one watermark, all computed.
func watermarkDataAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id":         framework.ComputedString("The watermark's id (`watermarkId`), as a video's `watermark` takes it."),
		"created_at": framework.ComputedString("When the watermark was uploaded, RFC 3339 (UTC)."),
	}
}

// WatermarkObjectType is the type of the elements of watermarks, from the schema (see
// list_values.go).
var WatermarkObjectType = framework.ObjectTypeOf(watermarkDataAttributes())

// Object is the watermark as an element of the watermarks list.
func (m watermarkDataModel) Object() (types.Object, diag.Diagnostics) {
	return types.ObjectValue(WatermarkObjectType.AttrTypes, map[string]attr.Value{"id": m.ID, "created_at": m.CreatedAt})
}
