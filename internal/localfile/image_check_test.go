package localfile

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/color/palette"
	"image/jpeg"
	"image/png"
	"testing"
)

// pngSpec describes a PNG written by pngBytes, a row at a time (never the pixels whole), with
// the defects a test asks for.
type pngSpec struct {
	w, h         int
	depth, ctype byte
	interlace    bool
	filter       byte // the filter type of every row
	rowsDelta    int  // rows written beyond (or, negative, short of) what the header declares
	idatSize     int  // the size of each IDAT chunk; 0 puts the data in one
	badAdler     bool // the zlib stream's checksum is wrong (each chunk's CRC still holds)
	noIEND       bool
}

// pngBytes writes the PNG that s describes: all its pixels zero.
func (s pngSpec) bytes(t testing.TB) []byte {
	t.Helper()
	var out bytes.Buffer
	out.Write(pngMagic)
	chunk := func(typ string, data []byte) {
		var head [8]byte
		binary.BigEndian.PutUint32(head[:4], uint32(len(data)))
		copy(head[4:], typ)
		out.Write(head[:])
		out.Write(data)
		crc := crc32.Update(crc32.ChecksumIEEE([]byte(typ)), crc32.IEEETable, data)
		out.Write(binary.BigEndian.AppendUint32(nil, crc))
	}
	ihdr := binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(nil, uint32(s.w)), uint32(s.h))
	interlace := byte(0)
	if s.interlace {
		interlace = 1
	}
	chunk("IHDR", append(ihdr, s.depth, s.ctype, 0, 0, interlace))
	if s.ctype == 3 {
		chunk("PLTE", make([]byte, 3<<s.depth))
	}
	var data bytes.Buffer
	z := zlib.NewWriter(&data)
	channels := map[byte]int{0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[s.ctype]
	passes := pngRows(s.w, s.h, int(s.depth)*channels, s.interlace)
	passes[len(passes)-1].count += int64(s.rowsDelta)
	for _, p := range passes {
		row := make([]byte, 1+p.length)
		row[0] = s.filter
		for range p.count {
			if _, err := z.Write(row); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	raw := data.Bytes()
	if s.badAdler {
		raw[len(raw)-1] ^= 0xff
	}
	for size := max(s.idatSize, len(raw)); len(raw) > 0; raw = raw[min(size, len(raw)):] {
		chunk("IDAT", raw[:min(size, len(raw))])
	}
	if !s.noIEND {
		chunk("IEND", nil)
	}
	return out.Bytes()
}

// pngChunk is a PNG chunk of type typ holding data, with its CRC.
func pngChunk(typ string, data []byte) []byte {
	b := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	b = append(append(b, typ...), data...)
	return binary.BigEndian.AppendUint32(b, crc32.Update(crc32.ChecksumIEEE([]byte(typ)), crc32.IEEETable, data))
}

// join is the parts one after the other, in a new slice.
func join(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// checkBytes checks b as ReadImage does after its header.
func checkBytes(b []byte) error {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		return err
	}
	var rows []pngPass
	if format == "png" {
		if rows, err = pngLayout(bytes.NewReader(b), cfg.Width, cfg.Height); err != nil {
			return err
		}
	}
	return checkImageData(bytes.NewReader(b), format, rows)
}

// TestImageCheckAgreesWithDecode: the checks that hold no pixels accept and refuse what
// image.Decode, which holds them all, accepts and refuses: PNGs of every colour type and of
// depths below a byte, interlaced, split over IDAT chunks; a row of an unknown filter, a row
// missing or one too many, a wrong zlib checksum, a missing IEND, a damaged chunk, a file cut
// anywhere; JPEGs whole, cut anywhere, or with bytes after their end.
func TestImageCheckAgreesWithDecode(t *testing.T) {
	cases := map[string][]byte{}
	for name, s := range map[string]pngSpec{
		"gray 1-bit":           {w: 13, h: 7, depth: 1, ctype: 0},
		"palette 4-bit":        {w: 9, h: 5, depth: 4, ctype: 3},
		"rgb":                  {w: 8, h: 8, depth: 8, ctype: 2},
		"gray alpha 16-bit":    {w: 5, h: 3, depth: 16, ctype: 4},
		"rgba 16-bit":          {w: 33, h: 17, depth: 16, ctype: 6},
		"interlaced":           {w: 19, h: 11, depth: 8, ctype: 6, interlace: true},
		"interlaced 1 × 1":     {w: 1, h: 1, depth: 8, ctype: 0, interlace: true},
		"split into chunks":    {w: 40, h: 40, depth: 8, ctype: 2, idatSize: 7},
		"paeth rows":           {w: 4, h: 4, depth: 8, ctype: 0, filter: 4},
		"unknown filter":       {w: 4, h: 4, depth: 8, ctype: 0, filter: 5},
		"a row missing":        {w: 16, h: 16, depth: 8, ctype: 6, rowsDelta: -1},
		"a row too many":       {w: 16, h: 16, depth: 8, ctype: 6, rowsDelta: 1},
		"interlaced row short": {w: 19, h: 11, depth: 8, ctype: 6, interlace: true, rowsDelta: -1},
		"bad zlib checksum":    {w: 16, h: 16, depth: 8, ctype: 6, badAdler: true},
		"no IEND":              {w: 16, h: 16, depth: 8, ctype: 6, noIEND: true},
	} {
		cases["png "+name] = s.bytes(t)
	}
	var enc bytes.Buffer
	img := image.NewPaletted(image.Rect(0, 0, 30, 20), palette.Plan9)
	img.Set(3, 4, color.White)
	if err := png.Encode(&enc, img); err != nil {
		t.Fatal(err)
	}
	goPNG := enc.Bytes()
	cases["png by image/png"] = goPNG
	damaged := bytes.Clone(goPNG)
	damaged[len(damaged)-20] ^= 0x10
	cases["png damaged"] = damaged
	var jb bytes.Buffer
	rgba := image.NewRGBA(image.Rect(0, 0, 64, 48))
	for i := range rgba.Pix {
		rgba.Pix[i] = byte(i * 7)
	}
	if err := jpeg.Encode(&jb, rgba, nil); err != nil {
		t.Fatal(err)
	}
	goJPEG := jb.Bytes()
	cases["jpeg"] = goJPEG
	cases["jpeg then bytes"] = append(bytes.Clone(goJPEG), "trailing"...)
	noPLTE := pngSpec{w: 4, h: 4, depth: 8, ctype: 3}.bytes(t)
	plte := bytes.Index(noPLTE, []byte("PLTE")) - 4
	cases["png palette without PLTE"] = append(bytes.Clone(noPLTE[:plte]), noPLTE[plte+12+3*256:]...)
	iend := len(goPNG) - 12
	chunkAt := func(b []byte, typ string) []byte {
		i := bytes.Index(b, []byte(typ)) - 4
		return b[i : i+12+int(binary.BigEndian.Uint32(b[i:]))]
	}
	text := pngChunk("tEXt", []byte("Comment\x00after the image data"))
	cases["png IDAT after a tEXt"] = join(goPNG[:iend], text, chunkAt(goPNG, "IDAT"), goPNG[iend:])
	cases["png empty IDAT after a tEXt"] = join(goPNG[:iend], text, pngChunk("IDAT", nil), goPNG[iend:])
	cases["png then bytes"] = join(goPNG, []byte("trailing"))
	for label, whole := range map[string][]byte{"png": goPNG, "jpeg": goJPEG, "interlaced png": cases["png interlaced"]} {
		for _, cut := range []int{len(whole) / 3, len(whole) / 2, len(whole) - 13, len(whole) - 1} {
			cases[fmt.Sprintf("%s cut to %d bytes", label, cut)] = whole[:cut]
		}
	}
	valid := map[string]bool{"png gray 1-bit": true, "png palette 4-bit": true, "png rgb": true,
		"png gray alpha 16-bit": true, "png rgba 16-bit": true, "png interlaced": true, "png interlaced 1 × 1": true,
		"png split into chunks": true, "png paeth rows": true, "png by image/png": true, "jpeg": true, "jpeg then bytes": true,
		"png IDAT after a tEXt": true, "png empty IDAT after a tEXt": true, "png then bytes": true}
	for name, b := range cases {
		_, _, decodeErr := image.Decode(bytes.NewReader(b))
		checkErr := checkBytes(b)
		if (decodeErr == nil) != (checkErr == nil) || (checkErr == nil) != valid[name] {
			t.Errorf("%s: image.Decode says %v, the check says %v; valid: %v", name, decodeErr, checkErr, valid[name])
		}
	}
}

// TestReadImageOfManyPixels: a PNG of 130 KB that declares 4096 × 4096 pixels of 16-bit RGBA
// (128 MiB decoded) is checked whole and hashed; the same with one row missing is refused.
func TestReadImageOfManyPixels(t *testing.T) {
	dir := t.TempDir()
	big := pngSpec{w: 4096, h: 4096, depth: 16, ctype: 6}
	name := tempFile(t, dir, "big.png", string(big.bytes(t)))
	facts, err := ReadImage(name, watermarkImage, Record{})
	if err != nil || facts.Width != 4096 || facts.SHA256 == "" {
		t.Fatalf("ReadImage = %+v, %v", facts, err)
	}
	big.rowsDelta = -1
	short := tempFile(t, dir, "short.png", string(big.bytes(t)))
	if _, err := ReadImage(short, watermarkImage, Record{}); err == nil {
		t.Error("a PNG one row short was accepted")
	}
}

// FuzzImageCheckAgreesWithDecode: on any bytes that image.DecodeConfig takes for a PNG of at
// most a million pixels (image.Decode would hold larger ones), the checks and image.Decode
// agree on whether the image is whole.
func FuzzImageCheckAgreesWithDecode(f *testing.F) {
	for _, s := range []pngSpec{
		{w: 13, h: 7, depth: 1, ctype: 0}, {w: 9, h: 5, depth: 4, ctype: 3}, {w: 19, h: 11, depth: 8, ctype: 6, interlace: true},
		{w: 40, h: 4, depth: 16, ctype: 2, idatSize: 9},
	} {
		f.Add(s.bytes(f))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		cfg, format, err := image.DecodeConfig(bytes.NewReader(b))
		if err != nil || format != "png" || cfg.Width*cfg.Height > 1<<20 {
			return
		}
		_, _, decodeErr := image.Decode(bytes.NewReader(b))
		if checkErr := checkBytes(b); (decodeErr == nil) != (checkErr == nil) {
			t.Errorf("image.Decode says %v, the check says %v", decodeErr, checkErr)
		}
	})
}
