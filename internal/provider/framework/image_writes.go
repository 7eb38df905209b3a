package framework

// The upload of an image file that a plan checked (a watermark, a theme's logo): the file must
// still be the one whose SHA-256 the plan took.

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/videohost/terraform-provider-videohost/internal/localfile"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// CheckPlannedImage checks, before an upload, that the image file name is still valid and has
// the SHA-256 that the plan took (wantSHA; "" when the plan took none): a file changed between
// plan and apply is not the one the plan showed, and is not uploaded.
func CheckPlannedImage(ctx context.Context, name, wantSHA string, lim localfile.ImageLimits) (localfile.ImageFacts, error) {
	facts, err := localfile.ReadImage(name, lim, localfile.Record{})
	if err != nil {
		return facts, err
	}
	KeepHashRecord(ctx, name, facts.Record)
	if wantSHA != "" && facts.SHA256 != wantSHA {
		return facts, fmt.Errorf("the file changed after the plan was made (its SHA-256 is now %s, the plan has %s): "+
			"run terraform apply again to plan the new content", facts.SHA256, wantSHA)
	}
	return facts, nil
}

// AddImageFileError is the diagnostic of an image file that CheckPlannedImage refused: an error
// on the attribute at that names the file's problem.
func AddImageFileError(diags *diag.Diagnostics, at path.Path, summary string, err error) {
	diags.AddAttributeError(at, summary, fmt.Sprintf("Nothing was uploaded: %s. Set %s to the path of a JPEG or PNG "+
		"image file, then re-run.", err, attrInWords(at)))
}

// UploadImage uploads the image file name with send after CheckPlannedImage; the callers run
// CheckPlannedImage first, so that a problem of the file is an error on its attribute rather
// than a failed request.
func UploadImage[T any](ctx context.Context, name, wantSHA string, lim localfile.ImageLimits,
	send func(context.Context, videohost.UploadSource) (T, error),
) (T, error) {
	var zero T
	facts, err := CheckPlannedImage(ctx, name, wantSHA, lim)
	if err != nil {
		return zero, err
	}
	f, _, err := localfile.OpenRegular(name)
	if err != nil {
		return zero, fmt.Errorf("the file cannot be read: %w", err)
	}
	defer f.Close()
	// The bytes are hashed as they are sent, on every attempt: a file rewritten during a retry's
	// wait is not sent as if it were the planned one.
	got, err := send(ctx, videohost.UploadSource{Name: filepath.Base(name), Reader: f, Size: facts.Size, SHA256: facts.SHA256})
	if errors.Is(err, videohost.ErrSourceChanged) {
		return got, fmt.Errorf("the file changed while it was sent, so its upload was stopped (%w): run terraform "+
			"apply again to plan the new content", err)
	}
	return got, err
}
