package localfile

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/videohost/terraform-provider-videohost/internal/localfile/localfiletest"
)

// The limits of the provider's two kinds of image: a theme's logo and a watermark.
var (
	logoImage      = ImageLimits{MaxWidth: 200, MaxHeight: 100, MaxBytes: 100 << 10, MaxUpload: 6 << 20}
	watermarkImage = ImageLimits{MaxUpload: 6 << 20}
)

func TestReadImage(t *testing.T) {
	dir := t.TempDir()
	pngFile := localfiletest.WritePNG(t, dir, "logo.png", 40, 20, 1)
	jpegFile := localfiletest.WriteJPEG(t, dir, "photo", 300, 150, 2) // no extension: the content decides
	facts, err := ReadImage(pngFile, logoImage, Record{})
	if err != nil || facts.Format != "png" || facts.Width != 40 || facts.Height != 20 || facts.SHA256 != localfiletest.FileSHA256(t, pngFile) {
		t.Errorf("png: %+v, %v", facts, err)
	}
	facts, err = ReadImage(jpegFile, watermarkImage, Record{})
	if err != nil || facts.Format != "jpeg" || facts.Width != 300 || facts.SHA256 != localfiletest.FileSHA256(t, jpegFile) {
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
	big := localfiletest.WritePNG(t, dir, "big.png", 400, 400, 3)
	cut, badCRC, cutJPEG := localfiletest.DamagedImages(t, dir)
	heavy := localfiletest.WriteNoisyPNG(t, dir, "heavy.png", 200, 100)
	for name, c := range map[string]struct {
		file string
		lim  ImageLimits
		want string
	}{
		"text named .png":     {text, watermarkImage, "neither a JPEG nor a PNG"},
		"gif":                 {gif, watermarkImage, "neither a JPEG nor a PNG"},
		"broken header":       {broken, watermarkImage, "cannot be decoded"},
		"empty":               {empty, watermarkImage, "empty"},
		"directory":           {dir, watermarkImage, "directory"},
		"missing":             {filepath.Join(dir, "nope.png"), watermarkImage, "cannot be read"},
		"link to nothing":     {danglingLink(t, dir), watermarkImage, "symbolic link to"},
		"logo too wide":       {jpegFile, logoImage, "300 × 150 pixels, larger than the 200 × 100"},
		"logo too many bytes": {big, ImageLimits{MaxBytes: 100}, "more than the 100 bytes"},
		"logo over 100 KiB":   {heavy, logoImage, "more than the 102400 bytes (100 KiB)"},
		"png cut short":       {cut, logoImage, "does not decode whole"},
		"png bad IDAT CRC":    {badCRC, watermarkImage, "does not decode whole"},
		"jpeg cut short":      {cutJPEG, watermarkImage, "does not decode whole"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ReadImage(c.file, c.lim, Record{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one that says %q", err, c.want)
			}
		})
	}
}
