package framework

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/localfile"
)

// TestImageRequirement: what an image attribute takes reads as one phrase after "the path of a
// JPEG or PNG image file", whichever limits the kind has.
func TestImageRequirement(t *testing.T) {
	for _, c := range []struct {
		lim  localfile.ImageLimits
		want string
	}{
		{thumbnailImage, " of at most 8 MiB"},
		{localfile.ImageLimits{MaxWidth: 200, MaxHeight: 100, MaxBytes: 100 << 10}, " of at most 200 × 100 pixels and 100 KiB"},
		{localfile.ImageLimits{MaxWidth: 200, MaxHeight: 100}, " of at most 200 × 100 pixels"},
		{localfile.ImageLimits{MaxBytes: 1000}, " of at most 1000 bytes"},
		{localfile.ImageLimits{MaxUpload: 200 << 20}, ""},
	} {
		if got := imageRequirement(c.lim); got != c.want {
			t.Errorf("imageRequirement(%+v) = %q, want %q", c.lim, got, c.want)
		}
	}
}

// TestInvalidThumbnailFileSaysWhatItTakes: the plan's error on a thumbnail_file that is not an
// image says what to set, in one sentence.
func TestInvalidThumbnailFileSaysWhatItTakes(t *testing.T) {
	t.Setenv("VIDEOHOST_FILE_HASH_CACHE_DIR", "")
	name := filepath.Join(t.TempDir(), "poster.png")
	if err := os.WriteFile(name, []byte("not an image"), 0o600); err != nil {
		t.Fatal(err)
	}
	var resp resource.ModifyPlanResponse
	PlanFileSHA256(t.Context(), types.StringValue(name), thumbnailImage, "thumbnail_file", resource.ModifyPlanRequest{}, &resp)
	if resp.Diagnostics.ErrorsCount() != 1 {
		t.Fatalf("want one error, got %v", resp.Diagnostics)
	}
	d := resp.Diagnostics.Errors()[0]
	const want = "Set thumbnail_file to the path of a JPEG or PNG image file of at most 8 MiB: "
	if d.Summary() != "Invalid Image File" || !strings.HasPrefix(d.Detail(), want) {
		t.Errorf("%s: %s\nwant a detail that starts %q", d.Summary(), d.Detail(), want)
	}
}
