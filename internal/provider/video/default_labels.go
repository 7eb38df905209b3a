package video

// The provider's default tags and metadata on a video: tags_all and metadata_all planned from the
// video's own values and the defaults, the bounds of the sum, the values sent, and the split of
// what the service holds back into the video's own values, the defaults and what the ignore
// rules leave to other systems. The merging itself is framework's (default_labels.go).

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// TagsValidator is the check of a video's tags, which the provider's default_tags also pass.
func TagsValidator() validator.Set { return videoTagsCheck{} }

// MetadataValidator is the check of a video's metadata, which default_metadata also passes.
func MetadataValidator() validator.Map { return videoMetadataCheck{} }

// videoLabelsAttributes are tags_all and metadata_all.
func videoLabelsAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"tags_all": schema.SetAttribute{
			MarkdownDescription: "Every tag of the video that Terraform manages: its own `tags` and the provider's " +
				"`default_tags`, as the service holds them. Tags that the provider's `ignore_tags` leaves to other " +
				"systems are not in it. Unknown at plan while a default or a tag is not known yet.",
			ElementType: types.StringType, Computed: true,
		},
		"metadata_all": schema.MapAttribute{
			MarkdownDescription: "Every metadata pair of the video that Terraform manages: the provider's " +
				"`default_metadata` overlaid with the video's own `metadata` (its value wins for a key in both), as " +
				"the service holds them. Keys that the provider's `ignore_metadata_keys` leaves to other systems are " +
				"not in it. Unknown at plan while a default or a pair is not known yet.",
			ElementType: types.StringType, Computed: true,
		},
	}
}

// labelsOf is pd's labels, none when the provider is not configured.
func labelsOf(pd *framework.ProviderData) framework.DefaultLabels {
	if pd == nil {
		return framework.DefaultLabels{TagsUnknown: true, MetadataUnknown: true}
	}
	return pd.Labels
}

// planVideoLabels plans tags_all and metadata_all, and refuses defaults that take the video past
// the service's bounds, naming the provider's count and the video's.
func planVideoLabels(ctx context.Context, plan *VideoResourceModel, l framework.DefaultLabels, diags *diag.Diagnostics) {
	plan.TagsAll = types.SetUnknown(types.StringType)
	if tags, ok := knownStrings(ctx, plan.Tags.SetValue, diags); ok && !l.TagsUnknown {
		all := framework.MergeTags(tags, l.Tags)
		if len(all) > maxVideoTags {
			diags.AddAttributeError(path.Root("tags"), "Too Many Tags", fmt.Sprintf("The provider's default_tags "+
				"hold %d tags and this video's tags %d: %d tags in all (a tag in both counts once), and a video has at "+
				"most %d. Remove tags from the video or from the provider's default_tags.", len(l.Tags), len(tags),
				len(all), maxVideoTags))
		}
		plan.TagsAll = stringSet(ctx, all, diags)
	}
	plan.MetadataAll = types.MapUnknown(types.StringType)
	if md, ok := knownMap(ctx, plan.Metadata, diags); ok && !l.MetadataUnknown {
		all := framework.MergeMetadata(md, l.Metadata)
		if len(all) > maxVideoMetadata {
			diags.AddAttributeError(path.Root("metadata"), "Too Many Metadata Pairs", fmt.Sprintf("The provider's "+
				"default_metadata holds %d pairs and this video's metadata %d: %d pairs in all (a key in both counts "+
				"once), and a video has at most %d. Remove pairs from the video or from the provider's "+
				"default_metadata.", len(l.Metadata), len(md), len(all), maxVideoMetadata))
		}
		plan.MetadataAll = stringMap(ctx, all, diags)
	}
}

// setLabelsFromVideo sets tags, metadata, tags_all and metadata_all from what the service holds
// of v. What m held before (the prior state, or the plan of a write) says which values are the
// video's own: see framework.OwnTags. managed are the tags and keys that the configuration sets
// (the plan's at a write, the record of the last write at a read): with the provider's defaults,
// they alone are kept from the ignore rules, so that what another system set stays out of the
// state, and out of reach of the next apply, whatever put it in the state before.
func (m *VideoResourceModel) setLabelsFromVideo(ctx context.Context, v videohost.Video, l framework.DefaultLabels,
	managed framework.ManagedLabels,
) diag.Diagnostics {
	var diags diag.Diagnostics
	managed = managed.With(l.Tags, slices.Collect(maps.Keys(l.Metadata)))
	priorOwn, _ := knownStrings(ctx, m.Tags.SetValue, &diags)
	priorAll, _ := knownStrings(ctx, m.TagsAll, &diags)
	all, _ := framework.HeldTags(v.Tags, l.IgnoreTags, managed.Tags)
	m.TagsAll = stringSet(ctx, all, &diags)
	m.Tags = StringSetValue{SetValue: stringSet(ctx, framework.OwnTags(all, priorOwn, priorAll, l.Tags), &diags)}

	priorOwnMD, _ := knownMap(ctx, m.Metadata, &diags)
	priorAllMD, _ := knownMap(ctx, m.MetadataAll, &diags)
	allMD, _ := framework.HeldMetadata(metadataMap(v.Metadata), l.IgnoreMetadata, managed.MetadataKeys)
	m.MetadataAll = stringMap(ctx, allMD, &diags)
	m.Metadata = stringMap(ctx, framework.OwnMetadata(allMD, priorOwnMD, slices.Collect(maps.Keys(priorAllMD)), l.Metadata), &diags)
	return diags
}

