package video

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// The bounds of a video's title, tags and metadata, checked when the configuration is
// validated. The service's published interface gives none for these members; the bound it
// has is the size of a request body (1 MiB, after which it answers only "The payload is
// invalid."). Without bounds, a plan of 10,000 tags and a 1 MB title ran minutes of CPU in
// Terraform and the plugin framework, whose handling of a set is quadratic (see
// StringSetType), before the service refused the create. These are far above any use met
// (a title is a line, tags and metadata a few dozen). At these bounds a body is 180 KB in
// characters that HTML would escape (the client sends <, > and & as they are) and 710 KB in
// 4-byte characters, but 1.06 MB in characters that JSON itself must escape as six bytes
// (control characters, U+2028): so the body is also measured as the client will send it
// (checkVideoBodySize), and what validates fits when sent. The emulator enforces the same
// bounds and names them.
const (
	maxVideoTitle         = 1000
	maxVideoTags          = 200
	maxVideoTag           = 255
	maxVideoMetadata      = 100
	maxVideoMetadataKey   = 255
	maxVideoMetadataValue = 1000
)

// titleLengthCheck refuses a title longer than maxVideoTitle characters.
func titleLengthCheck() validator.String {
	return framework.StringCheck{
		Desc:    fmt.Sprintf("value must be at most %d characters", maxVideoTitle),
		Summary: "Value Too Long",
		Check: func(s string) string {
			if n := utf8.RuneCountInString(s); n > maxVideoTitle {
				return fmt.Sprintf("it is %d characters long, and a video's title is at most %d", n, maxVideoTitle)
			}
			return ""
		},
		Detail: func(p, why string) string { return fmt.Sprintf("Shorten %s: %s.", p, why) },
	}
}

// videoTagsCheck bounds the number and the length of a video's tags.
type videoTagsCheck struct{}

var _ validator.Set = videoTagsCheck{}

func (videoTagsCheck) Description(context.Context) string {
	return fmt.Sprintf("at most %d tags of 1 to %d characters", maxVideoTags, maxVideoTag)
}

func (c videoTagsCheck) MarkdownDescription(ctx context.Context) string { return c.Description(ctx) }

func (videoTagsCheck) ValidateSet(_ context.Context, req validator.SetRequest, resp *validator.SetResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	elems := req.ConfigValue.Elements()
	if len(elems) > maxVideoTags {
		resp.Diagnostics.AddAttributeError(req.Path, "Too Many Tags", fmt.Sprintf("%s holds %d tags; a video has at "+
			"most %d. Keep the tags that viewers and searches use, and put the rest in metadata.", req.Path, len(elems), maxVideoTags))
		return
	}
	for _, e := range elems {
		s, ok := knownString(e)
		if !ok {
			continue
		}
		if n := utf8.RuneCountInString(s); n == 0 || n > maxVideoTag {
			resp.Diagnostics.AddAttributeError(req.Path, "Invalid Tag", fmt.Sprintf("A tag of %s is %d characters "+
				"long; each tag is 1 to %d characters. Shorten or remove it: %s.", req.Path, n, maxVideoTag, cut(s, 40)))
		}
	}
}

// videoMetadataCheck refuses an empty key and bounds the number and the length of a video's
// metadata.
type videoMetadataCheck struct{}

var _ validator.Map = videoMetadataCheck{}

func (videoMetadataCheck) Description(context.Context) string {
	return fmt.Sprintf("at most %d pairs, keys of 1 to %d characters, values of at most %d",
		maxVideoMetadata, maxVideoMetadataKey, maxVideoMetadataValue)
}

func (c videoMetadataCheck) MarkdownDescription(ctx context.Context) string {
	return c.Description(ctx)
}

