package localfile

// The whole-file checks of an image that hold none of its pixels. Decoding the image whole
// (image.Decode) held every pixel: a PNG of 130 KB can declare 4096 × 4096 pixels of 16-bit
// RGBA, 128 MiB decoded, and a plan of ten of them took 1.34 GB at its peak. These checks
// read the file once, as it is hashed, with a few buffers of 32 KiB:
//
//   - a PNG's chunks in order from IHDR to IEND, each chunk's CRC, and its image data inflated
//     into nothing but a count: every row starts with a known filter type, and the data holds
//     exactly the rows that IHDR declares (interlaced or not), then the zlib stream ends with
//     its checksum. This is what image/png refuses, short of the pixels' values, which any bytes
//     make valid.
//   - a JPEG's segments from SOI to EOI, and the scans' data to the marker after them: a file
//     cut short or whose segments do not follow each other is refused. The entropy-coded data is
//     not decoded; the service judges it.

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
)

// maxCheckedImageBytes bounds the image data that is inflated to be checked: a PNG of a few MiB
// may declare gigabytes of rows, which would cost seconds of a plan's time, not memory. A
// larger image is checked by its header only, and the service judges the rest.
const maxCheckedImageBytes = 1 << 30

// checkImageData checks the image of format that r holds, from its first byte, without holding
// its pixels; rows is a PNG's layout (pngLayout). r may be read past the image's end.
func checkImageData(r io.Reader, format string, rows []pngPass) error {
	if format == "jpeg" {
		return checkJPEG(bufio.NewReaderSize(r, 32<<10))
	}
	var total int64
	for _, p := range rows {
		total += p.count * (1 + p.length)
	}
	if total > maxCheckedImageBytes {
		return nil
	}
	return checkPNG(bufio.NewReaderSize(r, 32<<10), rows)
}