// configuredLabels are the tags and metadata keys that the configuration of plan sets: the
// video's own and, once known, the defaults merged in. A write records them (see
// framework.ManagedLabels).
func configuredLabels(ctx context.Context, plan VideoResourceModel) framework.ManagedLabels {
	var diags diag.Diagnostics
	var tags, keys []string
	for _, s := range []types.Set{plan.Tags.SetValue, plan.TagsAll} {
		t, _ := knownStrings(ctx, s, &diags)
		tags = append(tags, t...)
	}
	for _, m := range []types.Map{plan.Metadata, plan.MetadataAll} {
		md, _ := knownMap(ctx, m, &diags)
		keys = append(keys, slices.Collect(maps.Keys(md))...)
	}
	return framework.ManagedLabels{}.With(tags, keys)
}

// metadataMap is the service's list of pairs as a map. The service keeps every pair it is sent,
// so a key may be held more than once. A pair held twice is one pair, as a tag held twice is one
// tag: whoever reads the video finds one value for the key. A key held with different values has
// no one value: it maps to the JSON array of its values (each once, in the service's order),
// which shows them all and differs from the one value that a configuration gives the key, so that
// the plan shows the drift and the apply, which sends the key once, puts it right.
func metadataMap(kvs []videohost.Metadata) map[string]string {
	values := make(map[string][]string, len(kvs))
	for _, kv := range kvs {
		if !slices.Contains(values[kv.Key], kv.Value) {
			values[kv.Key] = append(values[kv.Key], kv.Value)
		}
	}
	md := make(map[string]string, len(values))
	for k, vs := range values {
		md[k] = vs[0]
		if len(vs) > 1 {
			raw, _ := json.Marshal(vs) // A slice of strings always encodes.
			md[k] = string(raw)
		}
	}
	return md
}

// metadataList is md as the service takes it, in the order of its keys, so that the same map
// always sends the same body.
func metadataList(md map[string]string) []videohost.Metadata {
	out := make([]videohost.Metadata, 0, len(md))
	for _, k := range slices.Sorted(maps.Keys(md)) {
		out = append(out, videohost.Metadata{Key: k, Value: md[k]})
	}
	return out
}

// knownStrings is a known set's strings; false when it, or one of its elements, is unknown.
// Null is an empty set.
func knownStrings(ctx context.Context, s types.Set, diags *diag.Diagnostics) ([]string, bool) {
	if s.IsUnknown() || slices.ContainsFunc(s.Elements(), attr.Value.IsUnknown) {
		return nil, false
	}
	out := []string{}
	if !s.IsNull() {
		diags.Append(s.ElementsAs(ctx, &out, false)...)
	}
	return out, true
}

// knownMap is knownStrings for a map.
func knownMap(ctx context.Context, m types.Map, diags *diag.Diagnostics) (map[string]string, bool) {
	if m.IsUnknown() {
		return nil, false
	}
	for _, e := range m.Elements() {
		if e.IsUnknown() {
			return nil, false
		}
	}
	out := map[string]string{}
	if !m.IsNull() {
		diags.Append(m.ElementsAs(ctx, &out, false)...)
	}
	return out, true
}

// stringSet is s as a set; empty, never null, when s is nil.
func stringSet(ctx context.Context, s []string, diags *diag.Diagnostics) types.Set {
	if s == nil {
		s = []string{}
	}
	v, d := types.SetValueFrom(ctx, types.StringType, s)
	diags.Append(d...)
	return v
}

// stringMap is m as a map; empty, never null, when m is nil.
func stringMap(ctx context.Context, m map[string]string, diags *diag.Diagnostics) types.Map {
	if m == nil {
		m = map[string]string{}
	}
	v, d := types.MapValueFrom(ctx, types.StringType, m)
	diags.Append(d...)
	return v
}
