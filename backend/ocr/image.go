package ocr

import (
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
)

// Images reach Tesseract as uncompressed 8-bit grey TIFF: a 174-byte
// header in front of the raster, which Leptonica hands to libtiff in one
// read. Measured on a 300 DPI A4 page (BenchmarkImageFormats): Leptonica
// reads it in 2 ms, against 9 ms for BMP, 44 ms for grey PNG (plus 190 ms
// to encode it in Go) and, surprisingly, 140 ms for binary PGM, which
// Leptonica reads byte by byte.

// gray returns img as 8-bit grey levels, row by row without padding,
// using the Rec. 601 luma weights Leptonica also uses.
func gray(img image.Image) (pix []byte, w, h int) {
	b := img.Bounds()
	w, h = b.Dx(), b.Dy()
	pix = make([]byte, w*h)
	switch m := img.(type) {
	case *image.Gray:
		for y := 0; y < h; y++ {
			i := m.PixOffset(b.Min.X, b.Min.Y+y)
			copy(pix[y*w:(y+1)*w], m.Pix[i:i+w])
		}
	case *image.RGBA:
		rgbaToGray(pix, m.Pix, m.Stride, m.PixOffset(b.Min.X, b.Min.Y), w, h)
	case *image.NRGBA:
		// Rendered pages are opaque; alpha is ignored like Tesseract does.
		rgbaToGray(pix, m.Pix, m.Stride, m.PixOffset(b.Min.X, b.Min.Y), w, h)
	default:
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				pix[y*w+x] = color.GrayModel.Convert(img.At(b.Min.X+x, b.Min.Y+y)).(color.Gray).Y
			}
		}
	}
	return pix, w, h
}

func rgbaToGray(dst, src []byte, stride, off, w, h int) {
	for y := 0; y < h; y++ {
		row := src[off+y*stride : off+y*stride+4*w]
		out := dst[y*w : (y+1)*w]
		for x := range out {
			r, g, b := uint32(row[4*x]), uint32(row[4*x+1]), uint32(row[4*x+2])
			out[x] = uint8((19595*r + 38470*g + 7471*b + 1<<15) >> 16)
		}
	}
}

// otsu returns the grey level that best separates ink from paper
// (Otsu 1979: maximal between-class variance of the histogram).
func otsu(pix []byte) uint8 {
	var hist [256]int
	for _, p := range pix {
		hist[p]++
	}
	total := len(pix)
	var sum float64
	for i, n := range hist {
		sum += float64(i * n)
	}
	var sumB, best float64
	var wB int
	var level uint8
	for t := 0; t < 256; t++ {
		wB += hist[t]
		if wB == 0 {
			continue
		}
		wF := total - wB
		if wF == 0 {
			break
		}
		sumB += float64(t * hist[t])
		mB := sumB / float64(wB)
		mF := (sum - sumB) / float64(wF)
		v := float64(wB) * float64(wF) * (mB - mF) * (mB - mF)
		if v > best {
			best, level = v, uint8(t)
		}
	}
	return level
}

// binarize maps pixels at or below the Otsu level to black, others to white.
func binarize(pix []byte) {
	t := otsu(pix)
	for i, p := range pix {
		if p <= t {
			pix[i] = 0
		} else {
			pix[i] = 255
		}
	}
}

// tiffHeaderSize is the size of what encodeTIFF writes before the pixels: the
// 8-byte file header, an IFD of 12 entries and two resolution rationals.
const tiffHeaderSize = 8 + 2 + 12*12 + 4 + 2*8

// encodeTIFF encodes a grey raster as a little-endian baseline TIFF (TIFF 6.0:
// one uncompressed strip, 8 bits, black is zero) that records dpi.
func encodeTIFF(pix []byte, w, h, dpi int) []byte {
	out := make([]byte, tiffHeaderSize, tiffHeaderSize+len(pix))
	le := binary.LittleEndian
	copy(out, "II")
	le.PutUint16(out[2:], 42)
	le.PutUint32(out[4:], 8) // the IFD follows the header
	const (
		short    = 3
		long     = 4
		rational = 5
	)
	rationals := uint32(8 + 2 + 12*12 + 4)
	entries := []struct {
		tag, typ uint16
		value    uint32
	}{ // in ascending tag order, as TIFF requires
		{256, long, uint32(w)},         // ImageWidth
		{257, long, uint32(h)},         // ImageLength
		{258, short, 8},                // BitsPerSample
		{259, short, 1},                // Compression: none
		{262, short, 1},                // PhotometricInterpretation: black is zero
		{273, long, tiffHeaderSize},    // StripOffsets
		{277, short, 1},                // SamplesPerPixel
		{278, long, uint32(h)},         // RowsPerStrip: a single strip
		{279, long, uint32(len(pix))},  // StripByteCounts
		{282, rational, rationals},     // XResolution (offset of the value)
		{283, rational, rationals + 8}, // YResolution
		{296, short, 2},                // ResolutionUnit: inch
	}
	ifd := out[8:]
	le.PutUint16(ifd, uint16(len(entries)))
	for i, e := range entries {
		b := ifd[2+12*i:]
		le.PutUint16(b, e.tag)
		le.PutUint16(b[2:], e.typ)
		le.PutUint32(b[4:], 1)
		if e.typ == short {
			le.PutUint16(b[8:], uint16(e.value)) // left-justified in the field
		} else {
			le.PutUint32(b[8:], e.value)
		}
	}
	// The next-IFD offset (0) is already zero.
	for _, off := range []uint32{rationals, rationals + 8} {
		le.PutUint32(out[off:], uint32(dpi))
		le.PutUint32(out[off+4:], 1)
	}
	return append(out, pix...)
}

// encode prepares img for Tesseract: grey, optionally binarised, as TIFF
// (PGM on Windows: encodeRaster).
// bilevel reports that every pixel is black or white (a CCITT or JBIG2
// scan rendered at its resolution, or a binarised image).
func encode(img image.Image, binarise bool, dpi int) (data []byte, bilevel bool, err error) {
	if img == nil {
		return nil, false, fmt.Errorf("%w: no image", ErrImage)
	}
	b := img.Bounds()
	if b.Dx() < 3 || b.Dy() < 3 {
		return nil, false, fmt.Errorf("%w: %dx%d pixels is too small", ErrImage, b.Dx(), b.Dy())
	}
	const maxSide = 32767 // Leptonica and Tesseract reject larger images
	if b.Dx() > maxSide || b.Dy() > maxSide {
		return nil, false, fmt.Errorf("%w: %dx%d pixels is too large (at most %d a side)", ErrImage, b.Dx(), b.Dy(), maxSide)
	}
	pix, w, h := gray(img)
	if binarise {
		binarize(pix)
	}
	return encodeRaster(pix, w, h, dpi), binarise || isBilevel(pix), nil
}

func isBilevel(pix []byte) bool {
	for _, p := range pix {
		if p != 0 && p != 255 {
			return false
		}
	}
	return true
}