// pngLayout reads the bit depth, colour type and interlace method of the PNG in f (of w × h
// pixels, its header decoded already) and returns the layout of its inflated data.
func pngLayout(f io.ReaderAt, w, h int) ([]pngPass, error) {
	var ihdr [5]byte // after the signature, the chunk's length and type, the width and the height
	if _, err := f.ReadAt(ihdr[:], 8+8+8); err != nil {
		return nil, cutShort(err)
	}
	channels := map[byte]int{0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[ihdr[1]]
	if channels == 0 {
		return nil, fmt.Errorf("png: the colour type %d is unknown", ihdr[1])
	}
	return pngRows(w, h, int(ihdr[0])*channels, ihdr[4] == 1), nil
}

// pngPass is count rows of length bytes each (the filter byte apart).
type pngPass struct{ count, length int64 }

// pngRows is the layout of a PNG's inflated data: one pass, or the seven of Adam7.
func pngRows(w, h, bitsPerPixel int, interlaced bool) []pngPass {
	row := func(width int64) int64 { return (width*int64(bitsPerPixel) + 7) / 8 }
	if !interlaced {
		return []pngPass{{int64(h), row(int64(w))}}
	}
	var passes []pngPass
	for _, p := range [7][4]int64{{0, 0, 8, 8}, {4, 0, 8, 8}, {0, 4, 4, 8}, {2, 0, 4, 4}, {0, 2, 2, 4}, {1, 0, 2, 2}, {0, 1, 1, 2}} {
		pw, ph := (int64(w)-p[0]+p[2]-1)/p[2], (int64(h)-p[1]+p[3]-1)/p[3]
		if pw > 0 && ph > 0 {
			passes = append(passes, pngPass{ph, row(pw)})
		}
	}
	return passes
}

// pngChunks reads a PNG's chunks and checks the CRC of each.
type pngChunks struct {
	r    *bufio.Reader
	crc  uint32
	left uint32 // bytes of the current chunk's data not yet read
	typ  [4]byte
}

// next reads the header of the next chunk.
func (c *pngChunks) next() error {
	var head [8]byte
	if _, err := io.ReadFull(c.r, head[:]); err != nil {
		return cutShort(err)
	}
	c.left = binary.BigEndian.Uint32(head[:4])
	if c.left > 1<<31-1 {
		return errors.New("png: a chunk's length is out of range")
	}
	copy(c.typ[:], head[4:])
	c.crc = crc32.ChecksumIEEE(head[4:])
	return nil
}

// Read reads the current chunk's data.
func (c *pngChunks) Read(p []byte) (int, error) {
	if c.left == 0 {
		return 0, io.EOF
	}
	n, err := c.r.Read(p[:min(len(p), int(c.left))])
	c.crc = crc32.Update(c.crc, crc32.IEEETable, p[:n])
	c.left -= uint32(n)
	if err == io.EOF && c.left > 0 {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}

// end reads the rest of the chunk's data and its CRC, and checks it.
func (c *pngChunks) end() error {
	if _, err := io.Copy(io.Discard, c); err != nil {
		return cutShort(err)
	}
	var sum [4]byte
	if _, err := io.ReadFull(c.r, sum[:]); err != nil {
		return cutShort(err)
	}
	if binary.BigEndian.Uint32(sum[:]) != c.crc {
		return fmt.Errorf("png: the CRC of a %s chunk does not hold", c.typ[:])
	}
	return nil
}

// idat reads the data of consecutive IDAT chunks as one stream, checking each chunk's CRC; it
// ends at the first chunk of another type, whose header it has read.
type idat struct {
	c    *pngChunks
	done bool
}

func (d *idat) Read(p []byte) (int, error) {
	for !d.done {
		n, err := d.c.Read(p)
		if n > 0 || (err != nil && err != io.EOF) {
			return n, err
		}
		if err := d.c.end(); err != nil {
			return 0, err
		}
		if err := d.c.next(); err != nil {
			return 0, err
		}
		d.done = string(d.c.typ[:]) != "IDAT"
	}
	return 0, io.EOF
}

// checkPNG checks the PNG that r holds (its signature first) whose inflated data is rows.
func checkPNG(r *bufio.Reader, rows []pngPass) error {
	if _, err := r.Discard(len(pngMagic)); err != nil {
		return cutShort(err)
	}
	c := &pngChunks{r: r}
	for {
		if err := c.next(); err != nil {
			return err
		}
		if string(c.typ[:]) == "IDAT" {
			break
		}
		if string(c.typ[:]) == "IEND" {
			return errors.New("png: no image data")
		}
		if err := c.end(); err != nil {
			return err
		}
	}
	d := &idat{c: c}
	if err := checkPNGRows(d, rows); err != nil {
		return err
	}
	if _, err := io.Copy(io.Discard, d); err != nil { // what follows the zlib stream in the last IDAT
		return err
	}
	// Chunks up to IEND, each checked: an IDAT after the image's data is ignored, as image/png
	// ignores it, and a chunk that must come before the data is refused, as image/png refuses it.
	for string(c.typ[:]) != "IEND" {
		switch string(c.typ[:]) {
		case "IHDR", "PLTE", "tRNS":
			return fmt.Errorf("png: a %s chunk after the image data", c.typ[:])
		}
		if err := c.end(); err != nil {
			return err
		}
		if err := c.next(); err != nil {
			return err
		}
	}
	return c.end()
}

// checkPNGRows inflates the image data into a count of rows, checking each row's filter type,
// that the data holds every row and no more, and the zlib checksum.
func checkPNGRows(data io.Reader, rows []pngPass) error {
	z, err := zlib.NewReader(data)
	if err != nil {
		return fmt.Errorf("png: the image data: %w", cutShort(err))
	}
	defer z.Close()
	buf := make([]byte, 32<<10)
	for _, p := range rows {
		for range p.count {
			if _, err := io.ReadFull(z, buf[:1]); err != nil {
				return fmt.Errorf("png: the image data: %w", cutShort(err))
			}
			if buf[0] > 4 {
				return fmt.Errorf("png: a row has the unknown filter type %d", buf[0])
			}
			if _, err := io.CopyBuffer(io.Discard, io.LimitReader(z, p.length), buf); err != nil {
				return fmt.Errorf("png: the image data: %w", cutShort(err))
			}
		}
	}
	// The stream must end here, its checksum checked: no row more, nothing cut.
	if n, err := z.Read(buf[:1]); n != 0 || err != io.EOF {
		if n != 0 {
			return errors.New("png: more image data than the rows its header declares")
		}
		return fmt.Errorf("png: the image data: %w", cutShort(err))
	}
	return nil
}

// cutShort names an unexpected end of the file as such.
func cutShort(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("the file ends before the image does")
	}
	return err
}

// checkJPEG checks the segments of the JPEG that r holds, from SOI to EOI, and that each scan's
// data reaches a marker.
func checkJPEG(r *bufio.Reader) error {
	var soi [2]byte
	if _, err := io.ReadFull(r, soi[:]); err != nil || !bytes.Equal(soi[:], jpegMagic[:2]) {
		return errors.New("jpeg: no start of image")
	}
	scanned := false
	var m byte // the marker that a scan's data ended at, still to handle
	for {
		if m == 0 {
			var err error
			if m, err = jpegMarker(r); err != nil {
				return err
			}
		}
		switch {
		case m == 0xd9: // EOI
			if !scanned {
				return errors.New("jpeg: no image data")
			}
			return nil
		case m >= 0xd0 && m <= 0xd7, m == 0x01: // RSTn and TEM stand alone
			m = 0
			continue
		}
		var size [2]byte
		if _, err := io.ReadFull(r, size[:]); err != nil {
			return cutShort(err)
		}
		n := int(binary.BigEndian.Uint16(size[:]))
		if n < 2 {
			return fmt.Errorf("jpeg: a segment of marker %#x has the length %d", m, n)
		}
		if _, err := r.Discard(n - 2); err != nil {
			return cutShort(err)
		}
		sos := m == 0xda
		m = 0
		if sos { // the scan's data follows, up to the next marker
			scanned = true
			var err error
			if m, err = skipScan(r); err != nil {
				return err
			}
		}
	}
}

// jpegMarker reads the next marker (0xFF, any fill bytes 0xFF, the marker's code).
func jpegMarker(r *bufio.Reader) (byte, error) {
	b, err := r.ReadByte()
	if err != nil {
		return 0, cutShort(err)
	}
	if b != 0xff {
		return 0, fmt.Errorf("jpeg: %#x where a marker should start", b)
	}
	return markerCode(r)
}

// markerCode reads the code of a marker whose first 0xFF was read, past any fill bytes 0xFF; 0
// is a stuffed byte, a 0xFF of data.
func markerCode(r *bufio.Reader) (byte, error) {
	for {
		b, err := r.ReadByte()
		if err != nil {
			return 0, cutShort(err)
		}
		if b != 0xff {
			return b, nil
		}
	}
}

// skipScan reads a scan's entropy-coded data up to the marker that ends it (0xFF followed by
// neither 0x00, a stuffed byte, nor a restart marker), and returns that marker's code.
func skipScan(r *bufio.Reader) (byte, error) {
	for {
		_, err := r.ReadSlice(0xff)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil {
			return 0, cutShort(err)
		}
		m, err := markerCode(r)
		if err != nil {
			return 0, err
		}
		if m != 0 && (m < 0xd0 || m > 0xd7) {
			return m, nil
		}
	}
}
