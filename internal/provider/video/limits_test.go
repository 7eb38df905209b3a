package video_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/provider/video"
)

// TestAccInputBoundsAtPlan: what the service or the apply would refuse, or what would make every
// apply fail, is refused when the plan is made, with a message that says what to do, and no
// request reaches the service: timeouts below a second, an empty metadata key, tags, metadata
// and a title beyond their bounds, and a webhook address with credentials (never repeated). It
// only plans, so it runs against any endpoint: the test's proxy counts the requests there.
func TestAccInputBoundsAtPlan(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	title := "title = " + acctest.Hcl(env.Name("bounds"))
	video := func(body string) string {
		return env.ProviderConfig("") + "resource \"videohost_video\" \"v\" {\n  source_url = \"https://media.example.test/a.mp4\"\n" + body + "\n}\n"
	}
	many := func(n int, f func(i int) string) string {
		items := make([]string, n)
		for i := range items {
			items[i] = f(i)
		}
		return strings.Join(items, ", ")
	}
	steps := []resource.TestStep{
		{Config: video(title + "\n" + `timeouts { create = "0s" }`), ExpectError: wrapped(`Timeout Too Short.*timeouts.create = "0s" is zero.*at least 1s`)},
		{Config: video(title + "\n" + `timeouts { create = "-5s" }`), ExpectError: wrapped(`Timeout Too Short.*is negative`)},
		{Config: video(title + "\n" + `timeouts { update = "1ns" }`), ExpectError: wrapped(`Timeout Too Short.*timeouts.update = "1ns" is shorter than a second`)},
		{Config: video(title + "\n" + `metadata = { "" = "x" }`), ExpectError: wrapped(`Empty Metadata Key.*Give the pair a key`)},
		{
			Config:      video(title + "\n" + fmt.Sprintf("tags = [%s]", many(201, func(i int) string { return fmt.Sprintf("%q", fmt.Sprint(i)) }))),
			ExpectError: wrapped(`Too Many Tags.*holds 201 tags; a video has at most 200`),
		},
		{Config: video(title + "\n" + fmt.Sprintf("tags = [%q]", strings.Repeat("é", 256))), ExpectError: wrapped(`Invalid Tag.*256 characters.*1 to 255`)},
		{Config: video(fmt.Sprintf("title = %q", strings.Repeat("x", 1001))), ExpectError: wrapped(`Value Too Long.*1001 characters.*at most 1000`)},
		{
			Config:      video(title + "\n" + fmt.Sprintf("metadata = { %s }", many(101, func(i int) string { return fmt.Sprintf("k%d = \"v\"", i) }))),
			ExpectError: wrapped(`Too Many Metadata Pairs.*101 pairs`),
		},
		{Config: video(title + "\n" + fmt.Sprintf("metadata = { k = %q }", strings.Repeat("v", 1001))), ExpectError: wrapped(`Value Too Long.*metadata value is at most 1000`)},
		{
			Config:      env.ProviderConfig("") + webhookConfigOf("https://user:p4ss@receiver.example.test/hook"),
			ExpectError: wrapped(`Credentials in Webhook URL.*signature_secret`),
		},
	}
	for i := range steps {
		steps[i].PlanOnly = true
	}
	steps = append(steps, resource.TestStep{
		PreConfig: func() {
			acctest.NoRequestsTo(t, env, "/videos", "every configuration was refused at plan time")()
			acctest.NoRequestsTo(t, env, "/webhooks", "every configuration was refused at plan time")()
		},
		Config:             video(title + "\n" + `timeouts { create = "1s" }` + "\n" + fmt.Sprintf("tags = [%s]", many(200, func(i int) string { return fmt.Sprintf("%q", fmt.Sprint(i)) }))),
		PlanOnly:           true,
		ExpectNonEmptyPlan: true,
	})
	acctest.AccTest(t, resource.TestCase{ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories, Steps: steps})
}

// wrapped matches pattern whose spaces may be any white space: Terraform wraps the details.
func wrapped(pattern string) *regexp.Regexp {
	return regexp.MustCompile("(?s)" + strings.ReplaceAll(pattern, " ", `\s+`))
}

// webhookConfigOf is a videohost_webhook of url.
func webhookConfigOf(url string) string {
	return fmt.Sprintf("resource \"videohost_webhook\" \"w\" {\n  url    = %q\n  events = [\"video.encoding.quality.completed\"]\n}\n", url)
}

// TestStringSetTypeFindsDuplicates: the linear check refuses what basetypes.SetType refuses.
func TestStringSetTypeFindsDuplicates(t *testing.T) {
	set := func(elems ...string) tftypes.Value {
		vals := make([]tftypes.Value, len(elems))
		for i, e := range elems {
			vals[i] = tftypes.NewValue(tftypes.String, e)
		}
		return tftypes.NewValue(tftypes.Set{ElementType: tftypes.String}, vals)
	}
	for _, tc := range []struct {
		in   tftypes.Value
		dups int
	}{
		{set("a", "b", "c"), 0},
		{set("a", "b", "a"), 1},
		{set(), 0},
		{tftypes.NewValue(tftypes.Set{ElementType: tftypes.String}, tftypes.UnknownValue), 0},
		{tftypes.NewValue(tftypes.Set{ElementType: tftypes.String}, nil), 0},
	} {
		ours := video.NewStringSetType().Validate(context.Background(), tc.in, path.Root("tags"))
		theirs := basetypes.SetType{ElemType: types.StringType}.Validate(context.Background(), tc.in, path.Root("tags"))
		if ours.ErrorsCount() != tc.dups || theirs.ErrorsCount() != tc.dups {
			t.Errorf("%v: %d errors here, %d in the framework; want %d", tc.in, ours.ErrorsCount(), theirs.ErrorsCount(), tc.dups)
		}
	}
}

// BenchmarkSetValidate prints the cost of one duplicate check of a set of 3,000 tags, the
// framework's and this provider's; the framework reads a set through it some ten times a plan.
func BenchmarkSetValidate(b *testing.B) {
	vals := make([]tftypes.Value, 3000)
	for i := range vals {
		vals[i] = tftypes.NewValue(tftypes.String, fmt.Sprintf("tag-%06d", i))
	}
	in := tftypes.NewValue(tftypes.Set{ElementType: tftypes.String}, vals)
	b.Run("framework", func(b *testing.B) {
		for b.Loop() {
			_ = basetypes.SetType{ElemType: types.StringType}.Validate(context.Background(), in, path.Root("tags"))
		}
	})
	b.Run("stringSetType", func(b *testing.B) {
		for b.Loop() {
			_ = video.NewStringSetType().Validate(context.Background(), in, path.Root("tags"))
		}
	})
}
