package video

import (
	"context"
	"fmt"
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

// checkVideoBodySize refuses a configuration whose create body would be larger than the service
// takes, measured as the client encodes it, with an error on the member that weighs most: the
// bounds above keep the count of characters, not the bytes their escapes take, and the
// description has no bound of its own.
func checkVideoBodySize(ctx context.Context, cfg VideoResourceModel, diags *diag.Diagnostics) {
	in, d := videoCreateFrom(ctx, cfg)
	if d.HasError() {
		return
	}
	total, err := videohost.BodySize(in)
	if err != nil || total <= videohost.MaxBodyBytes {
		return
	}
	members := []struct {
		attr string
		body videohost.VideoCreate
	}{
		{"title", videohost.VideoCreate{Title: in.Title}},
		{"description", videohost.VideoCreate{Description: in.Description}},
		{"tags", videohost.VideoCreate{Tags: in.Tags}},
		{"metadata", videohost.VideoCreate{Metadata: in.Metadata}},
	}
	heaviest, most := "description", -1
	for _, m := range members {
		if n, err := videohost.BodySize(m.body); err == nil && n > most {
			heaviest, most = m.attr, n
		}
	}
	diags.AddAttributeError(path.Root(heaviest), "Video Too Large to Send", fmt.Sprintf(
		"The video's title, description, tags and metadata make a request body of %s, above the %s that the "+
			"service takes; %s alone is %s. Characters that JSON writes as escapes (control characters, U+2028 "+
			"and U+2029: six bytes each) count as their escapes. Shorten %s, or the other members, and re-run.",
		framework.ApproxBytes(int64(total)), framework.ApproxBytes(videohost.MaxBodyBytes), heaviest, framework.ApproxBytes(int64(most)), heaviest))
}
