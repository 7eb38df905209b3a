package provider

// The provider arguments default_tags, default_metadata, ignore_tags and ignore_metadata_keys:
// their schema, and their reading into framework.DefaultLabels with the checks that only the
// provider can make (an ignore rule must not hide one of the provider's own defaults).

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
)

// IgnoreRuleHidesDefault is the summary of the error of an ignore rule that matches a default.
const IgnoreRuleHidesDefault = "Ignore Rule Hides a Default"

// DefaultLabelsConfig is the provider's configuration of default labels and ignore rules.
type DefaultLabelsConfig struct {
	DefaultTags        types.Set
	DefaultMetadata    types.Map
	IgnoreTags         types.Object
	IgnoreMetadataKeys types.Object
}

// ignoreRuleAttributes are the attributes of ignore_tags (exact named tags) and
// ignore_metadata_keys (exact named keys).
func ignoreRuleAttributes(exact, what string) map[string]schema.Attribute {
	nonEmpty := []validator.Set{setvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1))}
	return map[string]schema.Attribute{
		exact: schema.SetAttribute{
			MarkdownDescription: "The " + what + " to ignore, exactly. Default none.",
			ElementType:         types.StringType, Optional: true, Validators: nonEmpty,
		},
		"prefixes": schema.SetAttribute{
			MarkdownDescription: "Ignore every " + strings.TrimSuffix(what, "s") + " that starts with one of these " +
				"(non-empty) prefixes. Default none.",
			ElementType: types.StringType, Optional: true, Validators: nonEmpty,
		},
	}
}

// DefaultLabelsAttributes are the provider's attributes of default labels and ignore rules;
// tags and metadata are the kind's own checks of a tag set and of a metadata map, so that a
// default is held to the bounds of the values it joins.
func DefaultLabelsAttributes(tags validator.Set, metadata validator.Map) map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"default_tags": schema.SetAttribute{
			MarkdownDescription: "Tags added to every video this provider creates or updates, beside the video's own " +
				"`tags` (a tag in both is one tag). The video's `tags_all` shows them all. A change updates every " +
				"video in place. Default none. No environment variable.",
			ElementType: types.StringType, Optional: true, Validators: []validator.Set{tags},
		},
		"default_metadata": schema.MapAttribute{
			MarkdownDescription: "Metadata (key to value) added to every video this provider creates or updates; the " +
				"video's own `metadata` wins for a key in both. The video's `metadata_all` shows the result. A change " +
				"updates every video in place. Default none. No environment variable.",
			ElementType: types.StringType, Optional: true, Validators: []validator.Map{metadata},
		},
		"ignore_tags": schema.SingleNestedAttribute{
			MarkdownDescription: "Tags that other systems set on videos (the dashboard, an ingest pipeline): Terraform " +
				"never removes them and never shows them as drift, and they are left out of `tags` and `tags_all`. " +
				"A tag that the configuration sets itself is managed whatever these say; a rule that matches one of " +
				"`default_tags` is an error. Default none.",
			Optional:   true,
			Attributes: ignoreRuleAttributes("tags", "tags"),
		},
		"ignore_metadata_keys": schema.SingleNestedAttribute{
			MarkdownDescription: "Metadata keys that other systems set on videos: Terraform never removes their pairs " +
				"and never shows them as drift, and they are left out of `metadata` and `metadata_all`. A key that the " +
				"configuration sets itself is managed whatever these say; a rule that matches a key of " +
				"`default_metadata` is an error. Default none.",
			Optional:   true,
			Attributes: ignoreRuleAttributes("keys", "keys"),
		},
	}
}

