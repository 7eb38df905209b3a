package provider

// The plan-time checks of the image files that the provider uploads (a watermark, a player
// theme's logo) and their SHA-256, taken when the plan is made so that a change of the file's
// content shows in the plan. The service looks at an image's content, not its name (a buffer is
// sent as a part named "file"), so the checks do too: the magic bytes, the header decoded with
// image.DecodeConfig, then the whole image decoded, so that a file cut short or with a damaged
// chunk (a PNG's CRC, its compressed data) is refused at plan time rather than by the service.
// Nothing is sent to the service.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // registers the JPEG decoder that image.DecodeConfig and image.Decode use
	_ "image/png"  // registers the PNG decoder that image.DecodeConfig and image.Decode use
	"io"
	"os"
	"path/filepath"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// imageLimits bound an image file; zero fields do not bound.
type imageLimits struct {
	maxWidth, maxHeight int
	maxBytes            int64
}

// imageFacts is what the checks learn of an image file.
type imageFacts struct {
	format        string // "jpeg" or "png"
	width, height int
	size          int64
	sha256        string // lowercase hex
	record        fileHashRecord
}

var (
	pngMagic  = []byte("\x89PNG\r\n\x1a\n")
	jpegMagic = []byte{0xff, 0xd8, 0xff}
)

// readImageFile opens name, checks that it is a JPEG or PNG within lim and hashes it, reading
// its header, then the whole file once, without holding it whole; when prior records the file as it is now,
// its SHA-256 is taken from prior and nothing is read (the file was checked when it was hashed).
// The error says what is wrong in words for the user.
func readImageFile(name string, lim imageLimits, prior fileHashRecord) (imageFacts, error) {
	f, id, err := openRegularFile(name)
	if nr, ok := isNotRegular(err); ok {
		if nr.Kind == "directory" {
			return imageFacts{}, errors.New("it is a directory, not a file")
		}
		return imageFacts{}, fmt.Errorf("it is not a regular file (it is a %s): copy the image to a regular file", nr.Kind)
	}
	if err != nil {
		return imageFacts{}, fmt.Errorf("the file cannot be read: %w", err)
	}
	defer f.Close()
	if sum, ok := prior.trusted(id); ok {
		return imageFacts{size: id.Size, sha256: sum, record: prior}, nil
	}
	switch {
	case id.Size == 0:
		return imageFacts{}, errors.New("the file is empty")
	case lim.maxBytes > 0 && id.Size > lim.maxBytes:
		return imageFacts{}, fmt.Errorf("the file holds %d bytes, more than the %d bytes (%d KiB) the service takes",
			id.Size, lim.maxBytes, lim.maxBytes>>10)
	case id.Size > videohost.MaxUploadChunkSize:
		return imageFacts{}, fmt.Errorf("the file holds %d bytes, more than the %d bytes the service takes in one upload",
			id.Size, int64(videohost.MaxUploadChunkSize))
	}
	var head [8]byte
	n, _ := io.ReadFull(f, head[:])
	if !bytes.HasPrefix(head[:n], pngMagic) && !bytes.HasPrefix(head[:n], jpegMagic) {
		return imageFacts{}, errors.New("its content is neither a JPEG nor a PNG image (the service takes only " +
			"those two, whatever the file's name)")
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return imageFacts{}, fmt.Errorf("the file cannot be read: %w", err)
	}
	cfg, format, err := image.DecodeConfig(f)
	if err != nil || (format != "jpeg" && format != "png") {
		return imageFacts{}, fmt.Errorf("it starts like a JPEG or PNG image but its header cannot be decoded (%v): "+
			"save it again as a JPEG or PNG", err)
	}
	facts := imageFacts{format: format, width: cfg.Width, height: cfg.Height, size: id.Size}
	if (lim.maxWidth > 0 && cfg.Width > lim.maxWidth) || (lim.maxHeight > 0 && cfg.Height > lim.maxHeight) {
		return facts, fmt.Errorf("the image is %d × %d pixels, larger than the %d × %d pixels the service takes",
			cfg.Width, cfg.Height, lim.maxWidth, lim.maxHeight)
	}
	facts.record, err = decodeWholeImage(f, id, cfg)
	facts.sha256 = facts.record.SHA256
	return facts, err
}

// maxDecodedPixels bounds the images that are decoded whole: decoding holds every pixel in
// memory (8 bytes each at most), and a few MiB of PNG can hold more pixels than a plan should
// spend memory on. A larger image is checked by its header only, and the service judges the rest.
const maxDecodedPixels = 16 << 20

