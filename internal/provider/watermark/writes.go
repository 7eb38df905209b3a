package watermark

// What the watermark's create and delete send: its writeTarget, and the create, in one place so
// that the resource's methods hold no request of their own.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// WatermarkWrites names the watermark for the shared create and delete machinery; the
// service's file is the configuration's source_file.
var WatermarkWrites = framework.WriteTarget{Kind: "Watermark", DeleteByID: (*videohost.Client).DeleteWatermark, Attrs: map[string]path.Path{
	"file": path.Root("source_file"), "watermarkId": path.Root("id"),
}}

// createWatermark uploads the image file as a new watermark; a create whose outcome is unknown
// adopts the watermark it stored. The service keeps nothing of a watermark but its id and
// creation time, so the watermarks are listed before the first attempt, and the one listed
// after the attempt and not before is taken; two or more such watermarks (another client made
// one meanwhile) are an error naming them (see adoption.go). It goes through the shared create
// machinery, which adds the diagnostics; false when there is nothing to record.
func createWatermark(ctx context.Context, pd *framework.ProviderData, diags *diag.Diagnostics, file, sha256 string) (videohost.Watermark, bool) {
	return framework.CreateObject(ctx, pd, WatermarkWrites, diags, framework.AdoptionCreateOps(pd, WatermarkAdoptable(pd, file, sha256)))
}

// WatermarkAdoptable is the upload of file as a watermark for the adoption of unknown outcomes.
func WatermarkAdoptable(pd *framework.ProviderData, file, sha256 string) framework.AdoptableCreate[videohost.Watermark] {
	return framework.AdoptableCreate[videohost.Watermark]{
		Kind: "watermark", Path: "/watermarks",
		Create: func(ctx context.Context) (videohost.Watermark, error) {
			return framework.UploadImage(ctx, file, sha256, WatermarkImage, pd.Client.CreateWatermark)
		},
		List: func(ctx context.Context) ([]videohost.Watermark, error) {
			return pd.Client.ListWatermarks(ctx, videohost.WatermarkFilter{})
		},
		Matches:   func(videohost.Watermark) bool { return true },
		Id:        func(w videohost.Watermark) string { return w.ID },
		ListFirst: true, Sole: true,
	}
}