func (videoMetadataCheck) ValidateMap(_ context.Context, req validator.MapRequest, resp *validator.MapResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	elems := req.ConfigValue.Elements()
	if len(elems) > maxVideoMetadata {
		resp.Diagnostics.AddAttributeError(req.Path, "Too Many Metadata Pairs", fmt.Sprintf("%s holds %d pairs; a "+
			"video has at most %d. Merge or remove some.", req.Path, len(elems), maxVideoMetadata))
		return
	}
	keys := make([]string, 0, len(elems))
	for k := range elems {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		at := req.Path.AtMapKey(k)
		switch n := utf8.RuneCountInString(k); {
		case n == 0:
			resp.Diagnostics.AddAttributeError(at, "Empty Metadata Key", fmt.Sprintf("%s has a pair whose key is "+
				"empty, which the service refuses. Give the pair a key, or remove it.", req.Path))
		case n > maxVideoMetadataKey:
			resp.Diagnostics.AddAttributeError(at, "Invalid Metadata Key", fmt.Sprintf("A key of %s is %d characters "+
				"long; a key is at most %d. Shorten it: %s.", req.Path, n, maxVideoMetadataKey, cut(k, 40)))
		}
		if v, ok := knownString(elems[k]); ok && utf8.RuneCountInString(v) > maxVideoMetadataValue {
			resp.Diagnostics.AddAttributeError(at, "Value Too Long", fmt.Sprintf("%s is %d characters long; a "+
				"metadata value is at most %d. Shorten it.", at, utf8.RuneCountInString(v), maxVideoMetadataValue))
		}
	}
}

// cut quotes s for a message, cut to n characters.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("%q...", string([]rune(s)[:n]))
}

// knownString is v's string when v is a known, non-null string.
func knownString(v attr.Value) (string, bool) {
	s, ok := v.(basetypes.StringValue)
	if !ok || s.IsNull() || s.IsUnknown() {
		return "", false
	}
	return s.ValueString(), true
}

// checkVideoBodySize refuses a video whose create body would be larger than the service takes,
// measured as the client encodes it (videohost.BodySize): the bounds above keep the count of
// characters, not the bytes their escapes take, and the description has no bound of its own. m
// is the configuration (ValidateConfig: the video's own values) or the plan of a create
// (ModifyPlan: tags_all and metadata_all, the provider's defaults merged in, which is the body
// Create sends); l are the defaults, nil when m holds none.
func checkVideoBodySize(ctx context.Context, m VideoResourceModel, l *framework.DefaultLabels, diags *diag.Diagnostics) {
	in, d := videoCreateFrom(ctx, m)
	if d.HasError() {
		return
	}
	var fromDefaults videohost.VideoCreate
	if l != nil {
		fromDefaults.Tags, fromDefaults.Metadata = defaultsSent(ctx, m, in.Tags, in.Metadata, *l)
	}
	refuseLargeBody(in, l != nil, []bodyMember{
		{"title", "", videohost.VideoCreate{Title: in.Title}, nil},
		{"description", "", videohost.VideoCreate{Description: in.Description}, nil},
		{"tags", "default_tags", videohost.VideoCreate{Tags: in.Tags}, videohost.VideoCreate{Tags: fromDefaults.Tags}},
		{"metadata", "default_metadata", videohost.VideoCreate{Metadata: in.Metadata}, videohost.VideoCreate{Metadata: fromDefaults.Metadata}},
	}, videohost.VideoCreate{}, diags)
}

