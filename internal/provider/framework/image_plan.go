package framework

// The plan step of an attribute that names an image file to upload (a watermark's source_file,
// a theme's logo_file): its checks and its SHA-256, taken when the plan is made so that a change
// of the file's content shows in the plan. Nothing is sent to the service.

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/localfile"
)

// PlanFileSHA256 is the SHA-256 that the plan records for the image file that file names:
// unknown while the path is, null without a file. The record of the hash kept in the private
// state under attr is trusted while the file is unchanged, and the new one kept in its place. A
// file that is no longer a valid image is an error on the attribute attr.
func PlanFileSHA256(ctx context.Context, file types.String, lim localfile.ImageLimits, attr string, req resource.ModifyPlanRequest,
	resp *resource.ModifyPlanResponse,
) types.String {
	switch {
	case file.IsUnknown():
		return types.StringUnknown()
	case file.IsNull():
		return types.StringNull()
	}
	at := path.Root(attr)
	name := file.ValueString()
	prior := LoadHashRecord(ctx, req.Private, attr, name)
	facts, err := localfile.ReadImage(name, lim, prior)
	if err != nil {
		// Checked here, when the plan is made, rather than by a validator: terraform validate
		// then works where the images are absent (a CI job that checks configurations), as it
		// does for the files of videos and captions.
		resp.Diagnostics.AddAttributeError(at, "Invalid Image File", fmt.Sprintf("Set %s to the path of a JPEG or PNG image "+
			"file%s: %s.", attrInWords(at), imageRequirement(lim), err))
		return types.StringUnknown()
	}
	KeepNewHashRecord(ctx, name, prior, facts.Record)
	StoreHashRecord(ctx, resp.Private, attr, facts.Record, &resp.Diagnostics)
	return types.StringValue(facts.SHA256)
}

// imageRequirement says what lim takes, to complete "the path of a JPEG or PNG image file":
// " of at most 200 × 100 pixels and 100 KiB", " of at most 8 MiB", or nothing.
func imageRequirement(lim localfile.ImageLimits) string {
	var bounds []string
	if lim.MaxWidth > 0 {
		bounds = append(bounds, fmt.Sprintf("%d × %d pixels", lim.MaxWidth, lim.MaxHeight))
	}
	if lim.MaxBytes > 0 {
		bounds = append(bounds, byteSizeInWords(lim.MaxBytes))
	}
	if len(bounds) == 0 {
		return ""
	}
	return " of at most " + strings.Join(bounds, " and ")
}

// byteSizeInWords is n bytes in the largest binary unit that holds it whole: "8 MiB",
// "100 KiB", "1000 bytes".
func byteSizeInWords(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