// DefaultLabelsFrom reads the provider's configuration into framework.DefaultLabels. A default that
// is not known yet is recorded as unknown; an ignore rule must be known when the plan is made
// (what it hides decides the plan of every video), and must not match a default.
func DefaultLabelsFrom(ctx context.Context, cfg DefaultLabelsConfig, diags *diag.Diagnostics) framework.DefaultLabels {
	var l framework.DefaultLabels
	l.TagsUnknown = !fullyKnown(cfg.DefaultTags)
	if !l.TagsUnknown && !cfg.DefaultTags.IsNull() {
		diags.Append(cfg.DefaultTags.ElementsAs(ctx, &l.Tags, false)...)
		slices.Sort(l.Tags)
	}
	l.MetadataUnknown = !fullyKnown(cfg.DefaultMetadata)
	if !l.MetadataUnknown && !cfg.DefaultMetadata.IsNull() {
		diags.Append(cfg.DefaultMetadata.ElementsAs(ctx, &l.Metadata, false)...)
	}
	l.IgnoreTags = ignoreRuleFrom(ctx, cfg.IgnoreTags, "ignore_tags", "tags", diags)
	l.IgnoreMetadata = ignoreRuleFrom(ctx, cfg.IgnoreMetadataKeys, "ignore_metadata_keys", "keys", diags)
	CheckIgnoreRules(l, diags)
	return l
}

// CheckIgnoreRules refuses an ignore rule that would hide a known default: the provider would
// send a value that it then never sees, and could neither restore it nor show that it is gone.
func CheckIgnoreRules(l framework.DefaultLabels, diags *diag.Diagnostics) {
	keys := make([]string, 0, len(l.Metadata))
	for k := range l.Metadata {
		keys = append(keys, k)
	}
	for _, c := range []struct {
		rule           framework.IgnoreRule
		attr, exact    string
		defaults       []string
		defaultsAttr   string
		what, whatMany string
	}{
		{l.IgnoreTags, "ignore_tags", "tags", l.Tags, "default_tags", "tag", "tags"},
		{l.IgnoreMetadata, "ignore_metadata_keys", "keys", keys, "default_metadata", "key", "keys"},
	} {
		for _, d := range framework.HiddenDefaults(c.defaults, c.rule) {
			at, how := path.Root(c.attr).AtName("prefixes"), "a prefix of it"
			if slices.Contains(c.rule.Exact, d) {
				at, how = path.Root(c.attr).AtName(c.exact), "it by name"
			}
			diags.AddAttributeError(at, IgnoreRuleHidesDefault, fmt.Sprintf(
				"The %s %q of the provider's %s is also ignored by %s, which names %s. The provider sends its "+
					"defaults to every video, and an ignore rule is only for %s that other systems set. Remove %q "+
					"from %s, or narrow %s so that it no longer matches it.",
				c.what, d, c.defaultsAttr, c.attr, how, c.whatMany, d, c.defaultsAttr, c.attr))
		}
	}
}

// ignoreRuleFrom reads one ignore rule; an error when it is not known.
func ignoreRuleFrom(ctx context.Context, o types.Object, name, exact string, diags *diag.Diagnostics) framework.IgnoreRule {
	var r framework.IgnoreRule
	if o.IsNull() {
		return r
	}
	if !fullyKnown(o) {
		diags.AddAttributeError(path.Root(name), "Provider Ignore Rule Not Yet Known", fmt.Sprintf(
			"The provider attribute %s depends on a value known only after apply, and what it ignores decides the "+
				"plan of every video. Set it from values known at plan time (literals, variables, locals of them).", name))
		return r
	}
	attrs := o.Attributes()
	for _, f := range []struct {
		name string
		into *[]string
	}{{exact, &r.Exact}, {"prefixes", &r.Prefixes}} {
		if s, ok := attrs[f.name].(types.Set); ok && !s.IsNull() {
			diags.Append(s.ElementsAs(ctx, f.into, false)...)
		}
	}
	return r
}

// fullyKnown reports whether v and every value in it are known.
func fullyKnown(v attr.Value) bool {
	if v.IsUnknown() {
		return false
	}
	switch c := v.(type) {
	case types.Set:
		return allKnown(c.Elements())
	case types.Map:
		for _, e := range c.Elements() {
			if !fullyKnown(e) {
				return false
			}
		}
	case types.Object:
		for _, e := range c.Attributes() {
			if !fullyKnown(e) {
				return false
			}
		}
	}
	return true
}

func allKnown(vs []attr.Value) bool {
	for _, e := range vs {
		if !fullyKnown(e) {
			return false
		}
	}
	return true
}
