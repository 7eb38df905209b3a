package tag

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// tagDataModel is one tag of the workspace's videos as videohost_tags lists it.
type tagDataModel struct {
	Value      types.String `tfsdk:"value"`
	VideoCount types.Int64  `tfsdk:"video_count"`
}

func TagDataModelFrom(t videohost.Tag) tagDataModel {
	return tagDataModel{Value: types.StringValue(t.Value), VideoCount: types.Int64Value(int64(t.VideoCount))}
}

// tagDataAttributes are the attributes of one tag, all computed.
func tagDataAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"value": framework.ComputedString("The tag, as the videos carry it (a video's `tags` holds it)."),
		"video_count": schema.Int64Attribute{
			MarkdownDescription: "How many videos of the workspace carry the tag.", Computed: true,
		},
	}
}

// TagObjectType is the type of the elements of tags, from the schema (see list_values.go).
var TagObjectType = framework.ObjectTypeOf(tagDataAttributes())

// Object is the tag as an element of the tags list.
func (m tagDataModel) Object() (types.Object, diag.Diagnostics) {
	return types.ObjectValue(TagObjectType.AttrTypes, map[string]attr.Value{"value": m.Value, "video_count": m.VideoCount})
}
