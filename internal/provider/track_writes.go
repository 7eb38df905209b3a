package provider

// What the caption and chapter resources' creates send: the track's file opened, checked and
// uploaded through the shared create machinery.

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// openTrackFile opens the plan's source file for an upload. It returns the file (which the
// caller closes), the upload and the file's hash, or false with an error on source_file: the
// file changed after the plan, or can no longer be uploaded.
func openTrackFile(b *trackBase, diags *diag.Diagnostics, plan videoTrackModel) (*os.File, videohost.UploadSource, string, bool) {
	planned := ""
	if !plan.SourceSHA256.IsUnknown() {
		planned = plan.SourceSHA256.ValueString()
	}
	fh, src, sum, why := openWebVTT(plan.SourceFile.ValueString(), planned)
	if why != "" {
		diags.AddAttributeError(path.Root("source_file"), "Unusable Source File",
			fmt.Sprintf("source_file must name a WebVTT file to upload as the %s: %s.", b.noun, why))
		return nil, src, "", false
	}
	return fh, src, sum, true
}

// uploadTrack uploads the plan's source file again with send, which replaces the file on the
// service. It returns what the service answered and the file's hash, or false with an error.
func uploadTrack[T any](ctx context.Context, b *trackBase, diags *diag.Diagnostics, plan videoTrackModel,
	send func(*videohost.Client, context.Context, string, string, videohost.UploadSource) (T, error),
) (T, string, bool) {
	var zero T
	fh, src, sum, ok := openTrackFile(b, diags, plan)
	if !ok {
		return zero, "", false
	}
	defer fh.Close()
	obj, err := send(b.pd.client, ctx, plan.VideoID.ValueString(), plan.Language.ValueString(), src)
	if err != nil {
		addAPIErrorDiagnostics(diags, "Unable to Update "+b.kind, err, b.pd, b.attrs)
		return zero, "", false
	}
	return obj, sum, true
}

// createTrack uploads the plan's file as a new caption or chapter through the shared create
// rules (writes.go). The service's upload replaces a file of the same language
// silently, so one that exists already (made outside Terraform, or by another resource) is
// refused first, with the import that adopts it.
func createTrack[T any](ctx context.Context, b *trackBase, diags *diag.Diagnostics, plan videoTrackModel,
	get func(*videohost.Client, context.Context, string, string) (T, error),
	upload func(*videohost.Client, context.Context, string, string, videohost.UploadSource) (T, error),
) (T, string, bool) {
	var zero T
	videoID, language := plan.VideoID.ValueString(), plan.Language.ValueString()
	fh, src, sum, ok := openTrackFile(b, diags, plan)
	if !ok {
		return zero, "", false
	}
	defer fh.Close()
	_, err := get(b.pd.client, ctx, videoID, language)
	switch {
	case err == nil:
		diags.AddAttributeError(path.Root("language"), b.kind+" Already Exists",
			fmt.Sprintf("Video %s already has a %s for language %s, and uploading would replace it. Import it to manage it "+
				"(terraform import, or an import block with id = %q), or delete it first.", videoID, b.noun, language,
				trackID(videoID, language)))
		return zero, "", false
	case !errors.Is(err, videohost.ErrNotFound):
		addAPIErrorDiagnostics(diags, "Unable to Create "+b.kind, err, b.pd, b.attrs)
		return zero, "", false
	}
	obj, ok := createObject(ctx, b.pd, b.writeTarget, diags, createOps[T]{
		send: func(ctx context.Context) (T, error) { return upload(b.pd.client, ctx, videoID, language, src) },
		find: func(ctx context.Context) (T, bool, error) {
			obj, err := get(b.pd.client, ctx, videoID, language)
			if errors.Is(err, videohost.ErrNotFound) {
				return obj, false, nil
			}
			return obj, err == nil, err
		},
		id: func(T) string { return trackID(videoID, language) },
	})
	return obj, sum, ok
}