// checkVideoUpdateSize is checkVideoBodySize for the PATCH that takes the video from state to
// plan, which sends only what changes. The pairs and tags of other systems that the apply keeps
// (keptIgnoredLabels) are read then, and cannot be counted here.
func checkVideoUpdateSize(ctx context.Context, plan, state VideoResourceModel, l framework.DefaultLabels, diags *diag.Diagnostics) {
	in, d := videoUpdateFrom(ctx, plan, state)
	if d.HasError() {
		return
	}
	title, _ := in.Title.Get()
	description, _ := in.Description.Get()
	tags, _ := in.Tags.Get()
	md, _ := in.Metadata.Get()
	var part videohost.VideoUpdate
	if dt, dm := defaultsSent(ctx, plan, tags, md, l); len(dt)+len(dm) > 0 {
		part.Tags, part.Metadata = videohost.Value(dt), videohost.Value(dm)
	}
	refuseLargeBody(in, true, []bodyMember{
		{"title", "", videohost.VideoUpdate{Title: videohost.Value(title)}, nil},
		{"description", "", videohost.VideoUpdate{Description: videohost.Value(description)}, nil},
		{"tags", "default_tags", videohost.VideoUpdate{Tags: in.Tags}, videohost.VideoUpdate{Tags: part.Tags}},
		{"metadata", "default_metadata", videohost.VideoUpdate{Metadata: in.Metadata}, videohost.VideoUpdate{Metadata: part.Metadata}},
	}, videohost.VideoUpdate{}, diags)
}

// bodyMember is a member of a video's body that the error of a body too large may name: attr,
// its body alone, and defaults, the provider's attribute whose values part of it are, with the
// body of those alone.
type bodyMember struct {
	attr, defaults string
	alone, part    any
}

// refuseLargeBody adds an error on the member that weighs most when body, as the client encodes
// it, is larger than the service takes; empty is the body with no member, which each member's
// size is counted above. merged says that the provider's defaults are in body.
func refuseLargeBody(body any, merged bool, members []bodyMember, empty any, diags *diag.Diagnostics) {
	total, err := videohost.BodySize(body)
	if err != nil || total <= videohost.MaxBodyBytes {
		return
	}
	base, _ := videohost.BodySize(empty)
	heaviest, most := members[1], -1
	for _, m := range members {
		if n, err := videohost.BodySize(m.alone); err == nil && n > most {
			heaviest, most = m, n
		}
	}
	sum := "The video's title, description, tags and metadata"
	if merged {
		sum += ", with the provider's default_tags and default_metadata merged in,"
	}
	what, shorten := heaviest.attr, heaviest.attr
	if heaviest.part != nil {
		if n, err := videohost.BodySize(heaviest.part); err == nil && n > base {
			what = fmt.Sprintf("%s (the provider's %s gives %s of it)", heaviest.attr, heaviest.defaults,
				framework.ApproxBytes(int64(n-base)))
			shorten = fmt.Sprintf("%s or the provider's %s", heaviest.attr, heaviest.defaults)
		}
	}
	diags.AddAttributeError(path.Root(heaviest.attr), "Video Too Large to Send", fmt.Sprintf(
		"%s make a request body of %d bytes (%s), above the %s that the service takes; %s alone is %s. "+
			"Characters that JSON writes as escapes (control characters, U+2028 and U+2029: six bytes each) count "+
			"as their escapes. Shorten %s, or the other members, and re-run.",
		sum, total, framework.ApproxBytes(int64(total)), framework.ApproxBytes(videohost.MaxBodyBytes), what,
		framework.ApproxBytes(int64(most-base)), shorten))
}

// defaultsSent are those of the tags and metadata pairs sent that the provider's defaults give
// and the video's own values (m's) do not.
func defaultsSent(ctx context.Context, m VideoResourceModel, tags []string, md []videohost.Metadata,
	l framework.DefaultLabels,
) ([]string, []videohost.Metadata) {
	var diags diag.Diagnostics
	var outTags []string
	var outMD []videohost.Metadata
	own, _ := knownStrings(ctx, m.Tags.SetValue, &diags)
	for _, t := range tags {
		if slices.Contains(l.Tags, t) && !slices.Contains(own, t) {
			outTags = append(outTags, t)
		}
	}
	ownMD, _ := knownMap(ctx, m.Metadata, &diags)
	for _, kv := range md {
		_, isOwn := ownMD[kv.Key]
		if _, isDefault := l.Metadata[kv.Key]; isDefault && !isOwn {
			outMD = append(outMD, kv)
		}
	}
	return outTags, outMD
}
