//go:build !windows

package ocr

// encodeRaster is the encoding Tesseract receives: uncompressed TIFF, the
// fastest for Leptonica to read (see image.go); Windows uses PGM.
func encodeRaster(pix []byte, w, h, dpi int) []byte { return encodeTIFF(pix, w, h, dpi) }
