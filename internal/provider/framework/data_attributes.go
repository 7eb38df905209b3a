package framework

import (
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The attributes of the data sources' objects are all computed; these build them with their
// description, so that a <thing>DataAttributes reads as a list of names and descriptions. The
// filters of the list data sources are built here too.

// ComputedString is a computed string attribute.
func ComputedString(description string) schema.Attribute {
	return schema.StringAttribute{MarkdownDescription: description, Computed: true}
}

// ComputedSecret is a computed string attribute that holds a secret.
func ComputedSecret(description string) schema.Attribute {
	return schema.StringAttribute{MarkdownDescription: description, Computed: true, Sensitive: true}
}

// ComputedBool is a computed boolean attribute.
func ComputedBool(description string) schema.Attribute {
	return schema.BoolAttribute{MarkdownDescription: description, Computed: true}
}

// ComputedObject is a computed object attribute with the given attributes.
func ComputedObject(description string, attrs map[string]schema.Attribute) schema.Attribute {
	return schema.SingleNestedAttribute{MarkdownDescription: description, Computed: true, Attributes: attrs}
}

// playerAssets are the addresses where a video or a live stream plays, with their
// descriptions: the attributes of the assets of both, in their data sources and resources.
var playerAssets = map[string]string{
	"hls":       "The HLS manifest address.",
	"iframe":    "An HTML `<iframe>` element that embeds the player.",
	"player":    "The player page address.",
	"thumbnail": "The thumbnail image address.",
}

// mp4Asset describes the one address that a video's assets have beside playerAssets.
const mp4Asset = "The mp4 download address; null without `mp4_support`."

// PlayerAssetsAttributes are the computed attributes of playerAssets, and with mp4 the
// video's mp4 download besides.
func PlayerAssetsAttributes(mp4 bool) map[string]schema.Attribute {
	attrs := map[string]schema.Attribute{}
	for name, description := range playerAssets {
		attrs[name] = ComputedString(description)
	}
	if mp4 {
		attrs["mp4"] = ComputedString(mp4Asset)
	}
	return attrs
}

// TextFilter is an optional text filter of a list data source. An empty one is refused: the
// service would drop it and list every object instead of the few meant.
func TextFilter(description string) schema.Attribute {
	return schema.StringAttribute{
		MarkdownDescription: description,
		Optional:            true,
		Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
	}
}

// WithSortFilters adds to filters the two sort parameters of a list: sort_by, one of fields,
// and sort_order.
func WithSortFilters(filters map[string]schema.Attribute, fields ...string) map[string]schema.Attribute {
	quoted := make([]string, len(fields))
	for i, f := range fields {
		quoted[i] = "`" + f + "`"
	}
	filters["sort_by"] = schema.StringAttribute{
		MarkdownDescription: "Order of the list: " + strings.Join(quoted[:len(quoted)-1], ", ") + " or " +
			quoted[len(quoted)-1] + ". Unset: the service's default order.",
		Optional:   true,
		Validators: []validator.String{stringvalidator.OneOf(fields...)},
	}
	filters["sort_order"] = schema.StringAttribute{
		MarkdownDescription: "Direction of the order: `asc` or `desc`. Unset: the service's default.",
		Optional:            true,
		Validators:          []validator.String{stringvalidator.OneOf("asc", "desc")},
	}
	return filters
}

// WithSortFilterPaths adds to paths the sort parameters of a list call, as a 400 names them.
func WithSortFilterPaths(paths map[string]path.Path) map[string]path.Path {
	paths["sortBy"] = path.Root("sort_by")
	paths["sortOrder"] = path.Root("sort_order")
	return paths
}

// OptionalString is s, or null when the service gives it empty.
func OptionalString(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}
