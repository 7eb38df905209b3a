package provider

// What the watermark's create and delete send: its writeTarget, and the create, in one place so
// that the resource's methods hold no request of their own.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// watermarkWrites names the watermark for the shared create and delete machinery; the
// service's file is the configuration's source_file.
var watermarkWrites = writeTarget{kind: "Watermark", deleteByID: (*videohost.Client).DeleteWatermark, attrs: map[string]path.Path{
	"file": path.Root("source_file"), "watermarkId": path.Root("id"),
}}

// createWatermark uploads the image file as a new watermark; a create whose outcome is unknown
// adopts the watermark it stored. The service keeps nothing of a watermark but its id and
// creation time, so the watermarks are listed before the first attempt, and the one listed
// after the attempt and not before is taken; two or more such watermarks (another client made
// one meanwhile) are an error naming them (see adoption.go). It goes through the shared create
// machinery, which adds the diagnostics; false when there is nothing to record.
func createWatermark(ctx context.Context, pd *providerData, diags *diag.Diagnostics, file, sha256 string) (videohost.Watermark, bool) {
	return createObject(ctx, pd, watermarkWrites, diags, adoptionCreateOps(pd, watermarkAdoptable(pd, file, sha256)))
}

// watermarkAdoptable is the upload of file as a watermark for the adoption of unknown outcomes.
func watermarkAdoptable(pd *providerData, file, sha256 string) adoptableCreate[videohost.Watermark] {
	return adoptableCreate[videohost.Watermark]{
		kind: "watermark", path: "/watermarks",
		create: func(ctx context.Context) (videohost.Watermark, error) {
			return uploadImage(ctx, file, sha256, watermarkImage, pd.client.CreateWatermark)
		},
		list: func(ctx context.Context) ([]videohost.Watermark, error) {
			return pd.client.ListWatermarks(ctx, videohost.WatermarkFilter{})
		},
		matches:   func(videohost.Watermark) bool { return true },
		id:        func(w videohost.Watermark) string { return w.ID },
		listFirst: true, sole: true,
	}
}