// decodeWholeImage reads f again from its start, decoding the whole image (of header cfg) from
// the bytes as they are hashed, then hashing what follows the image's end: the file is read in
// one pass and never held whole. It returns the record of the file's SHA-256 (of identity id), or
// why the image does not decode: truncated, a damaged chunk or checksum, or data that is not an
// image's.
func decodeWholeImage(f *os.File, id fileIdentity, cfg image.Config) (fileHashRecord, error) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return fileHashRecord{}, fmt.Errorf("the file cannot be read: %w", err)
	}
	h := newFileHasher(f.Name())
	if int64(cfg.Width)*int64(cfg.Height) <= maxDecodedPixels {
		if _, _, err := image.Decode(io.TeeReader(f, h)); err != nil {
			return fileHashRecord{}, fmt.Errorf("its header is a JPEG's or a PNG's, but the image does not decode whole (%v): the file "+
				"is cut short or damaged; export or save it again as a JPEG or PNG", err)
		}
	}
	if _, err := io.Copy(h, f); err != nil {
		return fileHashRecord{}, fmt.Errorf("the file cannot be read: %w", err)
	}
	return h.record(id), nil
}

// imageRequirement says what lim takes, to complete "the path of a JPEG or PNG image file".
func imageRequirement(lim imageLimits) string {
	var req string
	if lim.maxWidth > 0 {
		req += fmt.Sprintf(" of at most %d × %d pixels", lim.maxWidth, lim.maxHeight)
	}
	if lim.maxBytes > 0 {
		req += fmt.Sprintf(" and %d KiB", lim.maxBytes>>10)
	}
	return req
}

// checkPlannedImage checks, before an upload, that the image file name is still valid and has
// the SHA-256 that the plan took (wantSHA; "" when the plan took none): a file changed between
// plan and apply is not the one the plan showed, and is not uploaded.
func checkPlannedImage(name, wantSHA string, lim imageLimits) (imageFacts, error) {
	facts, err := readImageFile(name, lim, fileHashRecord{})
	if err != nil {
		return facts, err
	}
	if wantSHA != "" && facts.sha256 != wantSHA {
		return facts, fmt.Errorf("the file changed after the plan was made (its SHA-256 is now %s, the plan has %s): "+
			"run terraform apply again to plan the new content", facts.sha256, wantSHA)
	}
	return facts, nil
}

// addImageFileError is the diagnostic of an image file that checkPlannedImage refused: an error
// on the attribute at that names the file's problem.
func addImageFileError(diags *diag.Diagnostics, at path.Path, summary string, err error) {
	diags.AddAttributeError(at, summary, fmt.Sprintf("Nothing was uploaded: %s. Set %s to the path of a JPEG or PNG "+
		"image file, then re-run.", err, attrInWords(at)))
}

// uploadImage uploads the image file name with send after checkPlannedImage; the callers run
// checkPlannedImage first, so that a problem of the file is an error on its attribute rather
// than a failed request.
func uploadImage[T any](ctx context.Context, name, wantSHA string, lim imageLimits,
	send func(context.Context, videohost.UploadSource) (T, error),
) (T, error) {
	var zero T
	facts, err := checkPlannedImage(name, wantSHA, lim)
	if err != nil {
		return zero, err
	}
	f, _, err := openRegularFile(name)
	if err != nil {
		return zero, fmt.Errorf("the file cannot be read: %w", err)
	}
	defer f.Close()
	return send(ctx, videohost.UploadSource{Name: filepath.Base(name), Reader: f, Size: facts.size})
}

// planFileSHA256 is the SHA-256 that the plan records for the image file that file names:
// unknown while the path is, null without a file. The record of the hash kept in the private
// state under attr is trusted while the file is unchanged, and the new one kept in its place. A
// file that is no longer a valid image is an error on the attribute attr.
func planFileSHA256(ctx context.Context, file types.String, lim imageLimits, attr string, req resource.ModifyPlanRequest,
	resp *resource.ModifyPlanResponse,
) types.String {
	switch {
	case file.IsUnknown():
		return types.StringUnknown()
	case file.IsNull():
		return types.StringNull()
	}
	at := path.Root(attr)
	facts, err := readImageFile(file.ValueString(), lim, loadHashRecord(ctx, req.Private, attr, file.ValueString()))
	if err != nil {
		// Checked here, when the plan is made, rather than by a validator: terraform validate
		// then works where the images are absent (a CI job that checks configurations), as it
		// does for the files of videos and captions.
		resp.Diagnostics.AddAttributeError(at, "Invalid Image File", fmt.Sprintf("Set %s to the path of a JPEG or PNG image "+
			"file%s: %s.", attrInWords(at), imageRequirement(lim), err))
		return types.StringUnknown()
	}
	storeHashRecord(ctx, resp.Private, attr, facts.record, &resp.Diagnostics)
	return types.StringValue(facts.sha256)
}
