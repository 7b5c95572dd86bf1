package ocr

import "strconv"

// encodePGM encodes a grey raster as binary PGM (P5): the format Images take
// to Tesseract on Windows (raster_windows.go), where Leptonica is built
// without libtiff (packaging/scripts/windows-libs.sh) and reads PNM on its own. PGM
// carries no resolution: Tesseract gets it from user_defined_dpi.
func encodePGM(pix []byte, w, h int) []byte {
	head := "P5\n" + strconv.Itoa(w) + " " + strconv.Itoa(h) + "\n255\n"
	out := make([]byte, 0, len(head)+len(pix))
	return append(append(out, head...), pix...)
}
