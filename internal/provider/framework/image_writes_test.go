package framework_test

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/provider/playertheme"
	"github.com/videohost/terraform-provider-videohost/internal/provider/watermark"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// TestCheckPlannedImage: a file whose content changed after the plan took its SHA-256 is refused
// before an upload, with an error on the attribute that names the change.
func TestCheckPlannedImage(t *testing.T) {
	dir := t.TempDir()
	file := acctest.WritePNG(t, dir, "mark.png", 10, 10, 1)
	planned := acctest.FileSHA256(t, file)
	if _, err := framework.CheckPlannedImage(t.Context(), file, planned, watermark.WatermarkImage); err != nil {
		t.Fatalf("the planned file: %v", err)
	}
	acctest.WritePNG(t, dir, "mark.png", 10, 10, 2)
	_, err := framework.CheckPlannedImage(t.Context(), file, planned, watermark.WatermarkImage)
	if err == nil || !strings.Contains(err.Error(), "changed after the plan") {
		t.Fatalf("a changed file: %v", err)
	}
	var diags diag.Diagnostics
	framework.AddImageFileError(&diags, path.Root("source_file"), "Unable to Create Watermark", err)
	if len(diags) != 1 || !strings.Contains(diags[0].Detail(), "source_file") {
		t.Errorf("diagnostics %v", diags)
	}
	d, ok := diags[0].(diag.DiagnosticWithPath)
	if !ok || !d.Path().Equal(path.Root("source_file")) {
		t.Errorf("the error is not on source_file: %v", diags[0])
	}
}

// TestImageServiceErrorsReachTheirAttribute: the service's refusal of an uploaded image, which
// names the multipart field file (and link), is an error on the attribute that gave the file.
func TestImageServiceErrorsReachTheirAttribute(t *testing.T) {
	refusal := func(p, name string) error {
		return &videohost.Error{
			Method: "POST", Path: p, Status: 400, Name: name,
			Type:  "https://docs.api.video/reference/uploaded-file-extension-invalid",
			Title: "Only [jpeg, jpg, JPG, JPEG, png, PNG] extensions are supported.",
		}
	}
	for _, c := range []struct {
		err   error
		attrs map[string]path.Path
		want  path.Path
	}{
		{refusal("/watermarks", "file"), watermark.WatermarkWrites.Attrs, path.Root("source_file")},
		{refusal("/players/pt1/logo", "file"), playertheme.PlayerThemeLogoPaths, path.Root("logo_file")},
		{refusal("/players/pt1/logo", "link"), playertheme.PlayerThemeLogoPaths, path.Root("logo_link")},
	} {
		var diags diag.Diagnostics
		framework.AddAPIErrorDiagnostics(&diags, "Unable to Upload", c.err, nil, c.attrs)
		if len(diags) != 1 {
			t.Fatalf("%d diagnostics: %v", len(diags), diags)
		}
		d, ok := diags[0].(diag.DiagnosticWithPath)
		if !ok || !d.Path().Equal(c.want) {
			t.Errorf("the refusal naming %v is not on %s: %v", c.err, c.want, diags[0])
		}
	}
}
