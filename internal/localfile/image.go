package localfile

// The checks of the image files that the provider uploads (a watermark, a player theme's logo)
// and their SHA-256, taken when the plan is made so that a change of the file's content shows in
// the plan. The service looks at an image's content, not its name (a buffer is
// sent as a part named "file"), so the checks do too: the magic bytes, the header decoded with
// image.DecodeConfig, then the whole file checked without holding its pixels (image_check.go),
// so that a file cut short or with a damaged chunk (a PNG's CRC, its compressed data) is refused
// at plan time rather than by the service. Nothing is sent to the service.

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // registers the JPEG decoder that image.DecodeConfig uses
	_ "image/png"  // registers the PNG decoder that image.DecodeConfig uses
	"io"
	"os"
)

// ImageLimits bound an image file; zero fields do not bound.
type ImageLimits struct {
	MaxWidth, MaxHeight int
	// MaxBytes is the size the service takes for this kind of image.
	MaxBytes int64
	// MaxUpload is the size the service takes in one upload, whatever the file.
	MaxUpload int64
}

// ImageFacts is what the checks learn of an image file.
type ImageFacts struct {
	Format        string // "jpeg" or "png"; "" when a trusted record spared the read
	Width, Height int
	Size          int64
	SHA256        string // lowercase hex
	// Record is the record of SHA256: the prior one when it was trusted, else a new one for the
	// caller to keep.
	Record Record
}

var (
	pngMagic  = []byte("\x89PNG\r\n\x1a\n")
	jpegMagic = []byte{0xff, 0xd8, 0xff}
)

// ReadImage opens name, checks that it is a JPEG or PNG within lim and hashes it, reading
// its header, then the whole file once, without holding it whole; when prior records the file as it is now,
// its SHA-256 is taken from prior and nothing is read (the file was checked when it was hashed).
// The error says what is wrong in words for the user.
func ReadImage(name string, lim ImageLimits, prior Record) (ImageFacts, error) {
	f, id, err := OpenRegular(name)
	if nr, ok := AsNotRegular(err); ok {
		if nr.Kind == "directory" {
			return ImageFacts{}, errors.New("it is a directory, not a file")
		}
		return ImageFacts{}, fmt.Errorf("it is not a regular file (it is a %s): copy the image to a regular file", nr.Kind)
	}
	if dl, ok := AsDanglingLink(err); ok {
		return ImageFacts{}, fmt.Errorf("it is a symbolic link to %q, which does not exist: correct the link's target", dl.Target)
	}
	if err != nil {
		return ImageFacts{}, fmt.Errorf("the file cannot be read: %w", err)
	}
	defer f.Close()
	if sum, ok := prior.Trusted(id); ok {
		return ImageFacts{Size: id.Size, SHA256: sum, Record: prior}, nil
	}
	switch {
	case id.Size == 0:
		return ImageFacts{}, errors.New("the file is empty")
	case lim.MaxBytes > 0 && id.Size > lim.MaxBytes:
		return ImageFacts{}, fmt.Errorf("the file holds %d bytes, more than the %d bytes (%d KiB) the service takes",
			id.Size, lim.MaxBytes, lim.MaxBytes>>10)
	case lim.MaxUpload > 0 && id.Size > lim.MaxUpload:
		return ImageFacts{}, fmt.Errorf("the file holds %d bytes, more than the %d bytes the service takes in one upload",
			id.Size, lim.MaxUpload)
	}
	var head [8]byte
	n, _ := io.ReadFull(f, head[:])
	if !bytes.HasPrefix(head[:n], pngMagic) && !bytes.HasPrefix(head[:n], jpegMagic) {
		return ImageFacts{}, errors.New("its content is neither a JPEG nor a PNG image (the service takes only " +
			"those two, whatever the file's name)")
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return ImageFacts{}, fmt.Errorf("the file cannot be read: %w", err)
	}
	cfg, format, err := image.DecodeConfig(f)
	if err != nil || (format != "jpeg" && format != "png") {
		return ImageFacts{}, fmt.Errorf("it starts like a JPEG or PNG image but its header cannot be decoded (%v): "+
			"save it again as a JPEG or PNG", err)
	}
	facts := ImageFacts{Format: format, Width: cfg.Width, Height: cfg.Height, Size: id.Size}
	if (lim.MaxWidth > 0 && cfg.Width > lim.MaxWidth) || (lim.MaxHeight > 0 && cfg.Height > lim.MaxHeight) {
		return facts, fmt.Errorf("the image is %d × %d pixels, larger than the %d × %d pixels the service takes",
			cfg.Width, cfg.Height, lim.MaxWidth, lim.MaxHeight)
	}
	facts.Record, err = checkWholeImage(f, id, format, cfg)
	facts.SHA256 = facts.Record.SHA256
	return facts, err
}

// checkWholeImage reads f again from its start, checking the whole image (of format and header
// cfg) from the bytes as they are hashed without holding its pixels (image_check.go), then
// hashing what follows the image's end: the file is read in one pass and never held whole. It
// returns the record of the file's SHA-256 (of identity id), or why the image does not decode:
// truncated, a damaged chunk or checksum, or data that is not an image's.
func checkWholeImage(f *os.File, id Identity, format string, cfg image.Config) (Record, error) {
	var rows []pngPass
	if format == "png" {
		var err error
		if rows, err = pngLayout(f, cfg.Width, cfg.Height); err != nil {
			return Record{}, fmt.Errorf("its header cannot be decoded (%v): save it again as a JPEG or PNG", err)
		}
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return Record{}, fmt.Errorf("the file cannot be read: %w", err)
	}
	h := NewHasher()
	if err := checkImageData(io.TeeReader(f, h), format, rows); err != nil {
		return Record{}, fmt.Errorf("its header is a JPEG's or a PNG's, but the image does not decode whole (%v): the file "+
			"is cut short or damaged; export or save it again as a JPEG or PNG", err)
	}
	if _, err := io.Copy(h, f); err != nil {
		return Record{}, fmt.Errorf("the file cannot be read: %w", err)
	}
	return h.Record(id), nil
}
