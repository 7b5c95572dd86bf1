//go:build windows

package ocr

// encodeRaster is the encoding Tesseract receives: binary PGM on Windows,
// whose Leptonica has no libtiff (see encodePGM).
func encodeRaster(pix []byte, w, h, dpi int) []byte { return encodePGM(pix, w, h) }
