package provider

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// testImage is a w × h image whose pixels depend on seed, so that two seeds make two contents.
func testImage(w, h int, seed byte) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.NRGBA{R: byte(x) + seed, G: byte(y) ^ seed, B: seed, A: 255})
		}
	}
	return img
}

// writePNG writes a w × h PNG into dir and returns its path.
func writePNG(t *testing.T, dir, name string, w, h int, seed byte) string {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, testImage(w, h, seed)); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	writeFile(t, p, b.String())
	return p
}

// writeJPEG writes a w × h JPEG into dir and returns its path.
func writeJPEG(t *testing.T, dir, name string, w, h int, seed byte) string {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, testImage(w, h, seed), nil); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	writeFile(t, p, b.String())
	return p
}

// fileSHA256 is the SHA-256 of the file p, in lowercase hex.
func fileSHA256(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func TestReadImageFile(t *testing.T) {
	dir := t.TempDir()
	pngFile := writePNG(t, dir, "logo.png", 40, 20, 1)
	jpegFile := writeJPEG(t, dir, "photo", 300, 150, 2) // no extension: the content decides
	facts, err := readImageFile(pngFile, logoImage, fileHashRecord{})
	if err != nil || facts.format != "png" || facts.width != 40 || facts.height != 20 || facts.sha256 != fileSHA256(t, pngFile) {
		t.Errorf("png: %+v, %v", facts, err)
	}
	facts, err = readImageFile(jpegFile, watermarkImage, fileHashRecord{})
	if err != nil || facts.format != "jpeg" || facts.width != 300 || facts.sha256 != fileSHA256(t, jpegFile) {
		t.Errorf("jpeg: %+v, %v", facts, err)
	}

	text := filepath.Join(dir, "fake.png")
	writeFile(t, text, "WEBVTT\n\n00:00.000 --> 00:01.000\nnot an image\n")
	gif := filepath.Join(dir, "anim.gif")
	writeFile(t, gif, "GIF89a\x01\x00\x01\x00\x00\x00\x00;")
	broken := filepath.Join(dir, "broken.png")
	writeFile(t, broken, string(pngMagic)+"garbage that is not a PNG header")
	empty := filepath.Join(dir, "empty.png")
	writeFile(t, empty, "")
	big := writePNG(t, dir, "big.png", 400, 400, 3)
	cut, badCRC, cutJPEG := damagedImages(t, dir)
	heavy := writeNoisyPNG(t, dir, "heavy.png", 200, 100)
	for name, c := range map[string]struct {
		file string
		lim  imageLimits
		want string
	}{
		"text named .png":     {text, watermarkImage, "neither a JPEG nor a PNG"},
		"gif":                 {gif, watermarkImage, "neither a JPEG nor a PNG"},
		"broken header":       {broken, watermarkImage, "cannot be decoded"},
		"empty":               {empty, watermarkImage, "empty"},
		"directory":           {dir, watermarkImage, "directory"},
		"missing":             {filepath.Join(dir, "nope.png"), watermarkImage, "cannot be read"},
		"logo too wide":       {jpegFile, logoImage, "300 × 150 pixels, larger than the 200 × 100"},
		"logo too many bytes": {big, imageLimits{maxBytes: 100}, "more than the 100 bytes"},
		"logo over 100 KiB":   {heavy, logoImage, "more than the 102400 bytes (100 KiB)"},
		"png cut short":       {cut, logoImage, "does not decode whole"},
		"png bad IDAT CRC":    {badCRC, watermarkImage, "does not decode whole"},
		"jpeg cut short":      {cutJPEG, watermarkImage, "does not decode whole"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := readImageFile(c.file, c.lim, fileHashRecord{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one that says %q", err, c.want)
			}
		})
	}
}

// damagedImages writes into dir a PNG cut after its header, a PNG whose image data fails its
// CRC, and a JPEG cut in its scan: each has a header that decodes, and nothing more that does.
func damagedImages(t *testing.T, dir string) (cut, badCRC, cutJPEG string) {
	t.Helper()
	good, err := os.ReadFile(writePNG(t, dir, "good.png", 40, 20, 5))
	if err != nil {
		t.Fatal(err)
	}
	idat := bytes.Index(good, []byte("IDAT"))
	if idat < 0 {
		t.Fatal("no IDAT chunk in the test PNG")
	}
	cut = filepath.Join(dir, "cut.png")
	writeFile(t, cut, string(good[:idat-4])) // the signature and IHDR only
	bad := bytes.Clone(good)
	bad[idat+4] ^= 0xff // the first byte of the chunk's data: its CRC no longer holds
	badCRC = filepath.Join(dir, "bad-crc.png")
	writeFile(t, badCRC, string(bad))
	jpegBytes, err := os.ReadFile(writeJPEG(t, dir, "good.jpg", 256, 256, 6))
	if err != nil {
		t.Fatal(err)
	}
	sos := bytes.Index(jpegBytes, []byte{0xff, 0xda}) // the start of the scan: the header is whole before it
	if sos < 0 {
		t.Fatal("no scan in the test JPEG")
	}
	cutJPEG = filepath.Join(dir, "cut.jpg")
	writeFile(t, cutJPEG, string(jpegBytes[:sos+(len(jpegBytes)-sos)/2]))
	return cut, badCRC, cutJPEG
}

// TestCheckPlannedImage: a file whose content changed after the plan took its SHA-256 is refused
// before an upload, with an error on the attribute that names the change.
func TestCheckPlannedImage(t *testing.T) {
	dir := t.TempDir()
	file := writePNG(t, dir, "mark.png", 10, 10, 1)
	planned := fileSHA256(t, file)
	if _, err := checkPlannedImage(file, planned, watermarkImage); err != nil {
		t.Fatalf("the planned file: %v", err)
	}
	writePNG(t, dir, "mark.png", 10, 10, 2)
	_, err := checkPlannedImage(file, planned, watermarkImage)
	if err == nil || !strings.Contains(err.Error(), "changed after the plan") {
		t.Fatalf("a changed file: %v", err)
	}
	var diags diag.Diagnostics
	addImageFileError(&diags, path.Root("source_file"), "Unable to Create Watermark", err)
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
		{refusal("/watermarks", "file"), watermarkWrites.attrs, path.Root("source_file")},
		{refusal("/players/pt1/logo", "file"), playerThemeLogoPaths, path.Root("logo_file")},
		{refusal("/players/pt1/logo", "link"), playerThemeLogoPaths, path.Root("logo_link")},
	} {
		var diags diag.Diagnostics
		addAPIErrorDiagnostics(&diags, "Unable to Upload", c.err, nil, c.attrs)
		if len(diags) != 1 {
			t.Fatalf("%d diagnostics: %v", len(diags), diags)
		}
		d, ok := diags[0].(diag.DiagnosticWithPath)
		if !ok || !d.Path().Equal(c.want) {
			t.Errorf("the refusal naming %v is not on %s: %v", c.err, c.want, diags[0])
		}
	}
}
