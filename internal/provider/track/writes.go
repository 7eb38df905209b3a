package track

// What the caption and chapter resources' creates send: the track's file opened, checked and
// uploaded through the shared create machinery.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/videohost/terraform-provider-videohost/internal/localfile"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// TrackOps are the requests of one kind of track (a caption, a chapter file), each addressed by
// the video's id and the language; the kind's _writes.go file names them.
type TrackOps[T any] struct {
	Get    func(*videohost.Client, context.Context, string, string) (T, error)
	Lookup func(*videohost.Client, context.Context, string, string) (T, error)
	Upload func(*videohost.Client, context.Context, string, string, videohost.UploadSource) (T, error)
	Del    func(*videohost.Client, context.Context, string, string) error
}

// openTrackFile opens the plan's source file for an upload. It returns the file (which the
// caller closes), the upload and the file's hash, or false with an error on source_file: the
// file changed after the plan, or can no longer be uploaded.
func openTrackFile(ctx context.Context, b *TrackBase, diags *diag.Diagnostics, plan VideoTrackModel) (*os.File, videohost.UploadSource, string, bool) {
	planned := ""
	if !plan.SourceSHA256.IsUnknown() {
		planned = plan.SourceSHA256.ValueString()
	}
	fh, src, sum, why := OpenWebVTT(ctx, plan.SourceFile.ValueString(), planned)
	if why != "" {
		diags.AddAttributeError(path.Root("source_file"), "Unusable Source File",
			fmt.Sprintf("source_file must name a WebVTT file to upload as the %s: %s.", b.noun, why))
		return nil, src, "", false
	}
	return fh, src, sum, true
}

// OpenWebVTT opens the file name for an upload, after checking that it is still the file that
// the plan hashed (planned, a lowercase hex SHA-256, or "" when the plan could not read it): a
// file changed between plan and apply would upload content that the plan did not show. It
// returns the file, which the caller closes, the upload and the file's hash.
func OpenWebVTT(ctx context.Context, name, planned string) (*os.File, videohost.UploadSource, string, string) {
	f, why := localfile.InspectWebVTT(name, localfile.Record{})
	if why != "" {
		return nil, videohost.UploadSource{}, "", why
	}
	framework.KeepHashRecord(ctx, name, f.Record)
	if planned != "" && f.SHA256 != planned {
		return nil, videohost.UploadSource{}, "", fmt.Sprintf("the file %q changed after the plan was made (its SHA-256 is "+
			"now %s, the plan has %s); run terraform apply again to upload what it holds now", name, f.SHA256, planned)
	}
	fh, _, err := localfile.OpenRegular(name)
	if err != nil {
		return nil, videohost.UploadSource{}, "", fmt.Sprintf("the file %q cannot be read: %v", name, err)
	}
	// SHA256 makes every attempt hash what it sends: a file rewritten during a retry's wait fails
	// the upload rather than sending other bytes than the plan's.
	return fh, videohost.UploadSource{Name: name, Reader: fh, Size: f.Size, SHA256: f.SHA256}, f.SHA256, ""
}

// uploadTrack uploads the plan's source file again with send, which replaces the file on the
// service. It returns what the service answered and the file's hash, or false with an error.
func uploadTrack[T any](ctx context.Context, b *TrackBase, diags *diag.Diagnostics, plan VideoTrackModel,
	send func(*videohost.Client, context.Context, string, string, videohost.UploadSource) (T, error),
) (T, string, bool) {
	var zero T
	fh, src, sum, ok := openTrackFile(ctx, b, diags, plan)
	if !ok {
		return zero, "", false
	}
	defer fh.Close()
	obj, err := send(b.Pd.Client, ctx, plan.VideoID.ValueString(), plan.Language.ValueString(), src)
	if err != nil {
		framework.AddAPIErrorDiagnostics(diags, "Unable to Update "+b.Kind, err, b.Pd, b.Attrs)
		return zero, "", false
	}
	return obj, sum, true
}

// createTrack uploads the plan's file as a new caption or chapter through the shared create
// rules (writes.go) and the adoption of unknown outcomes (adoption.go). The service's
// upload replaces a file of the same language silently, so one that exists before the first
// attempt (made outside Terraform, or by another resource) is refused, with the import that
// adopts it. One that appears after an attempt whose outcome is unknown is this create's: the
// service holds one per video and language, and there was none before.
func createTrack[T any](ctx context.Context, b *TrackBase, diags *diag.Diagnostics, plan VideoTrackModel, ops TrackOps[T]) (T, string, bool) {
	videoID, language := plan.VideoID.ValueString(), plan.Language.ValueString()
	fh, src, sum, ok := openTrackFile(ctx, b, diags, plan)
	if !ok {
		var zero T
		return zero, "", false
	}
	defer fh.Close()
	obj, ok := framework.CreateObject(ctx, b.Pd, b.WriteTarget, diags, framework.AdoptionCreateOps(b.Pd, framework.AdoptableCreate[T]{
		Kind: b.noun, Path: "/videos/" + videoID + "/" + b.noun + "s/" + language,
		Create: func(ctx context.Context) (T, error) {
			if _, err := fh.Seek(0, io.SeekStart); err != nil {
				var zero T
				return zero, err
			}
			obj, err := ops.Upload(b.Pd.Client, ctx, videoID, language, src)
			if errors.Is(err, videohost.ErrServer) && !errors.Is(err, videohost.ErrAmbiguous) {
				// The client sends an upload that replaces again after a 5xx, and each may have
				// stored the file: the outcome is as unknown as a create's.
				err = &videohost.AmbiguousError{Method: "POST", Path: "/videos/" + videoID + "/" + b.noun + "s/" + language, Err: err}
			}
			return obj, err
		},
		List: func(ctx context.Context) ([]T, error) {
			obj, err := ops.Get(b.Pd.Client, ctx, videoID, language)
			if errors.Is(err, videohost.ErrNotFound) {
				return nil, nil
			}
			return []T{obj}, err
		},
		Matches:   func(T) bool { return true },
		Id:        func(T) string { return TrackID(videoID, language) },
		ListFirst: true, Slot: true,
		Existing: func(T) error {
			return &framework.AdoptionError{Attr: path.Root("language"), Summary: b.Kind + " Already Exists",
				Detail: fmt.Sprintf("Video %s already has a %s for language %s, and uploading would replace it. Import it to "+
					"manage it (terraform import, or an import block with id = %q), or delete it first.", videoID, b.noun,
					language, TrackID(videoID, language))}
		},
	}))
	return obj, sum, ok
}
